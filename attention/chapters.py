"""What the chapters quote: every number of chapters 1 and 2 and the bench's counts, gathered
for the templates (plain, JSON-safe data), and dot products written out term by term.
"""

from __future__ import annotations

import numpy as np

from . import bench, lab, lexicon, toy
from .numbers import exact, shown

__all__ = ["bench_context", "toy_context", "worked_dot", "worked_product"]


def bench_context() -> dict:
    """Return the counts the bench chapter quotes: feature groups, widths and limits.

    >>> c = bench_context()
    >>> c["features"], c["classes"], c["positional"], c["d_k"]
    (11, 5, 4, 8)
    """
    f = bench.FEATURES
    return {"features": len(f), "classes": len(bench.CLASSES),
            "positional": sum(name[:3] in ("sin", "cos") for name in f),
            "d_k": bench.D_K, "heads": len(bench.HEADS), "max_words": bench.MAX_WORDS,
            "lexicon": len(lexicon.lexicon()), "default": " ".join(lexicon.default_sentence()),
            "waves": [f"{bench.OMEGA1:g}", f"{bench.OMEGA2:g}"]}  # radians per word


def worked_dot(a, b) -> dict:
    """Return the terms of a dot product and its value, for writing it out by hand.

    >>> worked_dot([1, 1], [1, 2])
    {'terms': [['1', '1'], ['1', '2']], 'result': '3'}
    """
    a, b = [float(x) for x in a], [float(x) for x in b]
    if len(a) != len(b):
        raise ValueError(f"cannot take the dot product of widths {len(a)} and {len(b)}")
    value = np.dot(a, b)  # scalar
    return {"terms": [[exact(x), exact(y)] for x, y in zip(a, b)], "result": exact(value)}


def worked_product(x, W) -> list[dict]:
    """Return one worked dot product per output column of the row-vector product ``x W``.

    >>> [w["result"] for w in worked_product([1, 1], toy.W_K)]
    ['1', '2']
    """
    columns = np.asarray(W, dtype=float).T  # (d_out, d_in)
    return [worked_dot(x, column) for column in columns]


def toy_context() -> dict:
    """Return every number chapters 1 and 2 quote, gathered for the templates.

    Schema: ``{"tokens", "X", "W_Q", "W_K", "W_V", "Q", "K", "V"`` (matrices as
    lists of shown rows), ``"n", "m", "d_k", "d_v"`` (shown whole numbers),
    ``"rises_key_work"`` (worked_product of the last row by W_K),
    ``"score_work"`` (worked_dot of the last query with each key),
    ``"zero"`` (the lab's view of the zero query),
    ``"zero_answer"`` (the right prediction for it: "zero" or "other"), ``"neutral_t"`` (the
    temperature of the original formula)}.

    >>> ctx = toy_context()
    >>> ctx["d_k"]["text"], [s["result"] for s in ctx["score_work"]]
    ('2', ['2', '1', '3'])
    """
    r = toy.roles()
    last = len(toy.TOKENS) - 1
    mats = {"X": toy.X, "W_Q": toy.W_Q, "W_K": toy.W_K, "W_V": toy.W_V, **r}
    n, d_k = r["Q"].shape
    m, d_v = r["V"].shape
    return {
        "tokens": list(toy.TOKENS),
        **{name: [shown(row, whole=True) for row in M] for name, M in mats.items()},
        "n": shown(n, whole=True),
        "m": shown(m, whole=True),
        "d_k": shown(d_k, whole=True),
        "d_v": shown(d_v, whole=True),
        "rises_key_work": worked_product(toy.X[last], toy.W_K),
        "score_work": [worked_dot(r["Q"][last], k) for k in r["K"]],
        "zero": lab.view(query=["0", "0"]),
        "zero_answer": "zero" if not np.any(toy.trace([0.0, 0.0]).output) else "other",
        "neutral_t": shown(lab.NEUTRAL_T, whole=True),
    }
