"""What a figure is, and what a live state is: the two records every figure module fills in
(attention.figures), by keyword.

>>> r = Figure(number="FIG-001", chapter="roles", title="One input row", data=dict, live=False)
>>> r.id, r.embed
('fig-001', 'fig-001')

A record's words a reader sees (a figure's title, a parameter's meaning) may be given as a
function that says them (attention.catalog.say): read, they are said then, in the language
spoken then, not once at import, in English:

>>> from attention import catalog
>>> r = Figure(number="FIG-001", chapter="roles", title=lambda: catalog.say("site.chapter", number=1), data=dict)
>>> with catalog.speaking("zh"):
...     r.title
'第 1 章'
>>> r.title
'Chapter 1'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Figure", "RequestError", "State"]

# the fields a record may be given as a function that says them, said when read
_SAID = frozenset({"title", "meanings"})


class _Said:
    """A record whose fields in _SAID, given as functions, are said each time they are read."""

    __slots__ = ()

    def __getattribute__(self, name: str):
        value = object.__getattribute__(self, name)
        return value() if name in _SAID and callable(value) else value


class RequestError(ValueError):
    """A request the bridge cannot serve; ``field`` names the part at fault."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


@dataclass(frozen=True, kw_only=True)
class State(_Said):
    """A state a reader changes, computed by the bridge (attention.protocol.bridge)."""

    name: str  # the bridge's name for it, e.g. "bench"
    answer: Callable[[dict], dict]  # a request's fields -> the figure's data
    fields: frozenset[str]  # the fields a request may set
    parameters: tuple[str, ...]  # its URL parameters, in the order they are applied
    apply: Callable[[str, str, dict], None]  # one URL parameter onto a state
    url: Callable[[dict], dict]  # the figure's data -> the URL parameters that reopen it
    neighbours: Callable[[dict], list[dict]]  # the figure's data -> requests one click away
    steps: tuple[str, ...] = ()  # the what-if steps it may remove (without=)
    # each URL parameter: what it means and the values it takes, as the embed guide says them
    # (or a function that says them, in the language spoken when they are read)
    meanings: dict[str, tuple[str, str]] | Callable[[], dict[str, tuple[str, str]]] = field(default_factory=dict)
    # the parameters its URL leaves out at their default value, with that value (the rest of
    # the defaults are what url() writes for the state a page opens on: see defaults())
    # (or a function that says them, for the language spoken when they are read)
    unwritten: dict[str, str] | Callable[[], dict[str, str]] = field(default_factory=dict)
    # the URL parameters that name positions in its sentence (a query word, a shut stopcock):
    # they mean nothing in another edition's first sentence, so the language switch drops them
    # when the address leaves the sentence to the page (each edition has its own)
    positions: tuple[str, ...] = ()
    # (a request's fields, their answer) -> three questions on that state for a class handout
    # (quiz.view's shape: id, prompt, choices, answer, explanation); None: no handout
    questions: Callable[[dict, dict], list[dict]] | None = None

    def defaults(self) -> dict[str, str]:
        """Each URL parameter's value in the state a page opens on ("" for none: a switch
        left on, no stopcock shut), as the embed guide lists them."""
        written = self.url(self.answer({}))
        unwritten = self.unwritten() if callable(self.unwritten) else self.unwritten
        return {p: written.get(p, unwritten.get(p, "")) for p in self.parameters}


@dataclass(frozen=True, kw_only=True)
class Figure(_Said):
    """One figure: where it is drawn, from what, and what a reader can do with it."""

    number: str  # as the chapters and the claims name it, e.g. "FIG-042"
    chapter: str  # the slug of the chapter that draws it
    title: str | Callable[[], str]  # as the embed guide lists it (a function: said when read)
    data: Callable  # the chapter's data builder for it
    state: str | None = None  # the live state it shows (a State's name), if any
    widget: str | None = None  # its root's data-widget: the page module that mounts it
    export: Callable[[dict], dict] | None = None  # its numbers as a table, for download
    parameters: tuple[str, ...] = ()  # the URL parameters its embed takes
    table: str | None = None  # the precomputed answers its page fetches (sitebuild.answers)
    live: bool = True  # False: drawn once by the build, nothing to change
    aliases: tuple[str, ...] = ()  # the embed ids it had before: embed/<alias>/ sends readers on
    # a request for its data alone, answered on demand (no URL, no precomputed answers): the
    # bridge answers {"figure": its id, ...fields} with answer(fields)
    answer: Callable[[dict], dict] | None = None
    fields: frozenset[str] = frozenset()  # the fields such a request may set

    @property
    def id(self) -> str:
        """Return the figure's one name in addresses: its element id in its chapter, its embed
        (embed/<id>/, data-embed), its download's name, e.g. "fig-042"."""
        return self.number.lower()

    @property
    def embed(self) -> str:
        """Return its embed's id, the figure's own id."""
        return self.id
