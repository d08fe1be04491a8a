"""How a request's fields become a live figure's answer: the bridge's builder of each state.

Each takes the request's fields as a dict (the figure's name removed) and returns the
figure's data, or raises ``RequestError``, ``attention.lab.LabInputError`` or
``attention.bench_input.BenchInputError`` naming the field at fault.
"""

from __future__ import annotations

from . import bench_view, delta, figures, lab, quiz, trained_view
from .bench_input import BenchInputError

__all__ = ["RequestError", "answer_bench", "answer_fig_002", "answer_lab", "answer_quiz"]


class RequestError(ValueError):
    """A request the bridge cannot serve; ``field`` names the part at fault."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


def answer_fig_002(state: dict) -> dict:
    """Answer FIG-002 for a query token."""
    query = state.get("query", "rises")
    if not isinstance(query, str):
        raise RequestError("The query must be a token name.", "query")
    return figures.fig_002(query)


def answer_lab(state: dict) -> dict:
    """Answer the lab (FIG-003)."""
    return lab.view(**state)


def answer_bench(state: dict) -> dict:
    """Answer the bench; leave out the matrix when the request's ``have`` names the one the
    page already holds (attention.delta)."""
    state = dict(state)
    try:
        have = delta.read_have(state.pop("have", None))
    except ValueError as exc:
        raise BenchInputError("have", str(exc)) from None
    return delta.trim(trained_view.with_pick(bench_view.view, state), have)


def answer_quiz(state: dict) -> dict:
    """Answer the bench's questions for a bench state."""
    return quiz.view(**state)
