"""Read a figure's state from URL parameters, one by one.

A shared link reopens the same state: each live figure's module (attention.figures) applies
its own parameters and writes them back; ``without=scale,shift`` removes steps for the
what-if comparison (values read one by one). Every parameter is checked on its own: a bad
one is dropped with a short notice and the others still apply, so a tampered address never
breaks the page.
"""

from __future__ import annotations

from .. import lab, whatif
from ..catalog import say

__all__ = ["MAX_VALUE", "bits", "read", "removed_parameter"]

MAX_VALUE = 500  # characters; a 40-word sentence fits easily


def _shown(value: str) -> str:
    """Quote a reader-supplied value briefly for a notice (the page shows it as text)."""
    return value if len(value) <= 40 else value[:40] + "…"


def bits(value: str, n: int) -> list[bool]:
    """Read n switches written as 1 and 0, e.g. "1,0,1"."""
    parts = value.split(",")
    if len(parts) != n or any(p not in ("0", "1") for p in parts):
        raise ValueError(say("urlstate.bits", n=n, zero=0, one=1, example=",".join(["1"] * n)))
    return [p == "1" for p in parts]


def _without(offered: tuple[str, ...], value: str) -> tuple[list[str], list[str]]:
    """Read "scale,shift": (the steps kept, in canonical order; a notice per bad value)."""
    kept, notices = [], []
    for part in dict.fromkeys(value.split(",")):
        if part in offered:
            kept.append(part)
        elif part == "mask":
            notices.append(say("urlstate.ignored", parameter="without=mask", reason=say("urlstate.no-mask")))
        elif part:
            choices = say("urlstate.or", first=say("list.separator").join(offered[:-1]), last=offered[-1])
            notices.append(say("urlstate.ignored", parameter=f"without={_shown(part)}",
                               reason=say("urlstate.choose", choices=choices)))
    return list(whatif.steps(kept)), notices[:5]


def read(params: dict, parameters: tuple[str, ...], apply, steps: tuple[str, ...] = ()
         ) -> tuple[dict, list[str]]:
    """Return (state, notices about parameters that were ignored) for a figure whose URL
    takes ``parameters``, each applied in that order by ``apply(name, value, state)``, and
    ``without`` the what-if ``steps`` it offers (attention.protocol.registry.from_url names them).

    >>> def apply(name, value, state):
    ...     if not value.isdigit():
    ...         raise ValueError(f"“{value}” is not a whole number")
    ...     state[name] = int(value)
    >>> read({"n": "3", "m": "abc", "x": "1"}, ("n", "m"), apply)
    ({'n': 3}, ['Ignored unknown parameter x.', 'Ignored m=abc: “abc” is not a whole number.'])
    """
    if not isinstance(params, dict):
        raise ValueError("no URL state: the parameters must be an object")
    notices, state = [], {}
    unknown = [str(name) for name in params if name not in parameters]
    notices += [say("urlstate.unknown", name=_shown(name)) for name in unknown[:5]]
    if len(unknown) > 5:
        notices.append(say("urlstate.more-unknown", count=len(unknown) - 5))
    for name in parameters:
        if name not in params:
            continue
        value = params[name]
        if not isinstance(value, str) or len(value) > MAX_VALUE:
            notices.append(say("urlstate.ignored", parameter=name, reason=say("urlstate.too-long", most=MAX_VALUE)))
            continue
        if name == "without":  # the what-if steps, each value on its own
            kept, dropped = _without(steps, value)
            notices += dropped
            state = {**state, "without": kept} if kept else state
            continue
        trial = dict(state)
        try:
            apply(name, value, trial)
        except (ValueError, TypeError) as exc:
            reason = str(exc).rstrip(".。")  # the notice ends it in its own language
            notices.append(say("urlstate.ignored", parameter=f"{name}={_shown(value)}",
                               reason=reason[:1].upper() + reason[1:]))
            continue
        state = trial
    return state, notices


def t_meaning() -> tuple[str, str]:
    """The ``t`` parameter as the embed guide says it: what it means, and its range.

    >>> t_meaning()[0]
    'the temperature T'
    """
    limits = lab.limits()
    return say("urlstate.t-meaning"), say("urlstate.range", low=limits["t_low"], high=limits["t_high"])


def without_meaning(steps: tuple[str, ...]) -> tuple[str, str]:
    """The ``without`` parameter as the embed guide says it, for a state's what-if steps.

    >>> without_meaning(("scale", "shift"))
    ('steps the what-if panel removes', 'scale, shift, comma-separated')
    """
    return say("urlstate.without-meaning"), say("urlstate.comma-separated", values=", ".join(steps))


def removed_parameter(data: dict) -> dict:
    """The what-if steps a view removes, as URL parameters ({} when none)."""
    removed = data.get("whatif", {}).get("without")
    return {"without": ",".join(removed)} if removed else {}
