"""Read a figure's state from URL parameters, one by one, and write it back.

A shared link reopens the same state: ``?q=0,0&t=0.5`` for the lab, ``?query=grid``
for FIG-002, ``?sentence=...&head=sink&query=3&t=2&shut=1`` for the bench; ``without=scale,shift``
on the lab and the bench removes steps for the what-if comparison (values read one by one). Every
parameter is checked on its own: a bad one is dropped with a short notice and the
others still apply, so a tampered address never breaks the page.
"""

from __future__ import annotations

from . import bench, bench_view, lab, toy, trained_view, whatif

__all__ = ["MAX_VALUE", "apply_bench", "apply_fig_002", "apply_lab", "bench_url", "fig_002_url",
           "lab_url", "read"]

MAX_VALUE = 500  # characters; a 40-word sentence fits easily


def _shown(value: str) -> str:
    """Quote a reader-supplied value briefly for a notice (the page shows it as text)."""
    return value if len(value) <= 40 else value[:40] + "…"


def _bits(value: str, n: int) -> list[bool]:
    """Read n switches written as 1 and 0, e.g. "1,0,1"."""
    parts = value.split(",")
    if len(parts) != n or any(p not in ("0", "1") for p in parts):
        raise ValueError(f"expected {n} values of 0 or 1, like {','.join(['1'] * n)}")
    return [p == "1" for p in parts]


def apply_fig_002(name: str, value: str, state: dict) -> None:
    """Apply FIG-002's one parameter, its query token, to state, or raise ValueError."""
    if value not in toy.TOKENS:
        raise ValueError(f"choose one of {', '.join(toy.TOKENS)}")
    state["query"] = value


def apply_lab(name: str, value: str, state: dict) -> None:
    """Apply one lab parameter to state, or raise ValueError saying why it cannot."""
    if name == "q":
        parts = value.split(",")
        if len(parts) != 2:
            raise ValueError("expected two numbers, like 0.5,-1")
        lab.view(query=parts)  # the lab's own checks
        state["query"] = parts
    elif name == "mask":
        state["mask"] = _bits(value, len(toy.TOKENS))
        lab.view(mask=state["mask"])
    else:
        lab.view(temperature=value)
        state["temperature"] = value


def apply_bench(name: str, value: str, state: dict) -> None:
    """Apply one bench parameter to state (in the order of its parameters), or raise ValueError."""
    key = {"t": "temperature"}.get(name, name)
    if name == "shut":
        parts = value.split(",") if value else []
        if not all(p.isdigit() for p in parts):
            raise ValueError("expected word positions, like 1,3")
        state["shut"] = [int(p) for p in parts]
    elif name == "query":
        state["query"] = int(value) if value.lstrip("-").isdigit() else value
    elif name == "trained":  # FIG-008's trained head, "layer-head"
        trained_view.parse_head(value)
        state["trained"] = value
        return
    else:
        state[key] = value
    bench_view.view(**state)  # the bench's own checks, against the state so far


def _without(offered: tuple[str, ...], value: str) -> tuple[list[str], list[str]]:
    """Read "scale,shift": (the steps kept, in canonical order; a notice per bad value)."""
    kept, notices = [], []
    for part in dict.fromkeys(value.split(",")):
        if part in offered:
            kept.append(part)
        elif part == "mask":
            notices.append("Ignored without=mask: The lab has no causal mask to remove.")
        elif part:
            notices.append(f"Ignored without={_shown(part)}: Choose {', '.join(offered[:-1])} "
                           f"or {offered[-1]}.")
    return list(whatif.steps(kept)), notices[:5]


def read(params: dict, parameters: tuple[str, ...], apply, steps: tuple[str, ...] = ()
         ) -> tuple[dict, list[str]]:
    """Return (state, notices about parameters that were ignored) for a figure whose URL
    takes ``parameters``, each applied in that order by ``apply(name, value, state)``, and
    ``without`` the what-if ``steps`` it offers (attention.registry.from_url names them).

    >>> read({"q": "0,0", "t": "abc"}, ("q", "mask", "t"), apply_lab)
    ({'query': ['0', '0']}, ['Ignored t=abc: “abc” is not a number.'])
    """
    if not isinstance(params, dict):
        raise ValueError("no URL state: the parameters must be an object")
    notices, state = [], {}
    unknown = [str(name) for name in params if name not in parameters]
    notices += [f"Ignored unknown parameter {_shown(name)}." for name in unknown[:5]]
    if len(unknown) > 5:
        notices.append(f"Ignored {len(unknown) - 5} more unknown parameters.")
    for name in parameters:
        if name not in params:
            continue
        value = params[name]
        if not isinstance(value, str) or len(value) > MAX_VALUE:
            notices.append(f"Ignored {name}: longer than {MAX_VALUE} characters.")
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
            reason = str(exc).rstrip(".")
            notices.append(f"Ignored {name}={_shown(value)}: {reason[:1].upper()}{reason[1:]}.")
            continue
        state = trial
    return state, notices


def _removed(data: dict) -> dict:
    """The what-if steps a view removes, as URL parameters ({} when none)."""
    removed = data.get("whatif", {}).get("without")
    return {"without": ",".join(removed)} if removed else {}


def fig_002_url(data: dict) -> dict:
    """Return the URL parameters that reopen FIG-002's view."""
    return {"query": data["query"]["token"]}


def lab_url(data: dict) -> dict:
    """Return the URL parameters that reopen a lab view.

    >>> lab_url(lab.view(["0.5", "1"], temperature="2"))
    {'q': '0.5,1', 'mask': '1,1,1', 't': '2'}
    """
    return {"q": ",".join(data["fields"]), "mask": ",".join("1" if m else "0" for m in data["mask"]),
            "t": data["temperature"]["text"], **_removed(data)}


def bench_url(data: dict) -> dict:
    """Return the URL parameters that reopen a bench view (the default sentence left out)."""
    s = data["state"]
    url = {"sentence": s["sentence"], "head": s["head"], "query": str(s["query"]),
           "t": s["temperature"]}
    if s["shut"]:
        url["shut"] = ",".join(str(j) for j in s["shut"])
    if s.get("trained"):
        url["trained"] = s["trained"]
    if s["sentence"] == " ".join(bench.DEFAULT_SENTENCE):
        del url["sentence"]
    return {**url, **_removed(data)}
