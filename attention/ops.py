"""The operations of scaled dot-product attention, one short pure function each.

Dimension letters, used in every shape comment:
    n    query rows           m    key/value rows
    d_k  query and key width  d_v  value width

Row vectors throughout: a projection is ``X @ W`` and a score is ``q @ k``.
A mask is boolean with True meaning *allowed* (the key may be attended to).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .catalog import say

__all__ = ["Trace", "attend", "mix", "project", "read_only", "scale", "scores", "softmax"]


def _matrix(name: str, a) -> np.ndarray:
    """Return ``a`` as a finite 2-D float array or raise a ValueError naming it."""
    try:
        out = np.asarray(a, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a matrix of numbers: {exc}") from None
    if out.ndim != 2:
        raise ValueError(f"{name} must be 2-D (rows × columns), got shape {out.shape}")
    if not np.isfinite(out).all():
        i, j = np.argwhere(~np.isfinite(out))[0]
        raise ValueError(f"{name} has a non-finite entry ({out[i, j]}) at row {i}, column {j}")
    return out


def _temperature(temperature) -> float:
    """Return the temperature as a float, or raise unless it is finite and > 0."""
    try:
        t = float(temperature)
    except (TypeError, ValueError):
        raise ValueError(f"temperature must be a number, got {temperature!r}") from None
    if not math.isfinite(t) or t <= 0:
        raise ValueError(f"temperature must be a finite number greater than 0, got {t}")
    return t


def _mask(mask, shape: tuple[int, int]) -> np.ndarray:
    """Return the mask as a boolean (n, m) array; None allows every key."""
    if mask is None:
        return np.ones(shape, dtype=bool)  # (n, m)
    out = np.asarray(mask)
    if out.shape != shape:
        raise ValueError(f"mask must have shape (n, m) = {shape}, got {out.shape}")
    if out.dtype != bool:
        raise ValueError(f"mask must be boolean (True = allowed), got dtype {out.dtype}")
    blocked = np.flatnonzero(~out.any(axis=1))
    if blocked.size:
        raise ValueError(say("core-ops.every-key-masked", row=blocked[0]))
    return out


def _quiet():
    """Silence overflow warnings: _finite reports overflow as a ValueError instead."""
    return np.errstate(over="ignore", invalid="ignore")


def _finite(a: np.ndarray, said) -> np.ndarray:
    """Return ``a`` unchanged, or raise if an operation overflowed it; ``said()`` says what
    overflowed and why (a reader may see it: said in the language spoken now)."""
    if not np.isfinite(a).all():
        raise ValueError(said())
    return a


def project(X, W) -> np.ndarray:
    """Project the rows of X by W (row vectors: ``X @ W``).

    >>> project([[1, 1]], [[1, 1], [0, 1]])
    array([[1., 2.]])
    """
    X, W = _matrix("X", X), _matrix("W", W)
    if X.shape[1] != W.shape[0]:
        raise ValueError(
            f"projection width mismatch: X is {X.shape} but W is {W.shape}; "
            "X’s columns must equal W’s rows"
        )
    with _quiet():
        XW = X @ W  # (rows, d_in) @ (d_in, d_out) -> (rows, d_out)
    return _finite(XW, lambda: say("core-ops.projections"))


def scores(Q, K) -> np.ndarray:
    """Return the raw compatibility scores ``Q K^T``, one per query/key pair.

    >>> scores([[1, 1]], [[1, 1], [0, 1], [1, 2]])
    array([[2., 1., 3.]])
    """
    Q, K = _matrix("Q", Q), _matrix("K", K)
    if Q.shape[1] != K.shape[1]:
        raise ValueError(
            f"query/key width mismatch: Q is {Q.shape} but K is {K.shape}; "
            "queries and keys must have the same width d_k"
        )
    with _quiet():
        S = Q @ K.T  # (n, d_k) @ (d_k, m) -> (n, m)
    return _finite(S, lambda: say("core-ops.scores"))


def scale(S, d_k: int) -> np.ndarray:
    """Divide scores by ``sqrt(d_k)`` so their spread does not grow with the width.

    >>> scale([[2.0, 1.0, 3.0]], 2).round(3)
    array([[1.414, 0.707, 2.121]])
    """
    if int(d_k) != d_k or d_k < 1:
        raise ValueError(f"d_k must be a positive whole number, got {d_k!r}")
    return _matrix("scores", S) / math.sqrt(d_k)  # (n, m)


def _stages(z: np.ndarray, allowed: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (shifted, exp, weights) of a stable softmax of z over the allowed keys."""
    top = np.where(allowed, z, -np.inf).max(axis=1, keepdims=True)  # (n, 1)
    with _quiet():
        shifted = z - top  # (n, m); every allowed entry <= 0
    _finite(shifted, lambda: say("core-ops.shifted"))
    e = np.where(allowed, np.exp(np.minimum(shifted, 0.0)), 0.0)  # (n, m); blocked -> 0
    weights = e / e.sum(axis=1, keepdims=True)  # (n, m); the top allowed key gives e = 1
    return shifted, e, weights


def _tempered(z: np.ndarray, t: float) -> np.ndarray:
    """Divide scores by the temperature, or raise if that overflows."""
    with _quiet():
        out = z / t  # (n, m)
    return _finite(out, lambda: say("core-ops.tempered"))


def softmax(scores, mask=None, temperature: float = 1.0) -> np.ndarray:
    """Turn each row of scores into weights over the allowed keys.

    Computes ``exp(s / T)`` over allowed keys, normalised to sum to one in each
    row, after subtracting the row's largest allowed value so nothing overflows.
    Blocked keys get weight exactly 0.

    >>> softmax([[0.0, 0.0]]).tolist()
    [[0.5, 0.5]]
    >>> softmax([[1e300, 0.0]]).tolist()
    [[1.0, 0.0]]
    >>> softmax([[5.0, 1.0, 2.0]], mask=[[False, True, True]]).round(3)
    array([[0.   , 0.269, 0.731]])
    """
    S = _matrix("scores", scores)  # (n, m)
    t = _temperature(temperature)
    allowed = _mask(mask, S.shape)  # (n, m)
    return _stages(_tempered(S, t), allowed)[2]  # (n, m)


def mix(A, V) -> np.ndarray:
    """Mix the value rows by the weights: ``A V``.

    >>> mix([[0.5, 0.5]], [[1, 0], [0, 2]])
    array([[0.5, 1. ]])
    """
    A, V = _matrix("A", A), _matrix("V", V)
    if A.shape[1] != V.shape[0]:
        raise ValueError(
            f"key/value row mismatch: the weights are {A.shape} but V is {V.shape}; "
            "there must be one weight per value row"
        )
    return A @ V  # (n, m) @ (m, d_v) -> (n, d_v)


@dataclass(frozen=True)
class Trace:
    """Every named stage of one attention computation (arrays are read-only).

    scores, scaled, tempered, shifted, exp, weights, allowed: (n, m)
    output: (n, d_v)
    """

    d_k: int
    temperature: float
    allowed: np.ndarray
    scores: np.ndarray
    scaled: np.ndarray
    tempered: np.ndarray
    shifted: np.ndarray
    exp: np.ndarray
    weights: np.ndarray
    output: np.ndarray

    def __post_init__(self):
        read_only(self)


def read_only(record) -> None:
    """Make a record's arrays read-only: a stage shown is a stage computed, never edited after.

    >>> tr = attend([[1.0]], [[1.0]], [[2.0]])
    >>> tr.weights.flags.writeable
    False
    """
    for value in vars(record).values():
        if isinstance(value, np.ndarray):
            value.flags.writeable = False


def attend(Q, K, V, mask=None, temperature: float = 1.0) -> Trace:
    """Run scaled dot-product attention and keep every intermediate stage.

    ``weights = softmax(Q K^T / (sqrt(d_k) * T))`` over the allowed keys and
    ``output = weights @ V``.

    >>> tr = attend([[1, 1]], [[1, 1], [0, 1], [1, 2]], [[1, 0], [0, 2], [1, 2]])
    >>> tr.weights.round(3)
    array([[0.284, 0.14 , 0.576]])
    >>> tr.output.round(3)
    array([[0.86 , 1.432]])
    """
    Q, K, V = _matrix("Q", Q), _matrix("K", K), _matrix("V", V)
    if K.shape[0] != V.shape[0]:
        raise ValueError(
            f"key/value row mismatch: K is {K.shape} but V is {V.shape}; "
            "keys and values must have the same number of rows m"
        )
    t = _temperature(temperature)
    S = scores(Q, K)  # (n, m)
    allowed = _mask(mask, S.shape)  # (n, m)
    d_k = Q.shape[1]
    scaled = scale(S, d_k)  # (n, m)
    tempered = _tempered(scaled, t)  # (n, m)
    shifted, e, weights = _stages(tempered, allowed)  # each (n, m)
    output = mix(weights, V)  # (n, d_v)
    return Trace(d_k, t, allowed, S, scaled, tempered, shifted, e, weights, output)
