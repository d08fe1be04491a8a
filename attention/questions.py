"""Questions about one query of the toy (its mixture, as chapter 2 and the lab show it), for a
class handout: each asks the reader to predict from the numbers the figure shows, and its
answer and explanation are computed from the same state, never typed. The bench's come from
``attention.quiz``.

Each question is ``{"id", "prompt", "choices": [{"id", "label"}], "answer": a choice's id,
"explanation"}``, the quiz's own shape.

>>> from attention import lab
>>> rows = lab.view(query=["1", "1"])["rows"]  # the query of "rises"
>>> [q["id"] for q in mixture(rows)]
['top-weight', 'top-contribution', 'sharper']
>>> q = mixture(rows)[0]
>>> q["answer"], q["explanation"][:67]
('rises', '“rises”, with 0.576 of the unit: the largest score after ÷ T, 2.121')
>>> [q["answer"] for q in mixture(lab.view(query=["1", "0"])["rows"])]  # "grid": grid and rises tie
['tie', 'rises', 'grow']
"""

from __future__ import annotations

import numpy as np

from . import ops
from .catalog import say
from .numbers import fixed

__all__ = ["change", "changes", "mixture", "said"]

GROW, SHRINK, SAME = "grow", "shrink", "same"
TIE = "tie"


def changes() -> list[dict]:
    """A "does it grow, shrink or stay?" question's choices, as said now."""
    return [{"id": GROW, "label": say("core-questions.it-grows")},
            {"id": SHRINK, "label": say("core-questions.it-shrinks")},
            {"id": SAME, "label": say("core-questions.it-stays")}]


def said(changed: str) -> str:
    """A change as its explanation says it after "It", as said now.

    >>> said("grow")
    'grows'
    """
    if changed == GROW:
        return say("core-questions.grows")
    if changed == SHRINK:
        return say("core-questions.shrinks")
    return say("core-questions.stays")


def change(before: str, after: str) -> str:
    """How a number changed as shown (its text), as a choice's id.

    >>> change("0.576", "0.768"), change("4.243", "4.243"), change("1.0", "0.5")
    ('grow', 'same', 'shrink')
    """
    a, b = float(before), float(after)
    return GROW if b > a else SHRINK if b < a else SAME


def _tokens(rows: list[dict]) -> list[dict]:
    """The keys as choices, and a tie (two keys may share the largest number, as shown)."""
    return [*({"id": r["token"], "label": r["token"]} for r in rows), {"id": TIE, "label": say("core-questions.tie")}]


def _largest(shown: list[str], rows: list[dict]) -> tuple[str, str]:
    """(the answer's choice id, who has the largest of the shown numbers, in words)."""
    tops = [r["token"] for r, text in zip(rows, shown) if float(text) == max(map(float, shown))]
    named = say("core-questions.and").join(say("core-questions.quoted", word=t) for t in tops)
    return (tops[0] if len(tops) == 1 else TIE), named


def mixture(rows: list[dict]) -> list[dict]:
    """Three questions on one query's rows (chapter 2's or the lab's, allowed keys only). Half
    the temperature is the softmax of the scores as tempered (the lab's; chapter 2's scaled
    scores, at T = 1) counted twice."""
    open_rows = [r for r in rows if r.get("allowed", True)]
    weights = np.array([r["weight"]["value"] for r in open_rows])  # (m,)
    top = int(weights.argmax())
    heaviest, heaviest_said = _largest([r["weight"]["text"] for r in open_rows], open_rows)
    has_t = "tempered" in open_rows[top]  # the lab's rows (chapter 2 has no temperature)
    scaled = open_rows[top]["tempered" if has_t else "scaled"]
    score = say("core-questions.score-tempered") if has_t else say("core-questions.score-scaled")
    parts = np.array([(r.get("contribution") or r["product"])["value"] for r in open_rows])  # (m, d_v)
    # the coordinate whose largest part is not the heaviest key's, where there is one
    c = next((c for c in range(parts.shape[1]) if int(parts[:, c].argmax()) != top), parts.shape[1] - 1)
    first = parts[:, c]  # (m,)
    most, most_said = _largest([fixed(x) for x in first], open_rows)
    nth = ([say("core-questions.first"), say("core-questions.second"), say("core-questions.third"),
            say("core-questions.fourth")][c] if c < 4 else say("core-questions.number", number=c + 1))
    tempered = np.array([[r.get("tempered", r["scaled"])["value"] for r in open_rows]])  # (1, m)
    doubled = ops.softmax(tempered, temperature=0.5)[0]  # (m,)
    before, after = float(weights[top]), float(np.max(doubled))
    changed = change(fixed(before), fixed(after))
    even = "" if changed != SAME else say("core-questions.even")
    by = int(first.argmax())
    weight = open_rows[top]["weight"]["text"]
    return [
        {"id": "top-weight", "prompt": say("core-questions.top-weight"),
         "choices": _tokens(open_rows), "answer": heaviest,
         "explanation": (say("core-questions.top-weight-tie", keys=heaviest_said, weight=weight, score=score,
                             scaled=scaled["text"]) if heaviest == TIE else
                         say("core-questions.top-weight-why", word=heaviest_said, weight=weight, score=score,
                             scaled=scaled["text"]))},
        {"id": "top-contribution", "prompt": say("core-questions.top-contribution", nth=nth),
         "choices": _tokens(open_rows), "answer": most,
         "explanation": say("core-questions.top-contribution-why", word=most_said,
                            weight=open_rows[by]["weight"]["text"], nth=nth, part=fixed(first[by]))},
        {"id": "sharper", "prompt": say("core-questions.sharper-t") if has_t else say("core-questions.sharper-double"),
         "choices": changes(), "answer": changed,
         "explanation": (say("core-questions.sharper-t-why", change=said(changed), before=fixed(before),
                             after=fixed(after), even=even) if has_t else
                         say("core-questions.sharper-double-why", change=said(changed), before=fixed(before),
                             after=fixed(after), even=even))},
    ]
