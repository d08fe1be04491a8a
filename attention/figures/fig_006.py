"""FIG-006, "The bench's attention matrix" (chapter 4): every query's weights for the bench's
head at once; its download has one row per (query, key) pair.
"""

from __future__ import annotations

from .. import bench_view
from ..protocol.export import WITHOUT_COLUMNS, without_cells
from ..catalog import say
from ..protocol.records import Figure
from . import bench_state

__all__ = ["FIGURE", "export"]


def export(state: dict) -> dict:
    """The whole attention matrix of the current head: one row per (query, key) pair."""
    d = bench_view.view(**state)
    s, words, cf = d["state"], d["sentence"]["words"], bench_state.counterfactual(d)
    weights = bench_view.matrix_weights(**state)
    lead = [s["sentence"], s["head"], d["temperature"]["value"]]
    rows = [[*lead, r, words[r], c, words[c], c > r, c in s["shut"], weights[r][c],
             *(without_cells(cf, r, c) if cf else [])]
            for r in range(len(words)) for c in range(len(words))]
    return {"columns": [say("bench-state.col-sentence"), say("bench-state.col-head"), "T",
                        say("bench-state.col-query-j"), say("bench-state.col-query-word"),
                        say("bench-state.col-key-j"), say("bench-state.col-key-word"),
                        say("bench-state.col-causal-masked"), say("bench-state.col-shut"),
                        say("bench-state.col-weight"), *(WITHOUT_COLUMNS if cf else [])],
            "rows": rows,
            "state": {k: v for k, v in bench_state.exported_state(d).items() if k != "query"},
            "head": d["head"]["name"], "temperature": d["temperature"]["value"],
            "sentence": d["sentence"]["text"]}


FIGURE = Figure(number="FIG-006", title=lambda: say("core-figure-titles.fig-006"), export=export,
                aliases=("bench-matrix",), widget="fig-006", **bench_state.SHOWN)
