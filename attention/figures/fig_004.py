"""FIG-004, "The bench" (chapter 4): the drawing of one head at work on the reader's sentence,
with its guided walk; it shows the bench's state (bench_state), whose download is the working
table's.
"""

from __future__ import annotations

from ..catalog import say
from ..protocol.records import Figure
from . import bench_state

__all__ = ["FIGURE"]

FIGURE = Figure(number="FIG-004", title=lambda: say("core-figure-titles.fig-004"), export=bench_state.export,
                aliases=("bench",),
                widget="fig-004", **bench_state.SHOWN)
