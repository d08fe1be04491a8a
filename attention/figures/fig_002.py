"""FIG-002, "Weights choose a mixture" (chapter 2): one query's scores, weights, values and
weighted contributions. A click on a row makes that token the query (fig-002.js); a link
reopens it with ``?query=grid``.
"""

from __future__ import annotations

from .. import lab, toy
from ..catalog import say
from ..numbers import shown
from ..questions import mixture
from ..protocol.records import Figure, RequestError, State

__all__ = ["FIGURE", "STATE", "answer", "apply", "data", "export", "neighbours", "questions", "url"]

NAME = "fig-002"  # its state's name, as the bridge and the page send it


def _query_index(query: str) -> int:
    """Return the row index of a toy token, or raise naming the valid ones."""
    if query not in toy.TOKENS:
        raise ValueError(f"unknown query {query!r}; choose one of {', '.join(toy.TOKENS)}")
    return toy.TOKENS.index(query)


def data(query: str = "rises") -> dict:
    """Return one query's scores, weights, values and weighted contributions.

    Schema: ``{"id", "query": {"token", "index", "vector"}, "d_k",
    "rows": [{"token", "index", "is_query", "key", "score", "scaled", "weight",
    "value", "contribution"}], "output", "said"}``; numbers are shown values (three
    decimals), and ``said`` is the one sentence a screen reader hears after a change.

    >>> d = data("rises")
    >>> [row["weight"]["text"] for row in d["rows"]], d["output"]["text"]
    (['0.284', '0.140', '0.576'], '[0.860, 1.432]')
    >>> d["rows"][2]["contribution"]["text"], d["rows"][0]["score"]["text"]
    ('[0.576, 1.152]', '2.000')
    >>> d["said"]
    'Query rises: weights grid 0.284, load 0.140, rises 0.576; output [0.860, 1.432].'
    """
    i = _query_index(query)
    tr = toy.trace(query)
    K, V = toy.roles()["K"], toy.roles()["V"]  # (m, d_k), (m, d_v)
    contributions = tr.weights[0][:, None] * V  # (m, 1) * (m, d_v) -> (m, d_v)
    rows = [
        {
            "token": token,
            "index": j,
            "is_query": j == i,
            "key": shown(K[j]),
            "score": shown(tr.scores[0, j]),
            "scaled": shown(tr.scaled[0, j]),
            "weight": shown(tr.weights[0, j]),
            "value": shown(V[j]),
            "contribution": shown(contributions[j]),
        }
        for j, token in enumerate(toy.TOKENS)
    ]
    return {
        "id": NAME,
        "query": {"token": query, "index": i, "vector": shown(toy.roles()["Q"][i])},
        "d_k": tr.d_k,
        "rows": rows,
        "output": shown(tr.output[0]),
        "said": lab.said(query, [{**row, "allowed": True} for row in rows],
                         shown(tr.output[0])["text"]),
    }


def answer(state: dict) -> dict:
    """Answer a request for a query token."""
    query = state.get("query", "rises")
    if not isinstance(query, str):
        raise RequestError("The query must be a token name.", "query")
    return data(query)


def apply(name: str, value: str, state: dict) -> None:
    """Apply its one URL parameter, the query token, to state, or raise ValueError."""
    if value not in toy.TOKENS:
        raise ValueError(say("fig-002-core.choose", tokens=say("list.separator").join(toy.TOKENS)))
    state["query"] = value


def url(data: dict) -> dict:
    """Return the URL parameters that reopen its view."""
    return {"query": data["query"]["token"]}


def neighbours(data: dict) -> list[dict]:
    """The requests one click away: a click on any row makes that token the query.

    >>> [r["query"] for r in neighbours({"query": {"token": "rises"}})]
    ['grid', 'load', 'rises']
    """
    return [{"figure": NAME, "query": token} for token in toy.TOKENS]


def export(state: dict) -> dict:
    """Its download: one query's scores, weights and weighted contributions; each row also
    names the query and carries the output (the contributions' sum), so a CSV stands alone."""
    d = data(**state)
    query, out = d["query"]["token"], d["output"]["value"]
    rows = [[query, r["token"], r["score"]["value"], r["scaled"]["value"], r["weight"]["value"],
             *r["value"]["value"], *r["contribution"]["value"], *out] for r in d["rows"]]
    return {"columns": [say("export.query"), say("export.key"), say("export.score"), say("export.scaled"),
                        say("export.weight"), *[say("export.value", n=c) for c in (1, 2)],
                        *[say("export.contribution", n=c) for c in (1, 2)],
                        *[say("export.output", n=c) for c in (1, 2)]],
            "rows": rows, "query": query, "output": out}


def questions(state: dict, answered: dict) -> list[dict]:
    """Three questions on a query's mixture (its answer, ``answered``), for a class handout
    (attention.questions).

    >>> [q["answer"] for q in questions({"query": "load"}, answer({"query": "load"}))]
    ['rises', 'rises', 'grow']
    """
    return mixture(answered["rows"])


STATE = State(name=NAME, answer=answer, fields=frozenset({"query"}), parameters=("query",),
              apply=apply, url=url, neighbours=neighbours, questions=questions,
              meanings=lambda: {"query": (say("fig-002-core.query-meaning"), ", ".join(toy.TOKENS))})
FIGURE = Figure(number="FIG-002", chapter="mixture", title=lambda: say("fig-002-core.title"), data=data,
                state=NAME, widget=NAME, export=export, parameters=STATE.parameters, table=NAME)
