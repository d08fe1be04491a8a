"""FIG-004, "The bench" (chapter 4): the drawing of one head at work on the reader's sentence,
with its guided walk; it shows the bench's state (bench_state), whose download is the working
table's.
"""

from __future__ import annotations

from ..records import Figure
from . import bench_state

__all__ = ["FIGURE"]

FIGURE = Figure(number="FIG-004", chapter="bench", title="The bench", data=bench_state.data,
                state=bench_state.NAME, widget="bench", export=bench_state.export,
                parameters=bench_state.PARAMETERS, table=bench_state.NAME, aliases=("bench",))
