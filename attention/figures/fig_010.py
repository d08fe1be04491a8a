"""FIG-010, "The same steps in a trained layer" (chapter 5): how long each step's vector is
for each word of the reader's sentence, in the hand-set layer and in all-MiniLM-L6-v2's first
layer (attention.trained_layer). The build draws the bench's sentence; in the browser, the
reader asks for their own, and Python computes it once the first layer's weights have come.
"""

from __future__ import annotations

import numpy as np

from .. import bench, layer, layer_view, lexicon, trained_layer
from ..bench_input import parse_sentence
from ..catalog import say, spoken
from ..numbers import fixed, shown, spelled
from ..protocol.records import Figure, RequestError

__all__ = ["FIGURE", "data", "export"]

def data(sentence=None) -> dict:
    """Each step's size per word in both layers (the whole hand-set layer, at T = 1), and
    MiniLM's heads' writes against the residual going in, for a sentence of the bench's lexicon
    (its default when None). Raises BenchInputError for a sentence the bench refuses, and
    trained_layer.WeightsMissing when the weights file is not here.

    Schema: ``{"sentence", "words", "count" (e.g. "eight words"), "word": {"index", "word"}
    (the one the build's table shows), "width": {"toy", "trained"}, "steps": [{"key", "title",
    "toy": [shown per word], "trained": [text per word]}], "heads": {"trained": [[text per
    word] per head], "toy": [[shown per word] per head], "toy_names"}, "ratio": {"toy",
    "trained"}, "model", "download": {"file", "size", "within"}}``; ``ratio`` is the mean over
    words of all heads' write over the residual going in; ``download`` is the weights file's
    name on the site, its size in MB and how close its sizes are to the full model's in
    percent, as text.

    >>> d = data()
    >>> d["words"][:3], len(d["heads"]["trained"]), d["steps"][0]["trained"][:2]
    (['the', 'engineer', 'fixed'], 12, ['7.096', '10.851'])
    """
    words = list(bench.DEFAULT_SENTENCE if sentence is None else parse_sentence(sentence, "en"))
    sized = trained_layer.sizes(words)
    measured = {"steps": {k: [fixed(v) for v in a] for k, a in sized["steps"].items()},
                "heads": [[fixed(v) for v in h] for h in sized["heads"]]}
    r = layer.forward(words)
    cols = layer_view.columns(r)
    toy = {k: np.linalg.norm(v, axis=1) for k, v in cols.items()}  # (n,) each
    d_v = len(bench.FEATURES)
    toy_heads = [np.linalg.norm(r.concat[:, k * d_v:(k + 1) * d_v] @ r.W_O[k * d_v:(k + 1) * d_v],
                                axis=1) for k in range(len(r.heads))]  # (n,) each
    trained = {k: sized["steps"][k][1:-1] for k in cols}
    i = lexicon.first_word(words)
    mb = trained_layer.WEIGHTS.stat().st_size / 1e6
    titles = layer_view.titles()  # as the layer's view says them, in the language spoken now
    return {
        "sentence": " ".join(words), "words": words, "model": sized["model"],
        # whether the layer figure above opens on a sentence this model reads (English)
        "follows": lexicon.english(lexicon.default_sentence()),
        "count": say("fig-010-core.words", count=len(words), word=spelled(len(words), spoken())),
        "word": {"index": i, "word": words[i]},
        "width": {"toy": layer.D_MODEL, "trained": sized["width"]},
        "steps": [{"key": k, "title": titles[k], "toy": [shown(v) for v in toy[k]],
                   "trained": measured["steps"][k][1:-1]} for k in cols],
        "heads": {"trained": [h[1:-1] for h in measured["heads"]],
                  "toy": [[shown(v) for v in h] for h in toy_heads],
                  "toy_names": [h.name for h in r.heads]},
        "ratio": {"toy": fixed(float(np.mean(toy["projected"] / toy["x"]))),
                  "trained": fixed(float(np.mean(np.array(trained["projected"])
                                                 / np.array(trained["x"]))))},
        "download": {"file": trained_layer.weights_name(), "size": f"{mb:.1f}",
                     "within": f"{trained_layer.AGREEMENT * 100:g}"},
    }


def answer(state: dict) -> dict:
    """Answer a request for a sentence's sizes (``{"sentence": text}``)."""
    if not isinstance(state.get("sentence", ""), str):
        raise RequestError("The sentence must be text.", "sentence")
    return data(state.get("sentence"))


def export(state: dict) -> dict:
    """Its download: each step's size per word in both layers."""
    d = data(state.get("sentence"))
    rows = [[s["key"], w, s["toy"][j]["value"], float(s["trained"][j])]
            for s in d["steps"] for j, w in enumerate(d["words"])]
    return {"columns": [say("export.step"), say("export.word"), say("export.hand-set-size"), say("export.minilm-size")],
            "rows": rows,
            "sentence": d["sentence"], "model": d["model"]}


FIGURE = Figure(number="FIG-010", chapter="layer", title=lambda: say("fig-010.title"),
                data=data, export=export, live=False, widget="fig-010", answer=answer,
                fields=frozenset({"sentence"}))
