"""Which trained heads do what the bench's hand-set heads do: each head of the trained model
scored on sentences from the bench's lexicon against each behaviour's target keys
(``search``), with a baseline that looks at no word in particular."""

from __future__ import annotations

import math

import numpy as np

from . import bench

__all__ = ["BEHAVIOURS", "baseline", "pairs", "scores", "search", "targets", "word_tokens"]

BEHAVIOURS = ("previous-token", "sink", "coreference", "verb-lookup")  # the bench's heads


def word_tokens(words, tokens: list[str], word_ids: list[int | None]) -> list[int]:
    """Return the token position of each word, requiring one WordPiece token per word.

    Every word of the bench's lexicon is a single token of this vocabulary, so word k
    is token k + 1 ([CLS] is token 0). A word split into pieces is refused rather than
    given a rule the search would then have to justify.

    >>> word_tokens(["she", "left"], ["[CLS]", "she", "left", "[SEP]"], [None, 0, 1, None])
    [1, 2]
    """
    where = [None] * len(words)
    for t, k in enumerate(word_ids):
        if k is not None:
            if where[k] is not None:
                raise ValueError(f"“{words[k]}” is split into several WordPiece tokens")
            where[k] = t
    return where


def _nearest_before(words, i: int, fits) -> int | None:
    """Return the position of the nearest word before i that fits, or None."""
    return next((j for j in range(i - 1, -1, -1) if fits(bench.LEXICON[words[j]])), None)


def targets(words, behaviour: str) -> dict[int, int]:
    """Return {query word position: the position it should look at} for a hand-set behaviour.

    Positions count words from 0; the sink's target is -1, meaning [CLS] (the trained
    model's first token; the bench's sink looks at the first word instead). Words the
    behaviour has no target for are left out, so they do not enter the score.

    * previous-token: every word but the first -> the word just before it;
    * sink: every word -> [CLS];
    * coreference: a pronoun -> the nearest earlier noun that agrees with it (a person
      for she, he, they; a thing for it), when there is one;
    * verb-lookup: a noun -> the nearest earlier verb, when there is one.

    >>> words = "the pilot saw the car before he left".split()
    >>> targets(words, "coreference"), targets(words, "verb-lookup")
    ({6: 1}, {4: 2})
    >>> targets(["she", "left"], "previous-token"), targets(["she", "left"], "sink")
    ({1: 0}, {0: -1, 1: -1})
    """
    if behaviour not in BEHAVIOURS:
        raise ValueError(f"unknown behaviour {behaviour!r}; choose one of {', '.join(BEHAVIOURS)}")
    lex = [bench.LEXICON[w] for w in words]
    if behaviour == "previous-token":
        return {i: i - 1 for i in range(1, len(words))}
    if behaviour == "sink":
        return {i: -1 for i in range(len(words))}
    out = {}
    for i, e in enumerate(lex):
        if behaviour == "coreference" and e.word_class == "pronoun":
            j = _nearest_before(words, i, lambda f, p=e.person: f.word_class == "noun"
                                and f.person == p)
        elif behaviour == "verb-lookup" and e.word_class == "noun":
            j = _nearest_before(words, i, lambda f: f.word_class == "verb")
        else:
            continue
        if j is not None:
            out[i] = j
    return out


def pairs(words, behaviour: str) -> list[tuple[int, int]]:
    """Return the (query token, target token) pairs a behaviour is scored on.

    Word k is token k + 1; the sink's target -1 becomes token 0, [CLS].

    >>> pairs(["she", "left"], "sink")
    [(1, 0), (2, 0)]
    """
    return [(i + 1, j + 1) for i, j in targets(words, behaviour).items()]


def scores(weights: np.ndarray, sentences) -> dict[str, np.ndarray]:
    """Score every head for every behaviour: the mean weight from a query to its target,
    over all (query, target) pairs of all the sentences pooled together.

    weights: one (layers, heads, n_tokens, n_tokens) array per sentence, in order.
    Returns {behaviour: (layers, heads) array of mean weights}.

    >>> w = np.zeros((1, 1, 4, 4)); w[0, 0, 2, 1] = 1.0     # "left" looks at "she" only
    >>> {b: s.tolist() for b, s in scores([w], [["she", "left"]]).items()}["previous-token"]
    [[1.0]]
    """
    out = {}
    for behaviour in BEHAVIOURS:
        picked = [W[:, :, q, t] for W, words in zip(weights, sentences)
                  for q, t in pairs(words, behaviour)]  # each (layers, heads)
        out[behaviour] = np.mean(picked, axis=0) if picked else np.full(weights[0].shape[:2],
                                                                        np.nan)
    return out


def baseline(sentences, behaviour: str) -> float:
    """Return the score a head that spreads its weight evenly over every token would get.

    >>> baseline([["she", "left"]], "sink")   # 1/4 for each of the two words
    0.25
    """
    shares = [1.0 / (len(words) + 2) for words in sentences for _ in pairs(words, behaviour)]
    return float(np.mean(shares)) if shares else math.nan


def _runner_up(s: np.ndarray, order: np.ndarray) -> dict | None:
    """Return the second-best head of a (layers, heads) score table, or None if it has one."""
    if order.size < 2:
        return None
    layer, head = np.unravel_index(order[1], s.shape)
    return {"layer": int(layer), "head": int(head), "score": float(s[layer, head])}


def search(weights, sentences) -> dict[str, dict]:
    """Return, for each behaviour, the best-scoring head with its score, how often its
    target is that head's largest weight ("top"), the runner-up, the even-spread
    baseline and how many (query, target) pairs were scored. A behaviour
    the sentences give no pair for is left out.

    >>> w = np.zeros((1, 2, 4, 4)); w[0, 1, 2, 1] = 1.0; w[0, 0, 2, 1] = 0.5
    >>> found = search([w], [["she", "left"]])
    >>> sorted(found)   # "she left" has no noun, so no coreference or verb-lookup pair
    ['previous-token', 'sink']
    >>> s = found["previous-token"]
    >>> s["layer"], s["head"], s["score"], s["top"], s["runner_up"]
    (0, 1, 1.0, 1.0, {'layer': 0, 'head': 0, 'score': 0.5})
    """
    table = scores(weights, sentences)
    out = {}
    for behaviour, s in table.items():
        if np.isnan(s).all():
            continue
        order = np.argsort(-s, axis=None, kind="stable")
        l1, h1 = np.unravel_index(order[0], s.shape)
        top = [W[l1, h1, q].argmax() == t for W, words in zip(weights, sentences)
               for q, t in pairs(words, behaviour)]
        out[behaviour] = {
            "layer": int(l1), "head": int(h1), "score": float(s[l1, h1]),
            "top": float(np.mean(top)),
            "runner_up": _runner_up(s, order),
            "baseline": baseline(sentences, behaviour),
            "pairs": sum(len(pairs(w, behaviour)) for w in sentences),
        }
    return out
