"""Read a figure's state from URL parameters, one by one, and write it back.

A shared link reopens the same state: ``?q=0,0&t=0.5`` for the lab, ``?query=grid``
for FIG-002, ``?sentence=...&head=sink&query=3&t=2&shut=1`` for the bench; ``without=scale,shift``
on the lab and the bench removes steps for the what-if comparison (values read one by one). Every
parameter is checked on its own: a bad one is dropped with a short notice and the
others still apply, so a tampered address never breaks the page.
"""

from __future__ import annotations

from . import bench, bench_view, lab, toy, trained_view, whatif

__all__ = ["MAX_VALUE", "PARAMETERS", "from_url", "to_url"]

MAX_VALUE = 500  # characters; a 40-word sentence fits easily
PARAMETERS = {
    "fig-002": ("query",),
    "lab": ("q", "mask", "t", "without"),
    "bench": ("sentence", "head", "query", "t", "shut", "without", "trained"),
}


def _shown(value: str) -> str:
    """Quote a reader-supplied value briefly for a notice (the page shows it as text)."""
    return value if len(value) <= 40 else value[:40] + "…"


def _bits(value: str, n: int) -> list[bool]:
    """Read n switches written as 1 and 0, e.g. "1,0,1"."""
    parts = value.split(",")
    if len(parts) != n or any(p not in ("0", "1") for p in parts):
        raise ValueError(f"expected {n} values of 0 or 1, like {','.join(['1'] * n)}")
    return [p == "1" for p in parts]


def _fig_002(params: dict) -> dict:
    """FIG-002's query token."""
    if params["query"] not in toy.TOKENS:
        raise ValueError(f"choose one of {', '.join(toy.TOKENS)}")
    return {"query": params["query"]}


def _lab(name: str, value: str, state: dict) -> None:
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


def _bench(name: str, value: str, state: dict) -> None:
    """Apply one bench parameter to state (in PARAMETERS order), or raise ValueError."""
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


def _without(figure: str, value: str) -> tuple[list[str], list[str]]:
    """Read "scale,shift": (the steps kept, in canonical order; a notice per bad value)."""
    offered = ("scale", "shift") if figure == "lab" else whatif.STEPS
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


def from_url(figure: str, params: dict) -> tuple[dict, list[str]]:
    """Return (state for the figure's view, notices about parameters that were ignored).

    >>> from_url("lab", {"q": "0,0", "t": "abc"})
    ({'query': ['0', '0']}, ['Ignored t=abc: “abc” is not a number.'])
    >>> from_url("bench", {"head": "<script>", "query": "2"})
    ({'query': 2}, ['Ignored head=<script>: Choose one of the heads: previous-token, sink, coreference, verb-lookup.'])
    """
    if figure not in PARAMETERS or not isinstance(params, dict):
        raise ValueError(f"no URL state for {figure!r}")
    notices, state = [], {}
    known = PARAMETERS[figure]
    unknown = [str(name) for name in params if name not in known]
    notices += [f"Ignored unknown parameter {_shown(name)}." for name in unknown[:5]]
    if len(unknown) > 5:
        notices.append(f"Ignored {len(unknown) - 5} more unknown parameters.")
    for name in known:
        if name not in params:
            continue
        value = params[name]
        if not isinstance(value, str) or len(value) > MAX_VALUE:
            notices.append(f"Ignored {name}: longer than {MAX_VALUE} characters.")
            continue
        if name == "without":  # the what-if steps, each value on its own
            kept, dropped = _without(figure, value)
            notices += dropped
            state = {**state, "without": kept} if kept else state
            continue
        trial = dict(state)
        try:
            if figure == "fig-002":
                trial = _fig_002(params)
            elif figure == "lab":
                _lab(name, value, trial)
            else:
                _bench(name, value, trial)
        except (ValueError, TypeError) as exc:
            reason = str(exc).rstrip(".")
            notices.append(f"Ignored {name}={_shown(value)}: {reason[:1].upper()}{reason[1:]}.")
            continue
        state = trial
    return state, notices


def to_url(figure: str, data: dict) -> dict:
    """Return the URL parameters that reopen a view (the output of the figure's builder).

    >>> to_url("lab", lab.view(["0.5", "1"], temperature="2"))
    {'q': '0.5,1', 'mask': '1,1,1', 't': '2'}
    """
    if figure == "fig-002":
        return {"query": data["query"]["token"]}
    removed = data.get("whatif", {}).get("without")
    extra = {"without": ",".join(removed)} if removed else {}
    if figure == "lab":
        return {"q": ",".join(data["fields"]), "mask": ",".join("1" if m else "0" for m in data["mask"]),
                "t": data["temperature"]["text"], **extra}
    s = data["state"]
    url = {"sentence": s["sentence"], "head": s["head"], "query": str(s["query"]),
           "t": s["temperature"]}
    if s["shut"]:
        url["shut"] = ",".join(str(j) for j in s["shut"])
    if s.get("trained"):
        url["trained"] = s["trained"]
    if s["sentence"] == " ".join(bench.DEFAULT_SENTENCE):
        del url["sentence"]
    return {**url, **extra}
