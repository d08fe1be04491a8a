"""The toy model of chapters 1 and 2, as data: three tokens with invented states.

The states and matrices were chosen so the arithmetic can be done by hand; they
are not learned from text (claim CL-004).

>>> TOKENS
('grid', 'load', 'rises')
>>> roles()["K"].tolist()
[[1.0, 1.0], [0.0, 1.0], [1.0, 2.0]]
"""

from __future__ import annotations

import numpy as np

from .ops import attend, project

__all__ = ["TOKENS", "X", "W_Q", "W_K", "W_V", "roles", "trace"]

TOKENS = ("grid", "load", "rises")

X = np.array([[1, 0], [0, 1], [1, 1]], dtype=float)  # (3, 2): one invented state per token
W_Q = np.array([[1, 0], [0, 1]], dtype=float)  # (2, 2): identity, so Q = X
W_K = np.array([[1, 1], [0, 1]], dtype=float)  # (2, 2)
W_V = np.array([[1, 0], [0, 2]], dtype=float)  # (2, 2)
for _a in (X, W_Q, W_K, W_V):
    _a.flags.writeable = False


def roles() -> dict[str, np.ndarray]:
    """Return the toy's projected roles: Q, K and V, each (3, 2)."""
    return {"Q": project(X, W_Q), "K": project(X, W_K), "V": project(X, W_V)}


def trace(query=None, mask=None, temperature: float = 1.0):
    """Attend from one query over the toy's keys and values; default query is ``rises``.

    ``query`` is a token name or a 2-number vector; ``mask`` a list of 3 booleans.

    >>> trace("rises").weights.round(3).tolist()
    [[0.284, 0.14, 0.576]]
    >>> trace([0, 0]).output.round(3).tolist()
    [[0.667, 1.333]]
    """
    r = roles()
    if query is None:
        query = TOKENS[-1]
    if isinstance(query, str):
        if query not in TOKENS:
            raise ValueError(f"unknown token {query!r}; choose one of {', '.join(TOKENS)}")
        q = r["Q"][TOKENS.index(query)][None, :]  # (1, d_k)
    else:
        q = [list(query)]  # (1, d_k); attend() checks it is numeric and finite
    m = None if mask is None else [list(mask)]  # (1, m)
    return attend(q, r["K"], r["V"], mask=m, temperature=temperature)
