"""FIG-005, "The bench's full working" (chapter 4): every key's numbers for the bench's query,
the table a reader clicks to choose another query (bench_state).
"""

from __future__ import annotations

from ..catalog import say
from ..protocol.records import Figure
from . import bench_state

__all__ = ["FIGURE"]

FIGURE = Figure(number="FIG-005", title=lambda: say("core-figure-titles.fig-005"), export=bench_state.export,
                aliases=("bench-table",), widget="fig-005", **bench_state.SHOWN)
