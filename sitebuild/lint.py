"""Catch numbers typed by hand into chapter sources: every number must come from the core."""

from __future__ import annotations

import re
from pathlib import Path

from .errors import BuildError

__all__ = ["check_no_typed_numbers"]

_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
# A decimal such as 0.284, but not a section number (§3.2.1) or an identifier (arXiv:1706.03762).
_DECIMAL = re.compile(r"(?<![§\d.\w:])\d+\.\d+(?!\.?\d)")
_MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$", re.S)
# Indices are notation, not arithmetic: k_1, \sum_{j=1}, and the 1 of \frac{1}{...}.
_NOTATION = re.compile(r"_(?:\{[^{}]*\}|\d)|\\[td]?frac\{1\}")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _blank(match: re.Match) -> str:
    """Replace a match by spaces, keeping its newlines so line numbers stay true."""
    return re.sub(r"[^\n]", " ", match.group(0))


def typed_numbers(text: str) -> list[tuple[int, str]]:
    """Return (line, number) for each number written by hand outside Jinja expressions.

    >>> typed_numbers("Weights {{ w }} and 0.284.\\n$q=[1,1]$ with $k_1$ per §§3.2.2–3.2.3")
    [(1, '0.284'), (2, '1'), (2, '1')]
    """
    text = _JINJA.sub(_blank, text)
    found = [(m.start(), m.group(0)) for m in _DECIMAL.finditer(text)]
    for math in _MATH.finditer(text):
        body = math.group(1) if math.group(1) is not None else math.group(2)
        offset = math.start(1) if math.group(1) is not None else math.start(2)
        body = _NOTATION.sub(_blank, body)
        found += [(offset + d.start(), d.group(0)) for d in _NUMBER.finditer(body)]
    longest = {}
    for pos, number in found:  # a decimal in math is found twice; keep one
        longest[pos] = max(longest.get(pos, ""), number, key=len)
    return [(text.count("\n", 0, pos) + 1, n) for pos, n in sorted(longest.items())]


def check_no_typed_numbers(text: str, path: Path) -> None:
    """Raise BuildError at the first number typed by hand into a chapter source."""
    for line, number in typed_numbers(text):
        raise BuildError(
            f"the number {number} is typed into the source; numbers on a page must come "
            "from the attention package through the template context",
            path,
            line,
        )
