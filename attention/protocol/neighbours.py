"""The states one click away from a figure's state, written as the requests its page sends.

A page answers these from a table computed at build time by ``attention.protocol.bridge`` itself, so
a click is drawn at once, before Python has loaded; any other state goes to Python. Each
state's neighbours are declared in its module (attention.figures) and nowhere else: a new
control that sends a new request is one more line there. A request must be what the page's
widget really sends, field for field, since the table is keyed by it (see ``key``).

>>> key({"query": 2, "figure": "bench"})
'{"figure":"bench","query":2}'
"""

from __future__ import annotations

import json

__all__ = ["key", "removed_steps", "whatif_toggles"]


def key(request: dict) -> str:
    """Return a request's key: JSON with sorted keys and no spaces, as answers.js builds it.

    Only strings, integers, booleans, null, lists and objects may appear: a float is written
    differently by JavaScript (1.0 is "1") and Python ("1.0"), so it is refused.

    >>> key({"b": [1, True, None], "a": "−1"})
    '{"a":"−1","b":[1,true,null]}'
    >>> key({"t": 0.5})
    Traceback (most recent call last):
    ValueError: a request key may not hold the float 0.5: JavaScript writes floats differently
    """
    _check_no_floats(request)
    return json.dumps(request, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def _check_no_floats(value) -> None:
    """Raise ValueError if value holds a float anywhere."""
    if isinstance(value, float):
        raise ValueError(f"a request key may not hold the float {value!r}: JavaScript writes "
                         "floats differently")
    if isinstance(value, dict):
        for v in value.values():
            _check_no_floats(v)
    elif isinstance(value, list):
        for v in value:
            _check_no_floats(v)


def removed_steps(data: dict) -> dict:
    """The steps removed in the what-if panel, which page.js adds to every request of the
    figure, as fields of a request ({} when none is removed)."""
    steps = data["whatif"]["without"]
    return {"without": list(steps)} if steps else {}


def whatif_toggles(base: dict, data: dict) -> list[dict]:
    """The what-if panel's toggles (whatif.js), each one turned: sent with the panel's state
    (the figure's, field for field) and the steps then removed (no field when none is)."""
    options, steps = data["whatif"]["options"], data["whatif"]["without"]
    plain = {k: v for k, v in base.items() if k != "without"}
    out = []
    for option in options:
        turned = [o["name"] for o in options if (o["name"] in steps) != (o is option)]
        out.append({**plain, **({"without": turned} if turned else {})})
    return out
