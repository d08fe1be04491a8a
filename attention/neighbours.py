"""The states one click away from a figure's state, written as the requests its page sends.

A page answers these from a table computed at build time by ``attention.bridge`` itself, so
a click is drawn at once, before Python has loaded; any other state goes to Python. Each
figure's neighbours are declared here and nowhere else: a new control that sends a new
request is one more line in its figure's function. A request must be what the page's widget
really sends, field for field, since the table is keyed by it (see ``key``).

>>> [r["query"] for r in fig_002_neighbours({"query": {"token": "rises"}})]
['grid', 'load', 'rises']
>>> key({"query": "grid", "figure": "fig-002"})
'{"figure":"fig-002","query":"grid"}'
"""

from __future__ import annotations

import json

from . import bench, toy
from .numbers import typed

__all__ = ["bench_neighbours", "fig_002_neighbours", "key", "lab_neighbours"]


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


def fig_002_neighbours(data: dict) -> list[dict]:
    """FIG-002: a click on any row makes that token the query (fig002.js)."""
    return [{"figure": "fig-002", "query": token} for token in toy.TOKENS]


def lab_neighbours(data: dict) -> list[dict]:
    """The lab: its fields as typed, plus one change (lab.js reads every field per request)."""
    base = {"figure": "lab", "query": list(data["fields"]), "mask": list(data["mask"]),
            "temperature": data["temperature"]["text"], **_removed(data)}
    toggled = [{**base, "mask": [on != (j == i) for j, on in enumerate(data["mask"])]}
               for i in range(len(data["mask"]))]
    queries = [["0", "0"]] + [[typed(x) for x in q] for q in toy.roles()["Q"]]  # zero, tokens
    return [
        base,  # the same state again, e.g. a field retyped unchanged
        *toggled,  # a key's switch
        *[{**base, "move": move} for move in ("left", "right", "up", "down")],  # arrow keys
        *[{**base, "query": q} for q in queries],  # the prediction's zero query; each token's
        *[{**base, "slider": str(data["slider"] + step)} for step in (-1, 1)  # slider's arrows
          if 0 <= data["slider"] + step <= 1000],
        *_without(base, data),  # a what-if toggle
    ]


def _removed(data: dict) -> dict:
    """The steps removed in the what-if panel, which page.js adds to every request of the
    figure, as fields of a request ({} when none is removed)."""
    steps = data["whatif"]["without"]
    return {"without": list(steps)} if steps else {}


def _without(base: dict, data: dict) -> list[dict]:
    """The what-if panel's toggles (whatif.js), each one turned: sent with the panel's state
    (the figure's, field for field) and the steps then removed (no field when none is)."""
    options, steps = data["whatif"]["options"], data["whatif"]["without"]
    plain = {k: v for k, v in base.items() if k != "without"}
    out = []
    for option in options:
        turned = [o["name"] for o in options if (o["name"] in steps) != (o is option)]
        out.append({**plain, **({"without": turned} if turned else {})})
    return out


def bench_neighbours(data: dict) -> list[dict]:
    """The bench: its whole state, plus one change (bench.js sends the last good state)."""
    state = data["state"]
    base = {"figure": "bench", **state, **_removed(data)}
    n = len(data["sentence"]["words"])

    def toggle(j: int) -> list[int]:
        shut = state["shut"]
        return [k for k in shut if k != j] if j in shut else [*shut, j]

    return [
        *[{**base, "query": j} for j in range(n)],  # a row of the table or the matrix
        *[{**base, "head": h} for h in bench.HEADS],  # a head's radio button or card
        *[{**base, "shut": toggle(v["index"])} for v in data["drawing"]["valves"]
          if v["can_turn"]],  # a stopcock
        {**base, "sentence": data["sentence"]["text"], "query": None, "shut": []},  # resubmit
        *[{**base, "slider": str(data["slider"] + step)} for step in (-1, 1)
          if 0 <= data["slider"] + step <= 1000],  # the slider's arrow keys
        *_without(base, data),  # a what-if toggle
    ]
