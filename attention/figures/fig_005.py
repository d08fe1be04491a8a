"""FIG-005, "The bench's full working" (chapter 4): every key's numbers for the bench's query,
the table a reader clicks to choose another query (bench_state).
"""

from __future__ import annotations

from ..records import Figure
from . import bench_state

__all__ = ["FIGURE"]

FIGURE = Figure(number="FIG-005", chapter="bench", title="The bench’s full working",
                data=bench_state.data, state=bench_state.NAME, widget="bench",
                export=bench_state.export, parameters=bench_state.PARAMETERS,
                table=bench_state.NAME, aliases=("bench-table",))
