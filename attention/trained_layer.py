"""A trained layer's sizes beside the hand-set one: all-MiniLM-L6-v2's first layer, run on the
reader's sentence, step by step, measured as vector lengths.

The layer chapter shows how large each step's vector is for a word, in the hand-set layer
(attention.layer) and in MiniLM's first layer: the residual going in, each head's write
(its output times its rows of W_O), all heads' write (with W_O's bias), the sum after
attention, layer norm, the feed-forward's write, the sum after it and the layer's output.

The whole model is 90 MB and needs the optional extra ``attention[trained]``. The first layer
needs far less: its weights, and the embeddings of the bench's lexicon words alone (each is one
of the model's WordPiece tokens), rounded to 16-bit floats, are one 3.6 MB file,
``attention/data/minilm_first_layer.npz``. The build reads it, and so does the browser's Python
once the reader asks (the site serves it beside the package, which does not carry it; without
it, ``weights`` raises WeightsMissing). ``python -m attention.trained_layer --write`` extracts
it from the model again; the tests check that it is byte for byte what the model gives, and
that its sizes are the full model’s to 0.2 % (AGREEMENT).
"""

from __future__ import annotations

import functools
import hashlib
import sys
from pathlib import Path

import numpy as np

from . import bench, layer_view
from .trained_model import embed, layer_steps

__all__ = ["AGREEMENT", "MODEL", "POSITIONS", "STEPS", "WEIGHTS", "WEIGHTS_SHA256", "WeightsMissing", "extract",
           "model_steps", "sizes", "steps", "weights", "weights_name"]

MODEL = "all-MiniLM-L6-v2"
WEIGHTS = Path(__file__).parent / "data" / "minilm_first_layer.npz"
# the file's SHA-256, as the tests find it: the site's address for it carries its first digits,
# so a browser never holds an old file under a new page
WEIGHTS_SHA256 = "1e487e43561c652258131f722e7f7e36e104a11432542efea1d5afe96699fe77"
AGREEMENT = 2e-3  # each size from the file is the full model's to this fraction (the tests check it)
POSITIONS = bench.MAX_WORDS + 2  # the positions a sentence of the bench may use, with [CLS] and [SEP]
# the steps measured, in order: the layer chapter's columns (attention.layer_view)
STEPS = tuple(key for key, _ in layer_view.STEPS)
_NOT_WEIGHTS = ("vocab", "eps", "heads")  # the file's other arrays


class WeightsMissing(LookupError):
    """The trained layer's weights file is not here (the browser fetches it when asked)."""

    def __init__(self, path: Path):
        super().__init__("The trained layer’s weights have not been loaded.")
        self.path = path


def weights_name() -> str:
    """The weights file's name on the site: its hash in it (``minilm_first_layer.<12 hex>.npz``)."""
    return f"{WEIGHTS.stem}.{WEIGHTS_SHA256[:12]}{WEIGHTS.suffix}"


def extract() -> dict[str, np.ndarray]:
    """The arrays of the weights file, from the whole model (needs the trained extra): the first
    layer's weights and the embeddings by their safetensors names, the word embeddings' rows for
    ``vocab`` ([CLS], [SEP] and the lexicon's words) alone, the position embeddings for
    POSITIONS, token type 0's, all float16; ``eps`` and ``heads`` from the model's config."""
    from .trained_model import load, tokenize

    m = load()
    vocab = ["[CLS]", "[SEP]", *sorted(bench.LEXICON)]
    ids = []
    for token in vocab:
        tokens, found, _ = tokenize([token], m)
        if len(tokens) != 3:  # [CLS] word [SEP]: the lexicon's word is one token of the model's
            raise ValueError(f"the model splits “{token}” into {tokens[1:-1]}: add its pieces")
        ids.append(found[1])
    w = m.weights
    arrays = {name: a for name, a in w.items() if name.startswith("encoder.layer.0.")}
    arrays |= {name: w[name] for name in ("embeddings.LayerNorm.weight", "embeddings.LayerNorm.bias")}
    arrays["embeddings.word_embeddings.weight"] = w["embeddings.word_embeddings.weight"][ids]  # (v, d)
    arrays["embeddings.position_embeddings.weight"] = w["embeddings.position_embeddings.weight"][:POSITIONS]
    arrays["embeddings.token_type_embeddings.weight"] = w["embeddings.token_type_embeddings.weight"][:1]
    out = {name: a.astype(np.float16) for name, a in sorted(arrays.items())}
    return {**out, "vocab": np.array(vocab), "eps": np.array(m.config["layer_norm_eps"]),
            "heads": np.array(m.config["num_attention_heads"])}


@functools.lru_cache(maxsize=1)
def weights() -> tuple[dict, dict, dict]:
    """Read the weights file once: (weights as float64 by name, config, each token's row)."""
    if not WEIGHTS.is_file():
        raise WeightsMissing(WEIGHTS)
    with np.load(WEIGHTS, allow_pickle=False) as z:
        w = {name: z[name].astype(np.float64) for name in z.files if name not in _NOT_WEIGHTS}
        config = {"layer_norm_eps": float(z["eps"]), "num_attention_heads": int(z["heads"])}
        rows = {token: k for k, token in enumerate(z["vocab"].tolist())}
    return w, config, rows


def _writes(record: dict, W_O: np.ndarray, heads: int) -> np.ndarray:
    """Each head's write (heads, n, d): its part of the context times its rows of W_O (d, d)."""
    d_k = record["context"].shape[1] // heads
    cuts = [slice(h * d_k, (h + 1) * d_k) for h in range(heads)]
    return np.stack([record["context"][:, c] @ W_O[c] for c in cuts])  # (heads, n, d)


def steps(words) -> tuple[list[str], dict[str, np.ndarray], np.ndarray]:
    """Run the first layer from the weights file on words of the bench's lexicon: (tokens, its
    steps as attention.trained_model.layer_steps keeps them, each head's write (heads, n, 384))."""
    w, config, rows = weights()
    tokens = ["[CLS]", *words, "[SEP]"]
    record = layer_steps(embed([rows[t] for t in tokens], w, config), w, 0, config)
    W_O = w["encoder.layer.0.attention.output.dense.weight"].T  # (d, d): rows = the context
    return tokens, record, _writes(record, W_O, config["num_attention_heads"])


def model_steps(words, layer: int = 0) -> tuple[list[str], dict[str, np.ndarray], np.ndarray]:
    """As steps, from the whole model in float64, for any layer (needs the trained extra)."""
    from .trained_model import load, tokenize

    m = load()
    w, config = m.weights, m.config
    tokens, ids, _ = tokenize(list(words), m)
    record = {"output": embed(ids, w, config)}  # (n, d)
    for i in range(layer + 1):
        record = layer_steps(record["output"], w, i, config)
    W_O = w[f"encoder.layer.{layer}.attention.output.dense.weight"].T  # (d, d)
    return tokens, record, _writes(record, W_O, config["num_attention_heads"])


def sizes(words) -> dict:
    """Each step's size per token, and each head's write's, from the weights file.

    Schema: ``{"model", "tokens" (with [CLS] and [SEP]), "width" (numbers a token),
    "steps": {step: [size per token]}, "heads": [[size per token] per head]}``, sizes as floats.

    >>> s = sizes(bench.DEFAULT_SENTENCE)
    >>> s["tokens"][:3], s["width"], len(s["heads"]), round(s["steps"]["x"][2], 2)
    (['[CLS]', 'the', 'engineer'], 384, 12, 10.85)
    """
    tokens, record, writes = steps(list(words))
    size = lambda a: [float(v) for v in np.linalg.norm(a, axis=-1)]  # noqa: E731
    return {"model": MODEL, "tokens": tokens, "width": int(record["x"].shape[1]),
            "steps": {k: size(record[k]) for k in STEPS}, "heads": [size(h) for h in writes]}


def main(argv=None) -> int:
    """``python -m attention.trained_layer --write``: extract the weights file again."""
    argv = sys.argv[1:] if argv is None else argv
    if argv != ["--write"]:
        print("usage: python -m attention.trained_layer --write", file=sys.stderr)
        return 2
    with open(WEIGHTS, "wb") as f:
        np.savez(f, **extract())
    digest = hashlib.sha256(WEIGHTS.read_bytes()).hexdigest()
    print(f"wrote {WEIGHTS}, SHA-256 {digest}" + ("" if digest == WEIGHTS_SHA256 else
                                                    ": put it in WEIGHTS_SHA256"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
