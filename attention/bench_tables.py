"""The bench's reference tables, which never change: its heads (with their W_Q and W_K) and
its lexicon, grouped by word class, for the page's lists."""

from __future__ import annotations

import numpy as np

from . import bench
from .catalog import say

__all__ = ["heads", "lexicon"]


def _table(W: np.ndarray, channels: list[int]) -> list[dict]:
    """Return the given channels of a weight matrix as rows labelled by feature, in full."""
    return [{"feature": f, "cells": [f"{x:g}".replace("-", "−") for x in row[channels]]}
            for f, row in zip(bench.FEATURES, W)]


def heads() -> list[dict]:
    """Return every head's gloss, behaviour, explanation and W_Q, W_K tables (they never change).

    Channels that are zero in both matrices are left out of the tables.

    >>> [(h["name"], h["channels"]) for h in heads()][1]
    ('sink', [0])
    """
    out = []
    for name, h in bench.HEADS.items():
        used = [c for c in range(h.W_Q.shape[1]) if h.W_Q[:, c].any() or h.W_K[:, c].any()]
        out.append({"name": name, "gloss": h.gloss, "behaviour": h.behaviour, "why": h.why, "channels": used,
                    "features": list(bench.FEATURES), "d_k": h.W_Q.shape[1],
                    "unused": h.W_Q.shape[1] - len(used),
                    "W_Q": _table(h.W_Q, used), "W_K": _table(h.W_K, used)})
    return out


def lexicon() -> list[dict]:
    """Return the bench's lexicon grouped by class, for the page's word list.

    >>> [(g["class"], len(g["words"])) for g in lexicon()][3]
    ('pronoun', 4)
    """
    names = {"determiner": say("bench-tables.determiners"), "noun": say("bench-tables.nouns"),
             "verb": say("bench-tables.verbs"), "pronoun": say("bench-tables.pronouns"),
             "other": say("bench-tables.other-words")}
    return [{"class": c, "label": names[c], "words": ws}
            for c, ws in bench.lexicon_by_class().items()]
