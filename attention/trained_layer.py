"""A trained layer's sizes beside the hand-set one: all-MiniLM-L6-v2's first layer run on the
bench's sentence, step by step, measured as vector lengths.

The layer chapter shows how large each step's vector is for a word, in the hand-set layer
(attention.layer) and in MiniLM's first layer: the residual going in, each head's write
(its output times its rows of W_O), all heads' write (with W_O's bias), the sum after
attention, layer norm, the feed-forward's write, the sum after it and the layer's output.
The model needs the optional extra ``attention[trained]``; ``python -m attention.trained_layer
--write`` recomputes the committed file (``attention/data/trained_layer.json``), which the
build reads without the model.

Schema: ``{"model", "sentence", "tokens", "width" (numbers a token), "steps": {step: [size per token]},
"heads": [[size per token] per head]}``, sizes to three decimals, tokens with [CLS] and [SEP].
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import numpy as np

from . import bench, layer_view
from .numbers import fixed

__all__ = ["DATA", "STEPS", "build_data", "data", "dumps", "steps"]

DATA = Path(__file__).parent / "data" / "trained_layer.json"
# the steps measured, in order: the layer chapter's columns (attention.layer_view)
STEPS = tuple(key for key, _, _ in layer_view.STEPS)


def steps(words, layer: int = 0) -> tuple[list[str], dict[str, np.ndarray], np.ndarray]:
    """Run the model up to ``layer`` and return (tokens, that layer's steps, as
    attention.trained_model.layer_steps keeps them, and each head's write (heads, n, 384): its
    output times its rows of W_O). Needs the trained extra."""
    from .trained_model import embed, layer_steps, load, tokenize

    m = load()
    w, config = m.weights, m.config
    tokens, ids, _ = tokenize(list(words), m)
    record = {"output": embed(ids, w, config)}  # (n, d)
    for i in range(layer + 1):
        record = layer_steps(record["output"], w, i, config)
    heads = config["num_attention_heads"]
    d_k = record["context"].shape[1] // heads
    W_O = w[f"encoder.layer.{layer}.attention.output.dense.weight"].T  # (d, d): rows = the context
    cuts = [slice(h * d_k, (h + 1) * d_k) for h in range(heads)]
    writes = np.stack([record["context"][:, c] @ W_O[c] for c in cuts])  # (heads, n, d)
    return tokens, record, writes


def build_data() -> dict:
    """Measure the first layer on the bench's default sentence (needs the trained extra)."""
    words = list(bench.DEFAULT_SENTENCE)
    tokens, record, writes = steps(words)
    size = lambda a: [fixed(v) for v in np.linalg.norm(a, axis=-1)]  # noqa: E731
    return {"model": "all-MiniLM-L6-v2", "sentence": " ".join(words), "tokens": tokens,
            "width": int(record["x"].shape[1]),
            "steps": {k: size(record[k]) for k in STEPS}, "heads": [size(h) for h in writes]}


@functools.lru_cache(maxsize=1)
def data() -> dict:
    """Return the committed measurements (schema in the module docstring)."""
    return json.loads(DATA.read_text(encoding="utf-8"))


def dumps(d: dict) -> str:
    """Serialise the measurements as the committed file holds them."""
    return json.dumps(d, ensure_ascii=False, sort_keys=True, indent=1) + "\n"


def main(argv=None) -> int:
    """``python -m attention.trained_layer --write``: recompute and save the committed file."""
    argv = sys.argv[1:] if argv is None else argv
    if argv != ["--write"]:
        print("usage: python -m attention.trained_layer --write", file=sys.stderr)
        return 2
    DATA.write_text(dumps(build_data()), encoding="utf-8")
    print(f"wrote {DATA}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
