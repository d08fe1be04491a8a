"""Every figure of Attention Bench, one record each, and the live states they show.

A figure (FIG-001 … FIG-008) is drawn in its chapter from its data builder and can be
embedded on its own page, embed/<id>/ with the figure's own id (embed/fig-005/); the names
its embed had before (embed/bench-table/) stay as aliases that send a reader on. A live
figure shows one of three states a reader changes: FIG-002's query, the lab, the bench. The
bridge computes a state from a request, reads it from a page's URL and writes it back, and
lists the requests one click away.
Everything that lists figures or states is derived from here (the bridge's requests, the
URL state, the neighbours, the downloads, and, in sitebuild, the answers tables, the
figures' data, the embeds), so adding a figure is one record, its data builder, its
template and its tests.

>>> [f.number for f in FIGURES if f.state == "bench"]
['FIG-004', 'FIG-005', 'FIG-006', 'FIG-008']
>>> from_url("bench", {"head": "<script>", "query": "2"})
({'query': 2}, ['Ignored head=<script>: Choose one of the heads: previous-token, sink, coreference, verb-lookup.'])
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable

from . import bench, builders, export as exports, figures, neighbours as near, toy, urlstate, whatif
from .numbers import spelled

__all__ = ["ALIASES", "EXPORTS", "FIGURES", "STATES", "Figure", "State", "embed", "export",
           "from_url", "neighbours", "to_url"]


@dataclass(frozen=True)
class State:
    """A state a reader changes, computed by the bridge (attention.bridge)."""

    name: str  # the bridge's name for it, e.g. "bench"
    answer: Callable[[dict], dict]  # a request's fields -> the figure's data (builders)
    fields: frozenset[str]  # the fields a request may set
    parameters: tuple[str, ...]  # its URL parameters, in the order they are applied
    apply: Callable[[str, str, dict], None]  # one URL parameter onto a state (urlstate)
    url: Callable[[dict], dict]  # the figure's data -> the URL parameters that reopen it
    neighbours: Callable[[dict], list[dict]]  # the figure's data -> requests one click away
    steps: tuple[str, ...] = ()  # the what-if steps it may remove (without=)


@dataclass(frozen=True)
class Figure:
    """One figure: where it is drawn, from what, and what a reader can do with it."""

    number: str  # "FIG-005", as the chapters and the claims name it
    chapter: str  # the slug of the chapter that draws it
    title: str  # as the embed guide lists it
    data: Callable  # the chapter's data builder for it (attention.figures)
    state: str | None = None  # the live state it shows (STATES), if any
    widget: str | None = None  # its root's data-widget: the page module that mounts it
    export: Callable[[dict], dict] | None = None  # its numbers as a table, for download
    parameters: tuple[str, ...] = ()  # the URL parameters its embed takes
    table: str | None = None  # the precomputed answers its page fetches (sitebuild.answers)
    live: bool = True  # False: drawn once by the build, nothing to change
    aliases: tuple[str, ...] = ()  # the embed ids it had before: embed/<alias>/ sends readers on

    @property
    def id(self) -> str:
        """Return the figure's one name in addresses: its element id in its chapter, its embed
        (embed/<id>/, data-embed), its download's name, e.g. "fig-005"."""
        return self.number.lower()

    @property
    def embed(self) -> str:
        """Return its embed's id, the figure's own id."""
        return self.id


_BENCH_PARAMETERS = ("sentence", "head", "query", "t", "shut", "without")
_BENCH_FIELDS = {"sentence", "head", "query", "temperature", "slider", "shut", "without"}

STATES: dict[str, State] = {s.name: s for s in (
    State("fig-002", builders.answer_fig_002, frozenset({"query"}), ("query",),
          urlstate.apply_fig_002, urlstate.fig_002_url, near.fig_002_neighbours),
    State("lab", builders.answer_lab,
          frozenset({"query", "mask", "temperature", "move", "pad", "slider", "without"}),
          ("q", "mask", "t", "without"), urlstate.apply_lab, urlstate.lab_url, near.lab_neighbours,
          steps=("scale", "shift")),
    State("bench", builders.answer_bench, frozenset({*_BENCH_FIELDS, "trained", "have"}),
          (*_BENCH_PARAMETERS, "trained"), urlstate.apply_bench, urlstate.bench_url,
          near.bench_neighbours, steps=whatif.STEPS),
)}

# In the order the embed guide lists them.
FIGURES: tuple[Figure, ...] = (
    Figure("FIG-001", "roles", "One input row, three projected roles", figures.fig_001,
           export=exports.export_fig_001, table="fig-001", live=False),
    Figure("FIG-002", "mixture", "Weights choose a mixture", figures.fig_002,
           "fig-002", "fig-002", exports.export_fig_002, ("query",), "fig-002"),
    Figure("FIG-003", "lab", f"The lab: one query against {spelled(len(toy.TOKENS))} keys",
           figures.fig_003, "lab", "lab", exports.export_lab, ("q", "mask", "t", "without"), "lab",
           aliases=("lab",)),
    Figure("FIG-004", "bench", "The bench", figures.bench_figure, "bench", "bench",
           exports.export_bench, _BENCH_PARAMETERS, "bench", aliases=("bench",)),
    Figure("FIG-005", "bench", "The bench’s full working", figures.bench_figure,
           "bench", "bench", exports.export_bench, _BENCH_PARAMETERS, "bench",
           aliases=("bench-table",)),
    Figure("FIG-006", "bench", "The bench’s attention matrix", figures.bench_figure,
           "bench", "bench", exports.export_bench_matrix, _BENCH_PARAMETERS, "bench",
           aliases=("bench-matrix",)),
    Figure("FIG-007", "bench",
           f"{spelled(len(bench.HEADS)).capitalize()} heads and their weights", figures.bench_figure,
           live=False, aliases=("bench-heads",)),
    Figure("FIG-008", "bench", "A trained model beside the bench’s heads",
           figures.trained_figure, "bench", "trained", parameters=(*_BENCH_PARAMETERS, "trained"),
           aliases=("trained",)),
)

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

    >>> to_url("fig-002", figures.fig_002("grid"))
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
    state = {k: v for k, v in (state or {}).items() if k != "trained"}  # FIG-008's own choice
    return {"figure": of, **EXPORTS[of](state)}
