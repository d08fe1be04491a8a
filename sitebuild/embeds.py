"""Every figure a teacher can embed: where it lives, how tall it is, what its URL can set."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

from attention import bench, lab, toy
from attention import registry as figure_registry
from attention.numbers import spelled

HEIGHTS = Path(__file__).with_name("embed_heights.json")  # written by tools/measure-embed-heights
# The width a snippet's height is measured at: a course page's column (an LMS page, a Jupyter
# Book, MkDocs) is 700 to 900 px wide, not a whole 1280 px window. Measured at 1280, FIG-005
# needed 29 px more than its snippet gave in an 800 px column, and lost its last lines.
COLUMN_PX = 768
# A phone's frame: a 360 px phone less a course page's margins (a frame there measured 328 px,
# and FIG-002 needed 825 px where 360 px gave 791), as a touch phone shows it: taller before
# Python, while it asks to load it (tools/measure-embed-heights).
PHONE_PX = 320


@functools.cache
def heights() -> dict[str, dict[str, int]]:
    """Return the measured heights: ``{embed id: {"column": px, "phone": px}}``."""
    return json.loads(HEIGHTS.read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Param:
    """One URL parameter of an embed."""

    name: str
    meaning: str
    values: str


@dataclass(frozen=True)
class Embed:
    """One embeddable figure: site/embed/<id>/."""

    id: str
    figure: str  # the figure ID in the chapters, e.g. "FIG-002"
    chapter: str  # the chapter's slug
    title: str
    params: tuple[Param, ...] = ()
    live: bool = True
    aliases: tuple[str, ...] = ()  # its old ids: embed/<alias>/ sends readers to embed/<id>/

    @property
    def height(self) -> int:
        """Return the snippet's height: the figure measured in a frame as wide as a course
        page's usual column (COLUMN_PX). A wider frame leaves a band below the figure; a
        narrower one, a phone's, needs the resize script (phone_height)."""
        return heights()[self.id]["column"]

    @property
    def phone_height(self) -> int:
        """Return the figure's height on a phone (PHONE_PX wide), before Python or live."""
        return heights()[self.id]["phone"]

    @property
    def url(self) -> str:
        """Return the embed page's path below the site root."""
        return f"embed/{self.id}/"


def _meanings() -> dict[str, dict[str, tuple[str, str]]]:
    """Per live state, each URL parameter's meaning and values, with ranges read from the core."""
    limits = lab.limits()
    t = ("the temperature T", f"{limits['t_low']} to {limits['t_high']}")
    return {
        "fig-002": {"query": ("the query token", ", ".join(toy.TOKENS))},
        "lab": {
            "q": (f"the query’s {spelled(toy.X.shape[1])} coordinates",
                  f"each from −{limits['query']} to {limits['query']}, for example 0,0"),
            "mask": ("which keys are allowed (1) or blocked (0)", "for example 1,0,1"),
            "t": t,
            "without": ("steps the what-if panel removes", "scale, shift, comma-separated")},
        "bench": {
            "sentence": ("the words, separated by spaces",
                         f"up to {bench.MAX_WORDS} words from the bench’s {len(bench.LEXICON)}-word lexicon"),
            "head": ("which head", ", ".join(bench.HEADS)),
            "query": ("the position of the query word, counting from 0",
                      "0 to the number of words minus 1"),
            "t": t,
            "shut": ("stopcocks shut by the reader, as word positions", "for example 0,2"),
            "without": ("steps the what-if panel removes", "scale, mask, shift, comma-separated"),
            "trained": ("a trained head to show instead of the best match",
                        "layer-head, counting from 0, for example 4-5")},
    }


def registry() -> tuple[Embed, ...]:
    """Return every embed, in the order the guide lists them (attention.registry.FIGURES)."""
    meanings = _meanings()
    return tuple(Embed(f.embed, f.number, f.chapter, f.title,
                       tuple(Param(name, *meanings[f.state][name]) for name in f.parameters),
                       f.live, f.aliases) for f in figure_registry.FIGURES)
