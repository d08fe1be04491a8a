"""FIG-001, "One input row, three projected roles" (chapter 1): each token's input row and its
query, key and value, drawn once by the build.
"""

from __future__ import annotations

from .. import toy
from ..catalog import say
from ..numbers import shown
from ..protocol.records import Figure

__all__ = ["FIGURE", "data", "export"]


def data() -> dict:
    """Return each token's input row and its three projected roles.

    Schema: ``{"id", "rows": [{"token", "index", "number", "X", "Q", "K", "V"}]}`` where
    X, Q, K and V are shown vectors (three decimals, like every figure) and ``number``
    counts rows from 1, as the chapters' maths does (k₁ is row 1).

    >>> data()["rows"][2]["K"]["text"], data()["rows"][2]["number"]
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
    return {"id": FIGURE.id, "rows": rows}


def export(state: dict) -> dict:
    """Its download: each token's input and its three roles."""
    rows = [[r["token"], *[x for role in "XQKV" for x in r[role]["value"]]] for r in data()["rows"]]
    cols = [say("export.token")] + [f"{role}_{c}" for role in "XQKV" for c in (1, 2)]
    return {"columns": cols, "rows": rows}


FIGURE = Figure(number="FIG-001", chapter="roles", title=lambda: say("fig-001.title"),
                data=data, export=export, live=False)
