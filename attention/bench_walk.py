"""The bench in words: the current head's pattern with this sentence's shares, the output
vector the tray stands for, and the six steps of the guided walk, each with its numbers.

Every number here is a text of the working table's (``bench_view._rows``) or of the trace's,
so what the walk says is what the table shows. The page only places these strings.

``walk(...)`` returns six steps ``{"n", "part", "title", "term", "numbers", "where", "said"}``:
``part`` names the station of the drawing the step lights ("carriage", "dials", "plate",
"reservoir", "valves", "tray"), ``term`` the formula's term for it, ``numbers`` the live numbers of
the reader's sentence, query, head and T, and ``said`` the sentence announced for the step
(with the head and T).
"""

from __future__ import annotations

import numpy as np

from . import bench
from .catalog import listed, say
from .numbers import fixed

__all__ = ["SHOWN", "STEPS", "head_here", "output", "walk"]

STEPS = 6
SHOWN = 3  # the walk names this many keys, heaviest first, then says how many more


def _quoted(words, j, i) -> str:
    return say("bench-walk.itself") if j == i else say("bench-walk.quoted", word=words[j])


def head_here(words, weights, i, allowed) -> str:
    """Say where the query's unit goes on the sentence on screen: its largest share, the next,
    and what the rest of the open words get.

    >>> head_here(["the", "car", "and", "it"], np.array([0.1, 0.2, 0.0, 0.7]), 3,
    ...           np.array([True, True, False, True]))
    'On this sentence the query “it” gives 0.700 to itself, 0.200 to “car” and 0.100 to the other word it can see.'
    >>> head_here(["a", "b", "c", "d"], np.array([0.1, 0.1, 0.2, 0.6]), 3, np.array([True] * 4))
    'On this sentence the query “d” gives 0.600 to itself, 0.200 to “c” and 0.200 to the other 2 words it can see.'
    """
    order = [j for j in np.argsort(-weights, kind="stable") if allowed[j]]
    top = order[0]
    parts = [say("bench-walk.share-to", share=fixed(weights[top]), whom=_quoted(words, top, i))]
    rest = order[1:]
    if rest:
        parts.append(say("bench-walk.share-to", share=fixed(weights[rest[0]]),
                         whom=_quoted(words, rest[0], i)))
    if len(rest) > 1:
        others = float(sum(weights[j] for j in rest[1:]))
        more = len(rest) - 1  # the open words not named: earlier ones, or itself (never later)
        parts.append(say("bench-walk.share-others", share=fixed(others), count=more))
    return say("bench-walk.here", word=words[i], shares=listed(parts))


def output(o) -> list[dict]:
    """Return the output vector o = Σ aⱼvⱼ as one entry per feature: every value vⱼ is word
    j's own features (W_V is the identity), so each entry is the share of the unit that came
    from words with that feature (the positional ones: their waves, weighted)."""
    return [{"feature": f, "text": fixed(x)} for f, x in zip(bench.FEATURES, o)]


def _heaviest(words, rows, key, i) -> str:
    """The SHOWN heaviest open keys with their `key` column's text, then how many more."""
    live = [r for r in rows if r["allowed"]]
    live.sort(key=lambda r: -r["weight"]["value"])
    named = say("list.separator").join(
        say("bench-walk.heavy", word=r["word"], number=r[key]["text"],
            query=say("bench-walk.the-query") if r["index"] == i else "")
        for r in live[:SHOWN])
    more = len(live) - SHOWN
    return named if more <= 0 else say("bench-walk.more", named=named, count=more)


def walk(words, head, t_text, i, rows, query_vector, o, closed) -> list[dict]:
    """Return the guided walk's six steps for query i (see the module docstring)."""
    n_open = sum(r["allowed"] for r in rows)
    future = sum(r["future"] for r in rows)
    shut = sum(bool(c) for c in closed)
    live = [r for r in rows if r["allowed"]]
    top = max(live, key=lambda r: r["tempered"]["value"])
    low, high = (f(live, key=lambda r: r["dot"]["value"]) for f in (min, max))
    t_part = "" if t_text == "1" else f" ÷ {t_text}"
    kept = say("bench-walk.later", count=future)
    if shut:
        kept = say("bench-walk.by-you", kept=kept, count=shut)
    total = fixed(sum(r["exp"]["value"] for r in rows if r["allowed"]))
    o_text = say("list.separator").join(f"{e['feature']} {e['text']}" for e in output(o))
    z_top = top["tempered"]["text"]
    steps = [
        ("carriage", say("bench-walk.title-carriage"), "q",
         say("bench-walk.numbers-carriage", word=words[i], vector=query_vector)),
        ("dials", say("bench-walk.title-dials"), "q·kⱼ",
         say("bench-walk.numbers-dials", low=low["dot"]["text"], high=high["dot"]["text"],
             count=n_open, heaviest=_heaviest(words, rows, "dot", i))),
        ("plate", say("bench-walk.title-plate"), f"zⱼ = q·kⱼ ÷ √{bench.D_K} ÷ T",
         say("bench-walk.numbers-plate", divide=f"÷ √{bench.D_K}{t_part}",
             heaviest=_heaviest(words, rows, "tempered", i), word=top["word"], z=z_top)),
        ("reservoir", say("bench-walk.title-reservoir"), "Σ aⱼ = 1",
         say("bench-walk.numbers-reservoir", count=n_open, kept=kept)),
        ("valves", say("bench-walk.title-valves"), "e^(zⱼ − max z) ÷ Σ",
         say("bench-walk.numbers-valves", top=z_top, heaviest=_heaviest(words, rows, "exp", i),
             total=total)),
        ("tray", say("bench-walk.title-tray"), say("bench-walk.term-tray"),
         say("bench-walk.numbers-tray", heaviest=_heaviest(words, rows, "weight", i))),
    ]
    return [{"n": k, "part": part, "title": title, "term": term, "numbers": numbers,
             "where": say("bench-walk.where", n=k, steps=STEPS),
             "said": say("bench-walk.said-tray", n=k, steps=STEPS, head=head, t=t_text, title=title,
                         term=term, numbers=numbers, output=o_text) if part == "tray" else
                     say("bench-walk.said", n=k, steps=STEPS, head=head, t=t_text, title=title,
                         term=term, numbers=numbers)}
            for k, (part, title, term, numbers) in enumerate(steps, start=1)]
