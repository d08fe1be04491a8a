"""A figure's numbers as a table, for download as CSV or JSON: full precision, from the core.

Each export names its columns and gives one row per key (or per matrix cell), the
same quantities the figure shows, unrounded. Every row also carries the state it was
made from, and a JSON export has it as ``"state"``, so a file says what it shows; with
steps removed (``without``) the what-if columns follow the real ones.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence

from .. import toy, whatif
from ..catalog import say

__all__ = ["WITHOUT_COLUMNS", "caption", "filename", "to_csv", "without_cells"]


def _finite(x: float):
    """A number as it goes into a file: None (an empty CSV cell) for an overflowed one."""
    x = float(x)
    return x if math.isfinite(x) else None


def without_cells(cf, r: int, c: int) -> list:
    """The what-if columns of one cell: steps removed, z, e^z, weight and failure."""
    failure = cf.failure[r]
    return ["+".join(cf.without), _finite(cf.z[r, c]), _finite(cf.exp[r, c]) if cf.allowed[r, c]
            else 0.0, None if failure else float(cf.weights[r, c]), failure or ""]


class _Said(Sequence):
    """Column names said each time they are read, in the language spoken then (a list made at
    import would stay English in every edition)."""

    def __init__(self, said):
        self._said = said

    def __getitem__(self, k):
        return self._said()[k]

    def __len__(self) -> int:
        return len(self._said())

    def __repr__(self) -> str:
        return repr(self._said())


# the what-if columns' names, after a table's own (a list, said when read)
WITHOUT_COLUMNS = _Said(lambda: [say("export.without"), say("export.without-z"), say("export.without-exp"),
                                 say("export.without-weight"), say("export.without-failure")])


def _slug(text: str) -> str:
    """Keep a file name to letters, digits, dots and dashes."""
    return re.sub(r"[^A-Za-z0-9.\-]+", "_", text).strip("_")


def filename(table: dict) -> str:
    """Name a download by its state, without the extension.

    >>> from attention.protocol.registry import export
    >>> filename(export("fig-004", {"query": 6}))
    'attention-bench-fig-004-coreference-q6-T1'
    >>> filename(export("fig-003", {"query": ["-0.5", "2"], "without": ["shift"]}))
    'attention-bench-fig-003-q-0.5_2-T1-without-shift'
    """
    parts = ["attention-bench", table["figure"]]
    state = table.get("state")
    if state and "q" in state:  # the lab's
        parts += ["q" + "_".join(state["q"]), f"T{state['T']}"]
        if len(state["allowed"]) < len(toy.TOKENS):
            parts.append("allowed-" + "_".join(state["allowed"]))
    elif state:
        parts.append(state["head"])
        if "query" in state:
            parts.append(f"q{state['query']['index']}")
        parts.append(f"T{state['T']}")
        if state["shut"]:
            parts.append("shut" + "_".join(str(s["index"]) for s in state["shut"]))
    elif table.get("query"):
        parts.append(str(table["query"]))
    if state and state.get("without"):
        parts += ["without", "-".join(state["without"])]
    return "-".join(_slug(p) for p in parts)


CAPTION_CHARS = 96  # a caption line under a downloaded drawing (800 units wide, 14-unit text)


def caption(table: dict) -> list[str]:
    """Say in words which state a download shows, in lines for the foot of its drawing: a
    drawing put on a slide otherwise carries its sentence, head and T only in the file's name.

    >>> from attention.protocol.registry import export
    >>> caption(export("fig-004", {"query": 6}))
    ['Attention Bench, FIG-004: head coreference, query “she”\xa0(word\xa06), T = 1.', 'Sentence: “the engineer fixed the bridge before she left”.']
    >>> caption(export("fig-003", {"query": ["-0.5", "2"], "without": ["shift"]}))
    ['Attention Bench, FIG-003: q = [-0.5, 2], T = 1, every key allowed, without the max-shift.']
    """  # noqa: E501 (a doctest shows its output whole, on one line)
    said = say("export.figure", number=table["figure"].upper())
    state = table.get("state")
    parts, sentence = [], ""

    def word_at(word: str, index: int) -> str:  # “she” (word 6)
        return say("export.word-at", word=say("export.quoted", word=word), index=index)

    if state and "q" in state:  # the lab's
        everyone = len(state["allowed"]) == len(toy.TOKENS)
        parts = [f"q = [{', '.join(state['q'])}]", f"T = {state['T']}",
                 say("export.every-key") if everyone else
                 say("export.keys-allowed", keys=say("list.separator").join(state["allowed"]) or say("export.none"))]
    elif state:
        parts = [say("export.head", head=state["head"])]
        if "query" in state:
            parts.append(say("export.query-word", word=word_at(state["query"]["word"], state["query"]["index"])))
        parts.append(f"T = {state['T']}")
        if state["shut"]:
            parts.append(say("export.shut", words=say("list.separator").join(word_at(s["word"], s["index"])
                                                                              for s in state["shut"])))
        sentence = say("export.sentence-line", sentence=state["sentence"])
    elif table.get("query"):
        parts = [say("export.query-word", word=say("export.quoted", word=table["query"]))]
    if state and state.get("without"):
        # each step as the what-if panel names it, ÷√d_k with the width as its symbol
        parts.append(say("export.without-steps", steps=say("export.and").join(whatif.label(w, "d_k")
                                                                              for w in state["without"])))
    text = (say("export.caption", figure=said, parts=say("export.separator").join(parts)) if parts
            else say("export.caption-bare", figure=said))
    return _lines(text) + (_lines(sentence) if sentence else [])


def _width(text: str) -> int:
    """How wide text is drawn, in the widths of a Latin letter: a Chinese character takes two.

    >>> _width("T = 1"), _width("句子")
    (5, 4)
    """
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _lines(text: str, width: int = CAPTION_CHARS) -> list[str]:
    """Break text at spaces into lines of at most `width` characters (a longer word alone)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and _width(lines[-1]) + 1 + _width(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def to_csv(table: dict) -> str:
    """Write an export's columns and rows as CSV text (numbers at full precision).

    >>> print(to_csv({"columns": ["key", "weight"], "rows": [["grid", 0.5]]}), end="")
    key,weight
    grid,0.5
    """
    import csv  # only for a download: not on the runtime's start
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(table["columns"])
    writer.writerows(table["rows"])
    return out.getvalue()
