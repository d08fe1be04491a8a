"""Figure data builders for the toy chapters: plain, JSON-safe data; no HTML.

Every number appears as ``{"value": float, "text": str}`` (see numbers.shown),
so a template or a browser widget only places text and never formats or
computes. The same builders run at build time and in the browser.
"""

from __future__ import annotations

import math

import numpy as np

from . import bench, bench_drawing, bench_view, lab, quiz, toy, trained_view
from .numbers import exact, fixed, shown

__all__ = ["bench_context", "bench_figure", "fig_001", "fig_002", "fig_003", "toy_context",
           "trained_figure", "worked_dot", "worked_product"]


def _query_index(query: str) -> int:
    """Return the row index of a toy token, or raise naming the valid ones."""
    if query not in toy.TOKENS:
        raise ValueError(f"unknown query {query!r}; choose one of {', '.join(toy.TOKENS)}")
    return toy.TOKENS.index(query)


def fig_001() -> dict:
    """Return FIG-001: each token's input row and its three projected roles.

    Schema: ``{"id", "rows": [{"token", "index", "number", "X", "Q", "K", "V"}]}`` where
    X, Q, K and V are shown vectors (three decimals, like every figure) and ``number``
    counts rows from 1, as the chapters' maths does (k₁ is row 1).

    >>> fig_001()["rows"][2]["K"]["text"], fig_001()["rows"][2]["number"]
    ('[1.000, 2.000]', 3)
    """
    r = toy.roles()
    rows = [
        {
            "token": token,
            "index": i,
            "number": i + 1,
            "X": shown(toy.X[i]),
            **{role: shown(r[role][i]) for role in ("Q", "K", "V")},
        }
        for i, token in enumerate(toy.TOKENS)
    ]
    return {"id": "fig-001", "rows": rows}


def fig_002(query: str = "rises") -> dict:
    """Return FIG-002: one query's scores, weights, values and weighted contributions.

    Schema: ``{"id", "query": {"token", "index", "vector"}, "d_k",
    "rows": [{"token", "index", "is_query", "key", "score", "scaled", "weight",
    "value", "contribution"}], "output", "said"}``; numbers are shown values (three
    decimals), and ``said`` is the one sentence a screen reader hears after a change.

    >>> d = fig_002("rises")
    >>> [row["weight"]["text"] for row in d["rows"]], d["output"]["text"]
    (['0.284', '0.140', '0.576'], '[0.860, 1.432]')
    >>> d["rows"][2]["contribution"]["text"], d["rows"][0]["score"]["text"]
    ('[0.576, 1.152]', '2.000')
    >>> d["said"]
    'Query rises: weights grid 0.284, load 0.140, rises 0.576; output [0.860, 1.432].'
    """
    i = _query_index(query)
    tr = toy.trace(query)
    K, V = toy.roles()["K"], toy.roles()["V"]  # (m, d_k), (m, d_v)
    contributions = tr.weights[0][:, None] * V  # (m, 1) * (m, d_v) -> (m, d_v)
    rows = [
        {
            "token": token,
            "index": j,
            "is_query": j == i,
            "key": shown(K[j]),
            "score": shown(tr.scores[0, j]),
            "scaled": shown(tr.scaled[0, j]),
            "weight": shown(tr.weights[0, j]),
            "value": shown(V[j]),
            "contribution": shown(contributions[j]),
        }
        for j, token in enumerate(toy.TOKENS)
    ]
    return {
        "id": "fig-002",
        "query": {"token": query, "index": i, "vector": shown(toy.roles()["Q"][i])},
        "d_k": tr.d_k,
        "rows": rows,
        "output": shown(tr.output[0]),
        "said": lab.said(query, [{**row, "allowed": True} for row in rows],
                         shown(tr.output[0])["text"]),
    }


def fig_003(**state) -> dict:
    """Return FIG-003, the lab, for a state (see lab.view), with its input ranges.

    >>> fig_003(query=["0", "0"])["output"]["text"]
    '[0.667, 1.333]'
    """
    return {**lab.view(**state), "limits": lab.limits()}


def bench_figure(**state) -> dict:
    """Return the bench figures' data (FIG-004 to FIG-007): the bench's view of a state,
    plus what never changes: every head's weights, the input ranges and the lexicon size.

    >>> d = bench_figure()
    >>> d["query"]["word"], len(d["heads"]), d["max_words"]
    ('she', 4, 40)
    """
    # The state as the bridge answers it (with the reader's trained head), so the page's first
    # request is the very key of its precomputed answers.
    view = trained_view.with_pick(bench_view.view, state)
    return {**view, "heads": bench_view.heads(), "limits": lab.limits(),
            "max_words": bench.MAX_WORDS, "lexicon_size": len(bench.LEXICON),
            "d_k": bench.D_K, "dial_span": bench_drawing.DIAL_SPAN,
            "dial_floor": fixed(math.exp(-bench_drawing.DIAL_SPAN), 4), "neutral_t": exact(lab.NEUTRAL_T),
            "palette": bench_drawing.PALETTE, "lexicon": bench_view.lexicon(),
            "quiz": quiz.view(**{k: v for k, v in state.items() if k != "slider"}),
            # a what-if drawing with every part (a later stopcock opens), for the templates
            # the page clones when a step is removed
            "whatif_parts": bench_view.view(without=["mask"])["drawing"]["whatif"]}


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
            "lexicon": len(bench.LEXICON), "default": " ".join(bench.DEFAULT_SENTENCE),
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
    ``"fig_002"`` (the default FIG-002 data), ``"zero"`` (the lab's view of the zero query),
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
        "fig_002": fig_002(toy.TOKENS[last]),
        "zero": lab.view(query=["0", "0"]),
        "zero_answer": "zero" if not np.any(toy.trace([0.0, 0.0]).output) else "other",
        "neutral_t": shown(lab.NEUTRAL_T, whole=True),
    }


def trained_figure(**state) -> dict:
    """Return FIG-008, the comparison panel: a trained model's row beside the bench's, read
    from the committed data (see attention.trained_view.panel for the schema).

    >>> d = trained_figure()
    >>> d["bench_head"], d["chosen"]["label"], d["rows"][2]["token"], d["rows"][2]["handset"]
    ('coreference', 'layer 3, head 1', 'engineer', '0.835')
    """
    return trained_view.panel(**state)
