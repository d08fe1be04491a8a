"""Every figure a teacher can embed: where it lives, how tall it is, what its URL can set."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

from attention import bench, lab, toy
from attention.numbers import spelled

HEIGHTS = Path(__file__).with_name("embed_heights.json")  # written by tools/measure-embed-heights


@functools.cache
def heights() -> dict[str, dict[str, int]]:
    """Return the measured heights: ``{embed id: {"desktop": px, "phone": px}}``."""
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

    @property
    def height(self) -> int:
        """Return the snippet's height: the figure measured at desktop width."""
        return heights()[self.id]["desktop"]

    @property
    def phone_height(self) -> int:
        """Return the figure's height measured at a phone's width (360 px)."""
        return heights()[self.id]["phone"]

    @property
    def url(self) -> str:
        """Return the embed page's path below the site root."""
        return f"embed/{self.id}/"


def _bench_params() -> tuple[Param, ...]:
    """The bench's URL parameters, with ranges read from the core."""
    limits = lab.limits()
    return (
        Param("sentence", "the words, separated by spaces",
              f"up to {bench.MAX_WORDS} words from the bench's {len(bench.LEXICON)}-word lexicon"),
        Param("head", "which head", ", ".join(bench.HEADS)),
        Param("query", "the position of the query word, counting from 0",
              "0 to the number of words minus 1"),
        Param("t", "the temperature T", f"{limits['t_low']} to {limits['t_high']}"),
        Param("shut", "stopcocks shut by the reader, as word positions", "for example 0,2"),
        Param("without", "steps the what-if panel removes", "scale, mask, shift, comma-separated"),
    )


def registry() -> tuple[Embed, ...]:
    """Return every embed, in the order the guide lists them."""
    limits = lab.limits()
    bench_params = _bench_params()
    return (
        Embed("fig-001", "FIG-001", "roles", "One input row, three projected roles",
              live=False),
        Embed("fig-002", "FIG-002", "mixture", "Weights choose a mixture",
              (Param("query", "the query token", ", ".join(toy.TOKENS)),)),
        Embed("lab", "FIG-003", "lab", f"The lab: one query against {spelled(len(toy.TOKENS))} keys", (
            Param("q", f"the query's {spelled(toy.X.shape[1])} coordinates", f"each from −{limits['query']} to "
                                                      f"{limits['query']}, for example 0,0"),
            Param("mask", "which keys are allowed (1) or blocked (0)", "for example 1,0,1"),
            Param("t", "the temperature T", f"{limits['t_low']} to {limits['t_high']}"),
            Param("without", "steps the what-if panel removes", "scale, shift, comma-separated"))),
        Embed("bench", "FIG-004", "bench", "The bench", bench_params),
        Embed("bench-table", "FIG-005", "bench", "The bench's full working", bench_params),
        Embed("bench-matrix", "FIG-006", "bench", "The bench's attention matrix", bench_params),
        Embed("trained", "FIG-008", "bench", "A trained model beside the bench's heads",
              (*bench_params, Param("trained", "a trained head to show instead of the best match",
                                    "layer-head, counting from 0, for example 4-5"))),
        Embed("bench-heads", "FIG-007", "bench", f"{spelled(len(bench.HEADS)).capitalize()} heads and their weights",
              live=False),
    )
