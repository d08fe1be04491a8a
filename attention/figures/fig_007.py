"""FIG-007, the bench's heads and their weights (chapter 4): each head's hand-set weights, drawn
once by the build; "Show on the bench" switches the bench to that head.
"""

from __future__ import annotations

from .. import bench
from ..catalog import say, spoken
from ..numbers import spelled
from ..protocol.records import Figure
from . import bench_state

__all__ = ["FIGURE"]

FIGURE = Figure(number="FIG-007", chapter="bench",
                title=lambda: say("core-figure-titles.fig-007", heads=spelled(len(bench.HEADS), spoken()).capitalize()),
                data=bench_state.data, live=False, aliases=("bench-heads",))
