"""Every figure of Attention Bench and the live states they show, as the site and the bridge
ask for them: which figure an embed id names, a state read from a page's URL and written
back, the requests one click away, a figure's download.

A figure is drawn in its chapter from its data builder and can be embedded on its own page,
embed/<id>/ with the figure's own id (its number in lower case); the names its embed had
before (embed/bench-table/) stay as aliases that send a reader on. The records
are in the figures' own modules (attention.figures): everything here is derived from them.

>>> from_url("bench", {"head": "<script>", "query": "2"})
({'query': 2}, ['Ignored head=<script>: Choose one of the heads: previous-token, sink, coreference, verb-lookup.'])
"""

from __future__ import annotations

from . import urlstate
from ..figures import FIGURES, STATES
from .records import Figure, State

__all__ = ["ALIASES", "EXPORTS", "FIGURES", "STATES", "Figure", "State", "embed", "export",
           "from_url", "neighbours", "to_url"]

EXPORTS = {f.embed: f.export for f in FIGURES if f.export}  # a download's name: its table
ALIASES = {alias: f.embed for f in FIGURES for alias in f.aliases}  # an old embed id: its figure's


def embed(embed_id: str) -> Figure | None:
    """Return the figure embedded at embed/<embed_id>/ (its id or an old alias), or None when
    no figure is.

    >>> embed("fig-005").number, embed("bench-table").number, embed("no-such-figure")
    ('FIG-005', 'FIG-005', None)
    """
    embed_id = ALIASES.get(embed_id, embed_id)
    return next((f for f in FIGURES if f.embed == embed_id), None)


def from_url(name: str, params: dict) -> tuple[dict, list[str]]:
    """Return (a live state read from a page's URL parameters, notices about the ones ignored).

    >>> from_url("lab", {"q": "0,0", "t": "abc"})
    ({'query': ['0', '0']}, ['Ignored t=abc: “abc” is not a number.'])
    """
    if name not in STATES or not isinstance(params, dict):
        raise ValueError(f"no URL state for {name!r}")
    s = STATES[name]
    return urlstate.read(params, s.parameters, s.apply, s.steps)


def to_url(name: str, data: dict) -> dict:
    """Return the URL parameters that reopen a live state's data.

    >>> from attention.figures import fig_002
    >>> to_url("fig-002", fig_002.data("grid"))
    {'query': 'grid'}
    """
    return STATES[name].url(data)


def neighbours(name: str, data: dict) -> list[dict]:
    """Return the requests one click away from a live state's data (the bridge's answer data)."""
    return STATES[name].neighbours(data)


def export(of: str, state: dict | None = None) -> dict:
    """Return a figure's numbers for a state: ``{"figure", "columns", "rows", ...context}``.

    >>> e = export("fig-002", {"query": "grid"})
    >>> e["columns"][:5], [round(r[4], 3) for r in e["rows"]]
    (['query', 'key', 'score', 'scaled', 'weight'], [0.401, 0.198, 0.401])
    """
    asked, of = of, ALIASES.get(of, of)  # an old embed id's download has its figure's name
    if of not in EXPORTS:
        raise ValueError(f"no export for {asked!r}; choose one of {', '.join(EXPORTS)}")
    return {"figure": of, **EXPORTS[of](state or {})}
