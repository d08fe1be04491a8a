"""FIG-010, "The same steps in a trained layer" (chapter 5): how long each step's vector is
for each word of the bench's sentence, in the hand-set layer and in all-MiniLM-L6-v2's first
layer (measured when the data file was made: attention.trained_layer).
"""

from __future__ import annotations

import numpy as np

from .. import bench, layer, layer_view, trained_layer
from ..numbers import fixed, shown
from ..protocol.records import Figure

__all__ = ["FIGURE", "data", "export"]

TITLES = {key: title for key, _, title in layer_view.STEPS}


def data() -> dict:
    """Each step's size per word in both layers, and MiniLM's heads' writes against the
    residual going in.

    Schema: ``{"sentence", "words", "word": {"index", "word"} (the one the table shows), "width": {"toy", "trained"},
    "steps": [{"key", "title", "toy": [shown], "trained":
    [text]}], "heads": {"trained": [[text per word] per head], "toy": [[shown per word] per
    head]}, "ratio": {"toy", "trained"}, "model"}``; ``ratio`` is the mean over words of all
    heads' write over the residual going in.

    >>> d = data()
    >>> d["words"][:3], len(d["heads"]["trained"]), d["steps"][0]["trained"][:2]
    (['the', 'engineer', 'fixed'], 12, ['7.095', '10.851'])
    """
    measured = trained_layer.data()
    words = list(bench.DEFAULT_SENTENCE)
    assert measured["tokens"][1:-1] == words, "the measurements are of another sentence"
    r = layer.forward(words)
    cols = layer_view.columns(r)
    toy = {k: np.linalg.norm(v, axis=1) for k, v in cols.items()}  # (n,) each
    d_v = len(bench.FEATURES)
    toy_heads = [np.linalg.norm(r.concat[:, k * d_v:(k + 1) * d_v] @ r.W_O[k * d_v:(k + 1) * d_v],
                                axis=1) for k in range(len(r.heads))]  # (n,) each
    trained = {k: [float(v) for v in measured["steps"][k][1:-1]] for k in cols}
    she = next(i for i, w in enumerate(words) if bench.LEXICON[w].word_class == "pronoun")
    return {
        "sentence": " ".join(words), "words": words, "model": measured["model"],
        "word": {"index": she, "word": words[she]},
        "width": {"toy": layer.D_MODEL, "trained": measured["width"]},
        "steps": [{"key": k, "title": TITLES[k], "toy": [shown(v) for v in toy[k]],
                   "trained": measured["steps"][k][1:-1]} for k in cols],
        "heads": {"trained": [h[1:-1] for h in measured["heads"]],
                  "toy": [[shown(v) for v in h] for h in toy_heads],
                  "toy_names": [h.name for h in r.heads]},
        "ratio": {"toy": fixed(float(np.mean(toy["projected"] / toy["x"]))),
                  "trained": fixed(float(np.mean(np.array(trained["projected"])
                                                 / np.array(trained["x"]))))},
    }


def export(state: dict) -> dict:
    """Its download: each step's size per word in both layers."""
    d = data()
    rows = [[s["key"], w, s["toy"][j]["value"], float(s["trained"][j])]
            for s in d["steps"] for j, w in enumerate(d["words"])]
    return {"columns": ["step", "word", "hand_set_size", "minilm_size"], "rows": rows,
            "sentence": d["sentence"], "model": d["model"]}


FIGURE = Figure(number="FIG-010", chapter="layer", title="The same steps in a trained layer",
                data=data, export=export, live=False)
