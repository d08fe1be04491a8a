"""A class handout of one figure's state: the state's settings, its numbers as a table, and
three questions whose answers are computed from the same state (a State's ``questions``).
The page at ``handout/<figure id>/?<the figure's URL parameters>`` prints it (handout.js);
the build writes each figure's opening state, Python in the browser any other.

>>> h = view("fig-002", {"query": "grid"})
>>> [f"{s['name']} {s['text']}" for s in h["setting"]]
['query grid']
>>> h["columns"][:3], h["rows"][0][:3], h["columns"][-1], h["rows"][0][-1]
(['key', 'score', 'scaled'], ['grid', '1.000', '0.707'], 'output_2', '1.198')
>>> [q["answer"] for q in h["questions"]], h["more"]
(['tie', 'rises', 'grow'], 0)
"""

from __future__ import annotations

from ..catalog import say
from ..numbers import fixed
from . import registry
from .records import Figure, RequestError

__all__ = ["MAX_ROWS", "figures", "view"]

# A table's rows on a handout: more would not leave the three pages a class handout may take
# (the rest are in the figure's CSV download, as the handout says)
MAX_ROWS = 30


def figures() -> tuple[Figure, ...]:
    """Return the figures a handout can print: a live state with questions, and a download.

    >>> [f.id for f in figures()]
    ['fig-002', 'fig-003', 'fig-004', 'fig-005', 'fig-006', 'fig-009']
    """
    return tuple(f for f in registry.FIGURES
                 if f.state and f.export and registry.STATES[f.state].questions is not None)


def _text(x) -> str:
    """A cell as the handout prints it: numbers to the figures' three decimals.

    >>> [_text(x) for x in (0.12345, 3, True, False, "she", None, "")]
    ['0.123', '3', 'yes', 'no', 'she', '—', '—']
    """
    if isinstance(x, bool):
        return say("handout-view.yes") if x else say("handout-view.no")
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        return fixed(x)
    return "—" if x in (None, "") else str(x)


def view(of: str, url: dict | None = None) -> dict:
    """Return the handout of figure ``of`` at the state its URL parameters ``url`` set.

    Schema: ``{"figure": id, "number", "title", "url": the parameters that reopen the state,
    "notices": [the parameters ignored, and why], "setting": [{"name", "text"}] (the leading
    columns that are the same in every row: the state), "state_text": the setting in one line (the answers say
    it), "columns": [name], "rows": [[text]] (at most MAX_ROWS), "more": the rows left out,
    "questions": [{"id", "prompt", "choices": [{"id", "label"}], "answer", "explanation"}]}``.
    Raises RequestError for a figure with no handout.
    """
    figure = next((f for f in figures() if isinstance(of, str) and f.id == of), None)
    if url is not None and not isinstance(url, dict):
        raise RequestError("The URL state must be an object of parameters.", "url")
    if figure is None:
        raise RequestError(f"No handout for that figure; choose one of "
                           f"{', '.join(f.id for f in figures())}.", "of")
    live = registry.STATES[figure.state]
    state, notices = registry.from_url(figure.state, url if url is not None else {})
    data = live.answer(state)  # computed once: the address and the questions read it
    table = registry.export(figure.id, state)
    columns, rows = table["columns"], [[_text(x) for x in row] for row in table["rows"]]
    # the setting: the columns a download leads with that are the same in every row (the
    # state: sentence, head, T…); a constant column after them is a number of the table (an
    # output, a step that wrote nothing), not something the state was set to
    varies = next((c for c in range(len(columns)) if len({r[c] for r in rows}) > 1), len(columns))
    same = list(range(varies)) if len(rows) > 1 else []
    kept = [c for c in range(len(columns)) if c not in same]
    return {
        "figure": figure.id, "number": figure.number, "title": figure.title,
        "url": registry.to_url(figure.state, data), "notices": notices,
        "setting": [{"name": columns[c], "text": rows[0][c]} for c in same],
        "state_text": say("handout-view.separator").join(say("handout-view.setting", name=columns[c], value=rows[0][c])
                                                          for c in same),
        "columns": [columns[c] for c in kept],
        "rows": [[r[c] for c in kept] for r in rows[:MAX_ROWS]],
        "more": max(0, len(rows) - MAX_ROWS),
        "questions": live.questions(state, data),
    }
