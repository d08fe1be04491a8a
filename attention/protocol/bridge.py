"""The browser's one entry point: a JSON request in, a JSON answer out, never an exception.

The page sends ``{"figure": ..., ...state}``; the answer is either
``{"ok": true, "figure": ..., "data": {...}}`` or
``{"ok": false, "errors": [{"field": str | None, "message": str}]}``.
No NaN or infinity ever appears in an answer.

>>> import json
>>> answer = json.loads(handle_json('{"figure": "fig-002", "query": "grid"}'))
>>> [row["weight"]["text"] for row in answer["data"]["rows"]]
['0.401', '0.198', '0.401']
>>> json.loads(handle_json('{"figure": "lab", "temperature": "0"}'))["errors"][0]["field"]
'temperature'
"""

from __future__ import annotations

import functools
import json
import math

from .. import bench_view, catalog, lab, quiz, trained_layer
from . import export, handout, registry
from .records import RequestError

__all__ = ["MAX_REQUEST", "NEEDS", "handle", "handle_json", "speak"]

MAX_REQUEST = 20_000  # characters; a real request is a few hundred
MAX_DEPTH = 20  # nesting levels; a real request has three, and deep JSON exhausts Pyodide's stack


def _export(state: dict) -> dict:
    """Answer a download: a figure's numbers for a state (given as the figure's own state,
    or as the page's URL parameters), as CSV text and as JSON."""
    of, figure_state = state.get("of"), state.get("state", {})
    of = of if isinstance(of, str) else ""
    if "url" in state:
        figure = registry.embed(of)  # the figure whose URL state it reads, if any
        figure_state = _url_state(figure.state, state["url"])[0] if figure and figure.state else {}
    if not isinstance(figure_state, dict):
        raise RequestError("The state to export must be an object.", "state")
    table = registry.export(of, figure_state)
    return {"filename": export.filename(table), "csv": export.to_csv(table), "json": table,
            "caption": export.caption(table)}


FIGURES = dict(sorted({  # name: (builder taking the state as a dict, the fields a request may set)
    **{state.name: (state.answer, state.fields) for state in registry.STATES.values()},
    **{f.id: (f.answer, f.fields) for f in registry.FIGURES if f.answer},
    "export": (_export, {"of", "state", "url"}),
    "handout": (lambda state: handout.view(state.get("of"), state.get("url")),  # a class handout
                {"of", "url"}),
    "quiz": (lambda state: quiz.view(**state), quiz.FIELDS),  # the bench's questions for a bench state
}.items()))


def _url_state(name: str, params) -> tuple[dict, list[str]]:
    """Read a figure's state from the page's URL parameters (a flat object of strings)."""
    if not isinstance(params, dict):
        raise RequestError("The URL state must be an object of parameters.", "url")
    return registry.from_url(name, params)


# the language a request without "lang" is answered in: the page's, which its worker says once
# (speak()); a precomputed table's requests name theirs (sitebuild.answers), to the same answers
_default_lang = catalog.SOURCE


def speak(lang: str) -> None:
    """Answer every request without a "lang" in ``lang`` (the worker's page's language).

    >>> speak("zh"); json.loads(handle_json('{"figure": "nothing"}'))["ok"]; speak("en")
    False
    """
    global _default_lang
    with catalog.speaking(lang):  # a language with no catalog fails here
        pass
    _default_lang = lang
    _answer_text.cache_clear()


def handle(request) -> dict:
    """Answer one decoded request in its language (its "lang", or the page's: speak()); raise
    RequestError, LabInputError or BenchInputError."""
    if not isinstance(request, dict):
        raise RequestError("A request must be a JSON object.")
    lang = request.get("lang", _default_lang)
    if lang not in catalog.languages() and lang not in catalog.PSEUDO:
        raise RequestError("Unknown language.", "lang")
    with catalog.speaking(lang):
        return _handle({k: v for k, v in request.items() if k != "lang"})


def _handle(request: dict) -> dict:
    """handle() in the request's language."""
    name = request.get("figure")
    if not isinstance(name, str) or name not in FIGURES:
        raise RequestError(f"Unknown figure; expected one of {', '.join(FIGURES)}.", "figure")
    builder, fields = FIGURES[name]
    state = {k: v for k, v in request.items() if k != "figure"}
    allowed = fields | ({"url"} if name in registry.STATES else set())
    unknown = sorted(set(state) - allowed, key=str)
    if unknown:
        raise RequestError(f"Unknown field {str(unknown[0])[:40]!r} for {name}.", str(unknown[0])[:40])
    notices = []
    if "url" in state and name in registry.STATES:
        if len(state) > 1:
            raise RequestError("Send either the URL state or the figure’s state, not both.", "url")
        state, notices = _url_state(name, state["url"])
    data = builder(state)
    answer = {"ok": True, "figure": name, "data": data}
    if name in registry.STATES:
        answer["url"] = registry.to_url(name, data)
        answer["notices"] = notices
    return answer


def _depth(text: str) -> int:
    """Return how deeply brackets nest in JSON text, not counting brackets inside strings.

    >>> _depth('{"a": [1, "[[["]}')
    2
    """
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            escaped, in_string = (False, True) if escaped else (ch == "\\", ch != '"')
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _reject_constant(name: str):
    """Refuse NaN and Infinity in incoming JSON."""
    raise RequestError(f"{name} is not allowed in a request.")


def _finite_float(text: str) -> float:
    """Read a JSON number, refusing one too large for a float (1e999 reads as infinity)."""
    x = float(text)
    if not math.isfinite(x):
        raise RequestError(f"The number {text[:20]} is too large.")
    return x


# How an answer that needs a data file first begins: ``{"needs": {"file": its name on the site,
# "path": where Python reads it}, "ok": false, "errors": [...]}``. The worker fetches the file
# beside the package, writes it there and asks again (worker.js); only the trained layer's
# weights come so (attention.trained_layer).
NEEDS = '{"needs": '


def _needs(exc: trained_layer.WeightsMissing) -> str:
    """Encode the answer that asks for the weights file first."""
    return NEEDS + json.dumps({"file": trained_layer.weights_name(), "path": str(exc.path)}) + \
        _errors([(None, str(exc))]).replace("{", ", ", 1)


def _errors(problems) -> str:
    """Encode a list of (field, message) pairs as an error answer."""
    return json.dumps({"ok": False, "errors": [{"field": f, "message": m} for f, m in problems]})


def handle_json(text) -> str:
    """Answer a JSON request with a JSON answer; every failure becomes a structured error.

    The answer depends on the text alone, so the last few are kept: a reader clicking back
    and forth between rows gets each answer again without recomputing or re-encoding it. An
    answer that asks for a data file is not kept (it leaves the cache as an exception): the
    same request is answered once the file has come.
    """
    try:
        if isinstance(text, str) and len(text) <= MAX_REQUEST:
            return _answer_text(text)
        return _answer_text_uncached(text)
    except trained_layer.WeightsMissing as exc:
        return _needs(exc)


@functools.lru_cache(maxsize=64)  # every query of a 40-word sentence, and a few states more
def _answer_text(text: str) -> str:
    """handle_json for request text, remembered."""
    return _answer_text_uncached(text)


def _answer_text_uncached(text) -> str:
    """Answer a request (text or anything else) as JSON text: a request the bridge cannot read
    is refused in the page's language (speak()), the rest in the request's own (handle())."""
    with catalog.speaking(_default_lang):
        return _answered(text)


def _answered(text) -> str:
    """_answer_text_uncached, in the page's language."""
    try:
        if not isinstance(text, str):
            raise RequestError("A request must be JSON text.")
        if len(text) > MAX_REQUEST:  # a reader can paste that much into a sentence's field
            raise RequestError(catalog.say("bridge.too-long", most=MAX_REQUEST))
        if _depth(text) > MAX_DEPTH:
            raise RequestError(f"A request may nest at most {MAX_DEPTH} levels deep.")
        answer = handle(json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float))
        return json.dumps(answer, allow_nan=False)
    except lab.LabInputError as exc:
        return _errors(exc.problems)
    except bench_view.BenchInputError as exc:
        return _errors([(exc.field, str(exc))])
    except RequestError as exc:
        return _errors([(exc.field, str(exc))])
    except json.JSONDecodeError:
        return _errors([(None, "A request must be valid JSON.")])
    except trained_layer.WeightsMissing:
        raise  # to handle_json, past the cache
    except ValueError as exc:  # a core check, e.g. an unknown token or overflow
        return _errors([(None, str(exc))])
    except Exception as exc:  # noqa: BLE001 (nothing may escape to the page)
        return _errors([(None, catalog.say("bridge.internal", error=f"{type(exc).__name__}: {exc}")[:300])])
