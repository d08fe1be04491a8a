"""What a bench answer may leave out because the page already holds it.

A query click changes the working table and the drawing, never the attention matrix: that
depends only on the sentence, the head, the temperature, the shut stopcocks and the steps
removed. Each bench answer names its matrix (``matrix_id``); a request may say which matrix
the page holds (``have``), and when it is the current one the answer leaves out the matrix
parts (``MATRIX_PARTS``) and the page keeps its own. Any other ``have`` (an old matrix, a
typo, none) gets the whole answer, so the page never keeps numbers that no longer match.

>>> from attention import bench_view
>>> data = bench_view.view()
>>> full = trim(dict(data), None)
>>> sorted(set(MATRIX_PARTS) - set(full)), len(full["matrix_id"])
([], 12)
>>> same = trim(dict(data), full["matrix_id"])
>>> sorted(set(MATRIX_PARTS) & set(same)), same["matrix_id"] == full["matrix_id"]
([], True)
>>> "matrix" in trim(dict(data), "0" * 12)
True
"""

from __future__ import annotations

import hashlib
import json

__all__ = ["MATRIX_PARTS", "MAX_HAVE", "matrix_id", "read_have", "trim"]

MATRIX_PARTS = ("matrix", "masks", "empty")  # the keys of a bench answer a query leaves alone
MAX_HAVE = 40  # characters; an id has 12


def matrix_id(data: dict) -> str:
    """Name the matrix of a bench answer: a short hash of everything it depends on.

    >>> from attention import bench_view
    >>> a, b = bench_view.view(query=2), bench_view.view(query=5)
    >>> matrix_id(a) == matrix_id(b), matrix_id(a) == matrix_id(bench_view.view(head="sink"))
    (True, False)
    """
    s = data["state"]
    removed = data.get("whatif", {}).get("without")
    parts = [s["sentence"], s["head"], s["temperature"], s["shut"], removed]
    text = json.dumps(parts, ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2s(text.encode("utf-8"), digest_size=6).hexdigest()


def read_have(value) -> str | None:
    """Read a request's ``have``: the id of the matrix the page holds, or None.

    >>> read_have(None), read_have("3f2a")
    (None, '3f2a')
    >>> read_have(7)
    Traceback (most recent call last):
    ValueError: have must be the id of a matrix the page holds (text), or null.
    """
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > MAX_HAVE:
        raise ValueError("have must be the id of a matrix the page holds (text), or null.")
    return value


def trim(data: dict, have: str | None) -> dict:
    """Add the answer's ``matrix_id`` to data, and drop its matrix parts when ``have`` names
    it. Changes and returns data (a bench answer's own top-level dict)."""
    data["matrix_id"] = matrix_id(data)
    if have is not None and have == data["matrix_id"]:
        for key in MATRIX_PARTS:
            data.pop(key, None)
    return data
