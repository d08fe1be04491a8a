"""The lab's figure: one query over the toy's keys, with masks and a temperature.

``view()`` takes what a reader typed or dragged, checks it, and returns the full
working table and the geometry of the value plot and the query pad as plain,
JSON-safe data. Bad input raises ``LabInputError`` naming the field at fault.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from . import toy, whatif, whatif_panel
from .catalog import say
from .numbers import exact, fixed, shown, typed

__all__ = ["LabInputError", "QUERY_LIMIT", "PAD_LIMIT", "T_RANGE", "T_SLIDER", "limits",
           "parse_temperature", "view"]

QUERY_LIMIT = 1000.0  # each query coordinate stays within ±QUERY_LIMIT
PAD_LIMIT = 3.0  # the pad shows queries within ±PAD_LIMIT
T_RANGE = (0.01, 100.0)  # the one temperature range: the field, the slider and the bench use it
T_SLIDER = (*T_RANGE, 1000)  # the slider: lowest T, highest T, steps on a log scale
PAD_STEP = 0.1  # how far one arrow-key press moves the query
PAD_BIG_STEP = 1.0  # Shift+arrow, Page Up and Page Down: ten small steps
NEUTRAL_T = 1.0  # dividing by it changes nothing: the original formula
MOVES = {"left": (-1, 0), "right": (1, 0), "up": (0, 1), "down": (0, -1)}
# Big steps, and jumps to the pad's edges (Home/End move left/right, as on a slider).
BIG_MOVES = {"left-big": (-1, 0), "right-big": (1, 0), "up-big": (0, 1), "down-big": (0, -1)}
EDGE_MOVES = {"home": (-1, None), "end": (1, None)}


class LabInputError(ValueError):
    """Input the lab cannot use; ``problems`` lists (field, message) for each bad field."""

    def __init__(self, field: str, message: str, problems=None):
        super().__init__(message)
        self.field = field
        self.problems = problems or [(field, message)]

    @classmethod
    def combine(cls, errors: list[LabInputError]) -> LabInputError:
        """Merge several fields' errors into one, keeping every message."""
        return cls(errors[0].field, errors[0].args[0], [p for e in errors for p in e.problems])


def _attempt(errors: list, read, *args):
    """Call read(*args); on LabInputError remember it and return None."""
    try:
        return read(*args)
    except LabInputError as exc:
        errors.append(exc)
        return None


def _plain(x: float) -> str:
    """Write a range limit the short way, with a true minus sign: −1000, 0.01."""
    return f"{x:g}".replace("-", "\u2212")


def reading(text: str) -> str:
    """Turn a number as people write it into Python's spelling: the true minus sign that the
    site itself prints (U+2212) becomes "-", and a lone decimal comma becomes a point.

    >>> reading("\u22123"), reading("1,5"), reading(" 2.5 "), reading("1,000.5"), reading("1,2,3")
    ('-3', '1.5', '2.5', '1,000.5', '1,2,3')
    """
    text = text.strip().replace("\u2212", "-")
    if text.count(",") == 1 and "." not in text:
        text = text.replace(",", ".")
    return text


def _number(text, field: str, low: float, high: float, what: str) -> float:
    """Read one number typed by a reader, or raise a LabInputError that says what is wrong
    (``what`` names the number in the message: "keep {what} between …").

    >>> _number("\u22123", "q1", -10, 10, "q"), _number("1,5", "q1", -10, 10, "q")
    (-3.0, 1.5)
    """
    raw = reading(text) if isinstance(text, str) else text
    if raw == "" or raw is None:
        raise LabInputError(field, say("core-lab.enter-number"))
    if isinstance(raw, bool):
        raise LabInputError(field, say("core-lab.not-a-number", value=repr(raw)))
    try:
        x = float(raw)
    except (TypeError, ValueError):
        shown_text = str(raw)[:40]
        raise LabInputError(field, say("core-lab.not-a-number-typed", text=shown_text)) from None
    if math.isnan(x):
        raise LabInputError(field, say("core-lab.nan"))
    if not low <= x <= high:
        raise LabInputError(field, say("core-lab.out-of-range", value=str(raw)[:40], what=what,
                                       low=_plain(low), high=_plain(high)))
    return x


def parse_temperature(text) -> float:
    """Read the temperature, explaining why 0 and negative values cannot work."""
    try:
        t = float(reading(text) if isinstance(text, str) else text)
    except (TypeError, ValueError):
        t = None  # not a number at all: _number says so
    if t == 0:
        raise LabInputError("temperature", say("core-lab.t-zero"))
    if t is not None and t < 0:
        raise LabInputError("temperature", say("core-lab.t-negative"))
    return _number(text, "temperature", *T_RANGE, "T")


def limits() -> dict:
    """Return the lab's input ranges as text for labels and hints.

    >>> limits()["query"], limits()["slider_steps"]
    ('1000', 1000)
    """
    low, high, steps = T_SLIDER
    return {"query": _plain(QUERY_LIMIT), "slider_low": _plain(low), "slider_high": _plain(high),
            "slider_steps": steps, "t_low": _plain(T_RANGE[0]), "t_high": _plain(T_RANGE[1]),
            "pad": _plain(PAD_LIMIT), "slider_texts": slider_texts()}


@functools.lru_cache(maxsize=1)
def slider_texts() -> list[str]:
    """Return T as an answer writes it, for every slider step: the page gives the slider its
    value text as it moves, before Python's answer comes (a screen reader reads it at once).

    >>> slider_texts()[500], slider_texts()[501], len(slider_texts())
    ('1', '1.01', 1001)
    """
    return [typed(slider_temperature(step)) for step in range(T_SLIDER[2] + 1)]


def slider_position(t: float) -> int:
    """Return the slider step for a temperature (log scale, clamped to the slider's ends).

    >>> slider_position(1.0), slider_position(0.01), slider_position(100), slider_position(1e-9)
    (500, 0, 1000, 0)
    """
    low, high, steps = T_SLIDER
    frac = (math.log(t) - math.log(low)) / (math.log(high) - math.log(low))
    return int(round(min(max(frac, 0.0), 1.0) * steps))


def slider_temperature(step) -> float:
    """Return the temperature at a slider step, rounded to three significant digits.

    >>> slider_temperature(500), slider_temperature(0), slider_temperature(1000)
    (1.0, 0.01, 100.0)
    """
    low, high, steps = T_SLIDER
    step = _number(step, "temperature", 0, steps, say("core-lab.the-slider"))
    t = math.exp(math.log(low) + step / steps * (math.log(high) - math.log(low)))
    return float(f"{t:.3g}")


def _hull(points: np.ndarray) -> list[int]:
    """Return the indices of the convex hull of 2-D points, counter-clockwise (monotone chain)."""
    order = sorted(range(len(points)), key=lambda i: (points[i][0], points[i][1]))
    if len(order) <= 2:
        return order

    def half(indices):
        chain = []
        for i in indices:
            while len(chain) >= 2:
                (ax, ay), (bx, by) = points[chain[-2]], points[chain[-1]]
                cx, cy = points[i]
                if (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) > 0:
                    break
                chain.pop()
            chain.append(i)
        return chain

    lower, upper = half(order), half(order[::-1])
    return lower[:-1] + upper[:-1]


def _query(query, move, pad) -> np.ndarray:
    """Resolve the query from the fields, a pad position or an arrow-key move."""
    if pad is not None:
        if not isinstance(pad, (list, tuple)) or len(pad) != 2:
            raise LabInputError("pad", say("core-lab.pad-two"))
        xy = [_number(v, "pad", -1e6, 1e6, say("core-lab.the-pad-position")) for v in pad]
        return np.clip(np.round(xy, 2), -PAD_LIMIT, PAD_LIMIT)  # (d_k,)
    if not isinstance(query, (list, tuple)) or len(query) != 2:
        raise LabInputError("query", say("core-lab.query-two"))
    errors: list[LabInputError] = []
    coords = [_attempt(errors, _number, v, f"q{i + 1}", -QUERY_LIMIT, QUERY_LIMIT,
                       say("core-lab.each-coordinate")) for i, v in enumerate(query)]
    if errors:
        raise LabInputError.combine(errors)
    q = np.array(coords)  # (d_k,)
    if move is not None:
        q = _moved(q, move)
    return q


def _moved(q: np.ndarray, move: str) -> np.ndarray:
    """Move the query by one keyboard step: small, big, or to the pad's left or right edge.

    >>> _moved(np.array([0.0, 0.0]), "up-big").tolist(), _moved(np.array([1.0, 2.0]), "end").tolist()
    ([0.0, 1.0], [3.0, 2.0])
    """
    if move in MOVES:
        step = PAD_STEP * np.array(MOVES[move])  # (d_k,)
    elif move in BIG_MOVES:
        step = PAD_BIG_STEP * np.array(BIG_MOVES[move])  # (d_k,)
    elif move in EDGE_MOVES:
        edge = EDGE_MOVES[move][0] * PAD_LIMIT
        return np.clip(np.array([edge, q[1]]), -PAD_LIMIT, PAD_LIMIT)  # (d_k,)
    else:
        raise LabInputError("pad", say("core-lab.unknown-move", move=repr(str(move)[:20])))
    return np.clip(np.round(q + step, 2), -PAD_LIMIT, PAD_LIMIT)  # (d_k,)


def _mask(mask) -> list[bool]:
    """Check the allowed/blocked switches: one boolean per key, at least one allowed."""
    m = len(toy.TOKENS)
    if mask is None:
        return [True] * m
    if not isinstance(mask, (list, tuple)) or len(mask) != m or \
            not all(isinstance(b, bool) for b in mask):
        raise LabInputError("mask", say("core-lab.mask-switches", count=m))
    if not any(mask):
        raise LabInputError("mask", say("core-lab.no-key"))
    return list(mask)


def view(query=("1", "1"), mask=None, temperature="1", move=None, pad=None, slider=None,
         without=()) -> dict:
    """Return the lab's full state and working, or raise LabInputError for bad input.

    Schema: ``{"said": str, "allowed_text": str, "query": shown, "fields": [str, str], "mask": [bool],
    "temperature": shown, "slider": int,
    "d_k", "rows": [{"token", "index", "allowed", "key", "score", "scaled",
    "tempered", "shifted", "exp", "weight", "value", "product"}], "output": shown,
    "trace": {stage: nested lists}, "plot": {...}, "pad": {...},
    "whatif": see attention.whatif_panel.lab_entry}``; ``without`` removes steps
    ("scale", "shift") for the what-if comparison.

    >>> v = view(["0", "0"])
    >>> [r["weight"]["text"] for r in v["rows"]], v["output"]["text"]
    (['0.333', '0.333', '0.333'], '[0.667, 1.333]')
    >>> view(["1", "1"], mask=[False, False, False])
    Traceback (most recent call last):
    attention.lab.LabInputError: No key is allowed: nothing to mix. Allow at least one key.
    """
    errors: list[LabInputError] = []
    if slider is not None:
        t = _attempt(errors, slider_temperature, slider)
    else:
        t = _attempt(errors, parse_temperature, temperature)
    q = _attempt(errors, _query, query, move, pad)  # (d_k,)
    allowed = _attempt(errors, _mask, mask)
    removed = _attempt(errors, _without, without)
    if errors:
        raise LabInputError.combine(errors)
    r = toy.roles()
    tr = toy.trace(q.tolist(), mask=allowed, temperature=t)
    rows = []
    for j, token in enumerate(toy.TOKENS):
        on = allowed[j]
        rows.append({
            "token": token, "index": j, "allowed": on,
            "key": shown(r["K"][j]),
            "value": shown(r["V"][j]),
            "score": shown(tr.scores[0, j]),
            "scaled": shown(tr.scaled[0, j]),
            "tempered": shown(tr.tempered[0, j]),
            "shifted": shown(tr.shifted[0, j]) if on else {"value": None, "text": "−∞"},
            "exp": shown(tr.exp[0, j]),
            "weight": shown(tr.weights[0, j]),
            "product": shown(tr.weights[0, j] * r["V"][j]),  # a_j v_j: its part of the mix
        })
    out = {
        "said": said(shown(q)["text"], rows, shown(tr.output[0])["text"]),
        "allowed_text": say("list.separator").join(t_ for t_, on in zip(toy.TOKENS, allowed) if on),
        "query": shown(q), "mask": allowed, "temperature": {"value": t, "text": typed(t)},
        "slider": slider_position(t), "d_k": tr.d_k, "rows": rows, "output": shown(tr.output[0]),
        "trace": {name: getattr(tr, name).tolist() for name in
                  ("scores", "scaled", "tempered", "shifted", "exp", "weights", "output")},
        "plot": _plot(r["V"], allowed, tr.output[0]),
        "fields": [typed(x) for x in q],
        "pad": {"viewbox": _box(-PAD_LIMIT, -PAD_LIMIT, PAD_LIMIT, PAD_LIMIT, 0.3),
                "x": float(np.clip(q[0], -PAD_LIMIT, PAD_LIMIT)),
                "y": float(np.clip(q[1], -PAD_LIMIT, PAD_LIMIT)),
                "off_pad": bool(np.abs(q).max() > PAD_LIMIT), "limit": PAD_LIMIT,
                "ticks": list(range(-int(PAD_LIMIT), int(PAD_LIMIT) + 1)),
                "tick_labels": [{"at": t_, "text": exact(t_)}
                                for t_ in range(-int(PAD_LIMIT), int(PAD_LIMIT) + 1) if t_],
                "key_points": [{"token": t_, "x": float(k[0]), "y": float(k[1])}
                         for t_, k in zip(toy.TOKENS, r["K"])]},
    }
    out["whatif"] = whatif_panel.lab_entry(tr, removed, q, out["fields"], allowed, typed(t), QUERY_LIMIT)
    return out


def _without(without) -> tuple:
    """Read the steps removed for the what-if comparison; the lab has no causal mask."""
    try:
        removed = whatif.steps(without)
    except ValueError as exc:
        raise LabInputError("without", say("core-lab.sentence", text=f"{str(exc)[:1].upper()}{str(exc)[1:]}")) \
            from None
    if "mask" in removed:
        raise LabInputError("without", say("core-lab.no-causal-mask"))
    return removed


def said(query: str, rows: list[dict], output: str) -> str:
    """Return the one sentence a screen reader hears after a change: query, weights, output.

    >>> said("[1.000, 1.000]", [{"token": "a", "allowed": True, "weight": {"text": "0.700"}},
    ...     {"token": "b", "allowed": False, "weight": {"text": "0.000"}}], "[1.000, 0.000]")
    'Query [1.000, 1.000]: weights a 0.700, b blocked; output [1.000, 0.000].'
    """
    weights = say("list.separator").join(
        say("core-lab.said-weight", word=r["token"], weight=r["weight"]["text"]) if r["allowed"] else
        say("core-lab.said-blocked", word=r["token"]) for r in rows)
    return say("core-lab.said", query=query, weights=weights, output=output)


def _box(x0: float, y0: float, x1: float, y1: float, margin: float) -> str:
    """Return an SVG viewBox for a y-up region drawn inside a ``scale(1,-1)`` group."""
    return f"{x0 - margin:g} {-(y1 + margin):g} {x1 - x0 + 2 * margin:g} {y1 - y0 + 2 * margin:g}"


# Where the output's "o" may sit beside its dot, in value units: (right, up, text-anchor). The
# first is the usual place; the others are tried when a value's dot or name is closer.
O_SPOTS = ((-0.11, -0.2, "end"), (0.11, -0.2, "start"), (-0.11, 0.1, "end"), (0.11, 0.1, "start"))
O_HALF = 0.05  # about half the width and height of the "o" at the plot's font size


def _output_label(at: np.ndarray, V: np.ndarray, tokens) -> dict:
    """Return where the output's "o" goes: the spot of O_SPOTS farthest from every value's dot
    and from the middle of its name (drawn up and right of the dot), the first on a tie.

    Schema: ``{"x", "y", "anchor"}``, x and y in the label's own y-down coordinates.

    >>> V = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 2.0]])  # (m, d_v)
    >>> _output_label(np.array([0.5, 1.0]), V, ["a", "b", "c"])  # far from all: the usual spot
    {'x': -0.11, 'y': 0.2, 'anchor': 'end'}
    >>> _output_label(np.array([1.0, 0.2]), V, ["a", "b", "c"])["y"]  # just above a: go up
    -0.1
    """
    names = np.array([[x + 0.09 + O_HALF * len(t), y + 0.13] for (x, y), t in zip(V, tokens)])
    avoid = np.vstack([V, names])  # (2m, 2): dots and the middles of their names

    def clearance(spot):
        right, up, anchor = spot
        middle = at + [right + (O_HALF if anchor == "start" else -O_HALF), up + O_HALF]  # (2,)
        return round(float(np.min(np.hypot(*(avoid - middle).T))), 6)

    best = max(O_SPOTS, key=clearance)  # max keeps the first of equals
    return {"x": best[0], "y": -best[1], "anchor": best[2]}


def _plot(V: np.ndarray, allowed: list[bool], output: np.ndarray) -> dict:
    """Return the value plot's geometry in value coordinates: points, hull and output."""
    idx = [j for j, on in enumerate(allowed) if on]
    hull = [idx[i] for i in _hull(V[idx])]  # indices into V, counter-clockwise
    low, high = V.min(axis=0), V.max(axis=0)  # (d_v,) each
    return {
        "viewbox": _box(low[0], low[1], high[0], high[1], 0.45),
        "value_points": [{"token": t, "x": float(v[0]), "y": float(v[1]), "allowed": a}
                   for t, v, a in zip(toy.TOKENS, V, allowed)],
        "hull": " ".join(f"{V[j][0]:g},{V[j][1]:g}" for j in hull),
        "output": {"x": float(output[0]), "y": float(output[1]),
                   "text": f"[{fixed(output[0])}, {fixed(output[1])}]",
                   "label": _output_label(output, V, toy.TOKENS)},
        "axes": _axes(low, high),
        "summary": say("core-lab.summary", output=f"[{fixed(output[0])}, {fixed(output[1])}]"),
    }


def _axes(low, high, reach: float = 0.35) -> dict:
    """The plot's axes through 0, the first and the second value coordinate, with a tick at
    every whole number: ``{"x": [x0, x1], "y": [y0, y1], "ticks": [{"x", "y", "text", "axis"}]}``."""
    lo, hi = np.minimum(low, 0) - reach, np.maximum(high, 0) + reach  # (2,) each
    ticks = [{"x": float(k) if a == 0 else 0.0, "y": 0.0 if a == 0 else float(k), "text": f"{k:g}",
              "axis": a} for a in (0, 1) for k in range(math.ceil(lo[a]), math.floor(hi[a]) + 1) if k]
    return {"x": [float(lo[0]), float(hi[0])], "y": [float(lo[1]), float(hi[1])], "ticks": ticks}
