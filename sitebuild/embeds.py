"""Every figure a teacher can embed: where it lives, how tall it is, what its URL can set."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

from attention.protocol import registry as figure_registry

HEIGHTS = Path(__file__).with_name("embed_heights.json")  # written by tools/measure-embed-heights
# The width a snippet's height is measured at: a course page's column (an LMS page, a Jupyter
# Book, MkDocs) is 700 to 900 px wide, not a whole 1280 px window. Measured at 1280, the working
# table needed 29 px more than its snippet gave in an 800 px column, and lost its last lines.
COLUMN_PX = 768
# A phone's frame: a 360 px phone less a course page's margins (a frame there measured 328 px,
# and the mixture's figure needed 825 px where 360 px gave 791), as a touch phone shows it:
# taller before Python, while it asks to load it (tools/measure-embed-heights).
PHONE_PX = 320


@functools.cache
def heights() -> dict[str, dict[str, int]]:
    """Return the measured heights: ``{embed id: {"column": px, "phone": px}}``."""
    return json.loads(HEIGHTS.read_text(encoding="utf-8"))


def measured(embed_id: str) -> dict[str, int]:
    """Return an embed's measured heights; a figure not measured yet (a new one, before
    tools/measure-embed-heights has run) gets the tallest measured, so nothing is cut off.

    >>> measured("no-such-figure") == {k: max(h[k] for h in heights().values()) for k in ("column", "phone")}
    True
    """
    known = heights()
    return known.get(embed_id) or {k: max(h[k] for h in known.values()) for k in ("column", "phone")}


def unmeasured() -> list[str]:
    """Return the embeds that have no measured heights yet (the build says so)."""
    return [e.id for e in registry() if e.id not in heights()]


@dataclass(frozen=True)
class Param:
    """One URL parameter of an embed."""

    name: str
    meaning: str
    values: str
    default: str = ""  # its value in the state the page opens on; "" for none


@dataclass(frozen=True)
class Embed:
    """One embeddable figure: site/embed/<id>/."""

    id: str
    figure: str  # the figure's number, as the chapters name it
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
        return measured(self.id)["column"]

    @property
    def phone_height(self) -> int:
        """Return the figure's height on a phone (PHONE_PX wide), before Python or live."""
        return measured(self.id)["phone"]

    @property
    def url(self) -> str:
        """Return the embed page's path below the site root."""
        return f"embed/{self.id}/"


def registry() -> tuple[Embed, ...]:
    """Return every embed, in the order the guide lists them (attention.protocol.registry.FIGURES)."""
    states = figure_registry.STATES  # each parameter's meaning is its state's (attention.protocol.records)
    return tuple(Embed(f.embed, f.number, f.chapter, f.title,
                       tuple(Param(name, *states[f.state].meanings[name], states[f.state].defaults()[name])
                             for name in f.parameters),
                       f.live, f.aliases) for f in figure_registry.FIGURES)
