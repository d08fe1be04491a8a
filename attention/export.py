"""A figure's numbers as a table, for download as CSV or JSON: full precision, from the core.

Each export names its columns and gives one row per key (or per matrix cell), the
same quantities the figure shows, unrounded.
"""

from __future__ import annotations

import csv
import io

from . import bench_view, figures, lab

__all__ = ["FIGURES", "URL_STATE", "export", "to_csv"]


def _fig_001(state: dict) -> dict:
    """FIG-001: each token's input and its three roles."""
    rows = [[r["token"], *[x for role in "XQKV" for x in r[role]["value"]]]
            for r in figures.fig_001()["rows"]]
    cols = ["token"] + [f"{role}_{c}" for role in "XQKV" for c in (1, 2)]
    return {"columns": cols, "rows": rows}


def _fig_002(state: dict) -> dict:
    """FIG-002: one query's scores, weights and weighted contributions."""
    d = figures.fig_002(**state)
    rows = [[r["token"], r["score"]["value"], r["scaled"]["value"], r["weight"]["value"],
             *r["value"]["value"], *r["contribution"]["value"]] for r in d["rows"]]
    return {"columns": ["key", "score", "scaled", "weight", "value_1", "value_2",
                        "contribution_1", "contribution_2"],
            "rows": rows, "query": d["query"]["token"], "output": d["output"]["value"]}


def _lab(state: dict) -> dict:
    """The lab: every stage for every key, with the query, the temperature and the output."""
    d = lab.view(**state)
    stages = ("score", "scaled", "tempered", "shifted", "exp", "weight")
    rows = [[r["token"], r["allowed"], *[r[s]["value"] for s in stages]] for r in d["rows"]]
    return {"columns": ["key", "allowed", *stages], "rows": rows, "query": d["query"]["value"],
            "temperature": d["temperature"]["value"], "output": d["output"]["value"]}


def _bench(state: dict) -> dict:
    """The bench's working table for the current query."""
    d = bench_view.view(**state)
    rows = [[r["index"], r["word"], r["allowed"], r["dot"]["value"], r["scaled"]["value"],
             r["tempered"]["value"], r["exp"]["value"], r["weight"]["value"]] for r in d["rows"]]
    return {"columns": ["j", "word", "allowed", "q_dot_k", "scaled", "tempered", "exp", "weight"],
            "rows": rows, "head": d["head"]["name"], "query": d["query"]["word"],
            "temperature": d["temperature"]["value"], "sentence": d["sentence"]["text"]}


def _bench_matrix(state: dict) -> dict:
    """The whole attention matrix of the current head: one row per (query, key) pair."""
    d = bench_view.view(**state)
    words = d["sentence"]["words"]
    weights = bench_view.matrix_weights(**state)
    rows = [[r, words[r], c, words[c], cell is not None, weights[r][c]]
            for r, row in enumerate(d["matrix"]) for c, cell in enumerate(row)]
    return {"columns": ["query_j", "query_word", "key_j", "key_word", "allowed", "weight"],
            "rows": rows, "head": d["head"]["name"], "temperature": d["temperature"]["value"],
            "sentence": d["sentence"]["text"]}


URL_STATE = {"bench-table": "bench", "bench-matrix": "bench", "trained": "bench"}  # exports that read the bench's URL

FIGURES = {"fig-001": _fig_001, "fig-002": _fig_002, "lab": _lab, "bench": _bench,
           "bench-table": _bench, "bench-matrix": _bench_matrix}


def export(figure: str, state: dict | None = None) -> dict:
    """Return a figure's numbers for a state: ``{"columns", "rows", ...context}``.

    >>> e = export("fig-002", {"query": "grid"})
    >>> e["columns"][:4], [round(r[3], 3) for r in e["rows"]]
    (['key', 'score', 'scaled', 'weight'], [0.401, 0.198, 0.401])
    """
    if figure not in FIGURES:
        raise ValueError(f"no export for {figure!r}; choose one of {', '.join(FIGURES)}")
    state = {k: v for k, v in (state or {}).items() if k != "trained"}  # FIG-008's own choice
    return {"figure": figure, **FIGURES[figure](state)}


def to_csv(table: dict) -> str:
    """Write an export's columns and rows as CSV text (numbers at full precision).

    >>> print(to_csv({"columns": ["key", "weight"], "rows": [["grid", 0.5]]}), end="")
    key,weight
    grid,0.5
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(table["columns"])
    writer.writerows(table["rows"])
    return out.getvalue()
