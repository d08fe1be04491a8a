"""What if a step of attention were missing? Counterfactual weights beside ``attend``.

Three steps can be removed, alone or together (``STEPS``, in canonical order):

``scale``  no division by √d_k: the softmax sees the raw scores (÷ T still applies).
``mask``   no causal mask: a word may look at later words. The reader's own shut or
           blocked keys stay shut: they are the reader's choice, the mask is the model's.
``shift``  no max-shift: the exponentials of the unshifted scores, as a naive
           implementation computes them. When an exponential (any z > ``LN_MAX``) or
           their sum overflows a double, or every exponential underflows to 0, the row
           has no weights: ``Counterfactual.failure`` says which, never NaN on a page.

>>> cf = counterfactual([[2.0, 1.0, 3.0]], d_k=2, without=["scale"])
>>> cf.weights.round(3).tolist()                     # softmax([2, 1, 3]), not of ÷√2
[[0.245, 0.09, 0.665]]
>>> counterfactual([[800.0, 0.0]], d_k=1, without=["shift"]).failure
('overflow',)
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass

import numpy as np

from .catalog import say

__all__ = ["CHANGED", "LN_MAX", "STEPS", "Counterfactual",
           "counterfactual", "double", "entropy_bits", "label", "message", "naive_softmax",
           "no_weights", "steps"]

STEPS = ("scale", "mask", "shift")
LN_MAX = math.log(sys.float_info.max)  # 709.78…: eᶻ is finite only for z up to this
CHANGED = 0.0005  # below this a weight reads the same to three decimals


def message(failure: str | None) -> str | None:
    """Why a row's naive softmax has no weights, in the language spoken now; None for
    a row that has them, or no allowed key ("empty").

    >>> message("underflow"), message("empty")
    ('every eᶻ underflows to 0: the naive weights are 0 ÷ 0, undefined', None)
    """
    if failure == "overflow":
        return say("core-whatif.overflow")
    if failure == "sum":
        return say("core-whatif.sum")
    if failure == "underflow":
        return say("core-whatif.underflow")
    return None


def no_weights() -> str:
    """What stands in place of a row's weights when it has none, as said now: the key table's one
    cell for the row and the drawing's empty sample say this; the sentence under them says why
    (message())."""
    return say("core-whatif.no-weights")


def double() -> str:
    """What 1.8×10³⁰⁸ is, as said now, where a sentence says why a row has no weights."""
    return say("core-whatif.double")


def label(step: str, d_k: int) -> str:
    """A removable step's name as said now, ÷√d_k with the head's width.

    >>> label("scale", 8), label("shift", 8)
    ('÷√8', 'the max-shift')
    """
    if step == "scale":
        return f"÷√{d_k}"  # mathematics: the same in every language
    if step == "mask":
        return say("core-whatif.causal-mask")
    return say("core-whatif.max-shift")


def steps(without) -> tuple[str, ...]:
    """Return the removed steps, unique and in canonical order; raise on an unknown one.

    >>> steps(["shift", "scale", "shift"]), steps("mask,scale"), steps(None)
    (('scale', 'shift'), ('scale', 'mask'), ())
    """
    if without is None:
        return ()
    if isinstance(without, str):
        without = [w for w in without.split(",") if w]
    if not isinstance(without, (list, tuple)):
        raise ValueError(say("core-whatif.not-a-list"))
    for w in without:
        if w not in STEPS:
            raise ValueError(say("core-whatif.unknown-step", step=repr(str(w)[:20])))
    return tuple(s for s in STEPS if s in without)


def naive_softmax(z, allowed) -> tuple[np.ndarray, np.ndarray, tuple]:
    """Softmax without the max-shift: (exp, weights, failure per row).

    A row whose eᶻ or sum overflows, or whose eᶻ all underflow to 0, gets NaN
    weights and a failure ``"overflow"``, ``"sum"`` or ``"underflow"`` (else None).

    >>> e, w, f = naive_softmax([[0.0, 0.0], [710.0, 0.0]], [[True, True]] * 2)
    >>> w[0].tolist(), f
    ([0.5, 0.5], (None, 'overflow'))
    """
    z, allowed = np.asarray(z, dtype=float), np.asarray(allowed, dtype=bool)  # (n, m) each
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        e = np.where(allowed, np.exp(np.where(allowed, z, 0.0)), 0.0)  # (n, m); may hold inf
        total = e.sum(axis=1, keepdims=True)  # (n, 1)
        weights = e / total  # (n, m)
    failure = []
    for row_e, row_total in zip(e, total[:, 0]):
        if not np.isfinite(row_e).all():
            failure.append("overflow")
        elif not math.isfinite(row_total):
            failure.append("sum")
        elif row_total == 0:
            failure.append("underflow")
        else:
            failure.append(None)
    weights[[f is not None for f in failure]] = np.nan  # (n, m); never shown, see failure
    return e, weights, tuple(failure)


def _stable(z: np.ndarray, allowed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The stable softmax of each row over its allowed keys: (exp of shifted z, weights)."""
    top = np.where(allowed, z, -np.inf).max(axis=1, keepdims=True)  # (n, 1)
    e = np.where(allowed, np.exp(np.minimum(z - top, 0.0)), 0.0)  # (n, m); every entry <= 1
    return e, e / e.sum(axis=1, keepdims=True)  # (n, m) each


@dataclass(frozen=True)
class Counterfactual:
    """Weights computed with some steps removed (arrays read-only).

    allowed, z, exp, weights: (n, m). ``z`` is what enters the softmax (the score,
    ÷√d_k unless ``scale`` is removed, ÷T); ``exp`` the exponentials as computed (of
    z itself without the shift, may be inf; of z − max otherwise); ``weights`` NaN
    in every row whose ``failure`` is not None. A row with no allowed key has
    failure ``"empty"``.
    """

    without: tuple
    allowed: np.ndarray
    z: np.ndarray
    exp: np.ndarray
    weights: np.ndarray
    failure: tuple

    def __post_init__(self):
        for value in (self.allowed, self.z, self.exp, self.weights):
            value.flags.writeable = False


def counterfactual(scores, d_k: int, temperature: float = 1.0, mask=None, causal=None,
                   without=()) -> Counterfactual:
    """Recompute the weights of raw scores ``Q Kᵀ`` with the steps in ``without`` removed.

    ``mask`` is the reader's (n, m) boolean mask (True = allowed) and stays applied;
    ``causal`` the model's, dropped when ``mask`` is in ``without``.

    >>> cf = counterfactual([[1.0, 5.0]], 1, causal=[[True, False]], without=["mask"])
    >>> cf.weights.round(3).tolist(), cf.allowed.tolist()
    ([[0.018, 0.982]], [[True, True]])
    """
    removed = steps(without)
    S = np.asarray(scores, dtype=float)  # (n, m)
    if S.ndim != 2 or not np.isfinite(S).all():
        raise ValueError("scores must be a finite (n, m) matrix")
    t = float(temperature)
    if not math.isfinite(t) or t <= 0:
        raise ValueError(f"temperature must be a finite number greater than 0, got {t}")
    allowed = np.ones(S.shape, dtype=bool) if mask is None else np.asarray(mask, dtype=bool)
    if causal is not None and "mask" not in removed:
        allowed = allowed & np.asarray(causal, dtype=bool)  # (n, m)
    z = S / (1.0 if "scale" in removed else math.sqrt(d_k)) / t  # (n, m)
    empty = ~allowed.any(axis=1)  # (n,)
    live = np.where(empty[:, None], True, allowed)  # (n, m); empty rows are computed, then voided
    if "shift" in removed:
        e, weights, failure = naive_softmax(z, live)
    else:
        e, weights = _stable(z, live)
        failure = (None,) * len(S)
    failure = tuple("empty" if x else f for x, f in zip(empty, failure))
    weights = np.where(np.array([f is not None for f in failure])[:, None], np.nan, weights)
    return Counterfactual(removed, allowed, z, np.where(allowed, e, 0.0), weights, failure)


def entropy_bits(w) -> float:
    """Return the entropy of a weight row in bits: 0 for one-hot, log2 m for uniform.

    >>> entropy_bits([0.5, 0.5, 0.0]), entropy_bits([1.0, 0.0])
    (1.0, 0.0)
    """
    w = np.asarray(w, dtype=float)  # (m,)
    w = w[w > 0]
    return float(max(0.0, -(w * np.log2(w)).sum()))
