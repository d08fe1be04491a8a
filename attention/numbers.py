"""How a number looks to a reader: one formatter for the build and the browser alike.

Every figure and every sentence shows numbers through these functions, so a
page rendered at build time and a page redrawn by the runtime cannot disagree.
Values are rounded to three decimals for display; calculations keep full
precision. Negative numbers use the true minus sign (U+2212).
"""

from __future__ import annotations

import math

__all__ = ["MINUS", "PLACES", "fixed", "fixed_all", "exact", "typed", "vector", "shown", "spelled"]

MINUS = "\u2212"
PLACES = 3  # decimals shown to readers; calculations keep full precision


def fixed(x: float, places: int = PLACES) -> str:
    """Format x with a fixed number of decimals, never showing a negative zero.

    >>> fixed(0.28399), fixed(2), fixed(-0.0001), fixed(-1.5)
    ('0.284', '2.000', '0.000', '−1.500')
    """
    x = float(x)
    if not math.isfinite(x):
        raise ValueError(f"cannot show a non-finite number ({x}) to a reader")
    text = f"{x:.{places}f}"
    if text.startswith("-"):
        text = text[1:] if float(text) == 0 else MINUS + text[1:]
    return text


def fixed_all(values, places: int = PLACES):
    """Format many numbers at once exactly as fixed() does each; returns a NumPy array.

    >>> fixed_all([0.28399, -0.0001, -1.5]).tolist()
    ['0.284', '0.000', '−1.500']
    """
    import numpy as np

    texts = [fixed(x, places) if x < 0 or not math.isfinite(x) else f"{x:.{places}f}"
             for x in np.asarray(values, dtype=float).tolist()]
    return np.array(texts, dtype=object)


def typed(x: float) -> str:
    """Write a number back into an input field: the shortest text that reads back exactly.

    >>> typed(0.1234567), typed(1.0), typed(-2.5), typed(1e-7), typed(-0.0)
    ('0.1234567', '1', '-2.5', '1e-07', '0')
    """
    text = repr(float(x) + 0.0)  # + 0.0 turns a negative zero (a pad click on an axis) into 0
    return text[:-2] if text.endswith(".0") else text


def exact(x: float) -> str:
    """Format a whole number without decimals, anything else with three.

    >>> exact(3.0), exact(-2), exact(0.5)
    ('3', '−2', '0.500')
    """
    x = float(x)
    if math.isfinite(x) and x == round(x) and abs(x) < 1e15:
        return fixed(x, 0)
    return fixed(x)


def vector(v, whole: bool = False) -> str:
    """Format a vector as a bracketed list, like the chapters print it.

    >>> vector([0.284, 0.0]), vector([1.0, 2.0], whole=True)
    ('[0.284, 0.000]', '[1, 2]')
    """
    fmt = exact if whole else fixed
    return "[" + ", ".join(fmt(x) for x in v) + "]"


def shown(x, whole: bool = False) -> dict:
    """Pair a number (or vector) with its display text: ``{"value": ..., "text": ...}``.

    >>> shown(1 / 3)
    {'value': 0.3333333333333333, 'text': '0.333'}
    >>> shown([1.0, 0.0], whole=True)
    {'value': [1.0, 0.0], 'text': '[1, 0]'}
    """
    if hasattr(x, "__len__"):
        values = [float(v) for v in x]
        return {"value": values, "text": vector(values, whole)}
    return {"value": float(x), "text": exact(x) if whole else fixed(x)}


# a small count as prose writes it, by language; a language not here writes digits (Arabic: its
# number words agree in gender with what they count, which a filter cannot know)
_WORDS = {
    "en": "zero one two three four five six seven eight nine ten eleven twelve".split(),
    "zh": "零 一 两 三 四 五 六 七 八 九 十 十一 十二".split(),  # 两 counts (两个头), as Chinese does
}


def spelled(n: int, lang: str = "en") -> str:
    """Spell a small count as a word, the way prose writes it in a language.

    >>> spelled(3), spelled(40), spelled(2, "zh"), spelled(3, "ar")
    ('three', '40', '两', '3')
    """
    n = int(n)
    words = _WORDS.get(lang.split("-")[0], [])
    return words[n] if 0 <= n < len(words) else str(n)
