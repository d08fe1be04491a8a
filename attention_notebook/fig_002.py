"""FIG-002 in a notebook: weights choose a mixture; its one trait is the query token.

>>> Fig002(query="grid")
Fig002(query='grid')
"""

from __future__ import annotations

import traitlets

from .widgets import Figure

__all__ = ["Fig002"]


class Fig002(Figure):
    """FIG-002, weights choose a mixture: choose the query token."""

    STATE = "fig-002"
    EMBEDS = ("fig-002",)
    TITLE = "FIG-002"
    FIELDS = ("query",)

    query = traitlets.Unicode("rises").tag(sync=True)

    def request(self, changed: str = "") -> dict:
        return {"figure": "fig-002", "query": self.query}

    def read(self, data: dict) -> dict:
        return {"query": data["query"]["token"]}
