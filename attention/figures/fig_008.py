"""FIG-008, "A trained model beside the bench's heads" (chapter 4): a trained model's row beside
the bench's, read from the committed data; ``trained=layer-head`` picks its head.
"""

from __future__ import annotations

from .. import trained_view
from ..catalog import say
from ..protocol.records import Figure
from . import bench_state

__all__ = ["FIGURE", "data"]


def data(**state) -> dict:
    """Return the comparison panel (see attention.trained_view.panel for the schema).

    >>> d = data()
    >>> d["bench_head"], d["chosen"]["label"], d["rows"][2]["token"], d["rows"][2]["handset"]
    ('coreference', 'layer 3, head 1', 'engineer', '0.835')
    """
    return trained_view.panel(**state)


FIGURE = Figure(number="FIG-008", chapter="bench", title=lambda: say("fig-008-core.title"),
                data=data, state=bench_state.NAME, widget="trained",
                parameters=(*bench_state.PARAMETERS, "trained"), aliases=("trained",))
