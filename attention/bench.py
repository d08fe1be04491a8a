"""The bench: four hand-set attention heads that read short sentences.

Every word becomes 11 numbers (``FEATURES``): a bias, its word class, whether it
names a person, and its position p as sin/cos waves at ``OMEGA1`` and ``OMEGA2``.
Each head has W_Q and W_K (11 × 8) set by hand, not learned, so that at
temperature 1 it shows one readable pattern on any sentence of up to 40 words.
Every head's W_V is the 11 × 11 identity: a value is the word's own features.

The margins are only as large as that needs, so on a short sentence the winner
takes roughly 0.7 to 0.9 and the runners-up keep a visible share. The exception
is the rows that fall back to the first word in coreference and verb-lookup,
which are almost one-hot. A pronoun (or noun) late in a sentence must still find
a noun (or verb) at its start, so the target's pull has to grow with the query's
position: the sin1 and cos1 entries of that channel. Those entries are in every
query. Coreference also has an animacy check that person and thing nouns cannot
escape: scores are linear in the features, and the rows satisfy person noun −
thing noun = she − it. The words that fall back to the first word have to
outweigh all of that, which takes a large margin.

A pronoun with no agreeing noun before it, and a noun with no verb before it,
look at *themselves*, not at the first word. No head of this kind can send them
to the first word: a key's score is (its word's part) + (its position's part),
so in "the car and the book she" and "teacher and the doctor read she" the key
at position 3 beats the key at position 0 by the same margin for ``she``, yet
the first sentence needs position 0 to win and the second needs position 3.

>>> words = tokenize("The engineer fixed the bridge before she left.")
>>> words == list(DEFAULT_SENTENCE)
True
>>> int(weights(words, "coreference")[6].argmax())  # she -> engineer
1
>>> int(weights(words, "verb-lookup")[4].argmax())  # bridge -> fixed
2
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
import numpy as np

from . import lexicon
from .catalog import say
from .lexicon import WORDS, Entry
from .ops import Trace, attend, project

__all__ = [
    "CLASSES", "DEFAULT_SENTENCE", "D_K", "FEATURES", "HEADS", "Head", "LEXICON", "MAX_WORDS",
    "OMEGA1", "OMEGA2", "Entry", "causal_mask", "encode", "lexicon_by_class", "tokenize", "trace",
    "weights",
]

FEATURES = (
    "bias", "det", "noun", "verb", "pron", "other", "person", "sin1", "cos1", "sin2", "cos2",
)
CLASSES = ("determiner", "noun", "verb", "pronoun", "other")  # one-hot at FEATURES[1:6]
OMEGA1 = 0.05  # slow wave: over 40 positions it moves less than 2 radians
OMEGA2 = 1.75  # fast wave: never lines up with the slow one again before position 40
MAX_WORDS = 40
D_K = 8


LEXICON = lexicon.LEXICONS["en"]  # the English words (each edition's: attention.lexicon)
DEFAULT_SENTENCE = lexicon.DEFAULTS["en"]


def tokenize(text: str) -> list[str]:
    """Split text into words of the lexicon of the language spoken now (attention.lexicon).

    >>> tokenize("She read it; then, the END!")
    ['she', 'read', 'it', 'then', 'the', 'end']
    """
    return lexicon.tokenize(text)


def _checked(words) -> list[str]:
    """Return the words lowercased, or raise if the sentence cannot be encoded."""
    if isinstance(words, str):
        raise ValueError("pass a list of words, not a string; tokenize(text) makes one")
    words = [w.lower() if isinstance(w, str) else w for w in words]
    if not words:
        raise ValueError("the sentence is empty: it needs at least one word")
    if len(words) > MAX_WORDS:
        raise ValueError(f"a sentence may have at most {MAX_WORDS} words, got {len(words)}")
    unknown = dict.fromkeys(repr(w) for w in words if not isinstance(w, str) or w not in WORDS)
    if unknown:
        s = "s" if len(unknown) > 1 else ""
        raise ValueError(f"unknown word{s}: {', '.join(unknown)} (not in any lexicon)")
    return words


def _positions(n: int) -> np.ndarray:
    """Return the positional features of positions 0 .. n-1."""
    p = np.arange(n, dtype=float)  # (n,)
    waves = (np.sin(OMEGA1 * p), np.cos(OMEGA1 * p), np.sin(OMEGA2 * p), np.cos(OMEGA2 * p))
    return np.stack(waves, axis=1)  # (n, 4)


def encode(words) -> np.ndarray:
    """Turn a list of lexicon words into their feature rows, one per word.

    >>> encode(["she"])[0, :7].tolist()
    [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0]
    >>> encode(["the", "car"]).shape
    (2, 11)
    """
    words = _checked(words)
    kind = [WORDS[w] for w in words]
    one_hot = np.array([[e.word_class == c for c in CLASSES] for e in kind], dtype=float)  # (n, 5)
    person = np.array([[e.person] for e in kind], dtype=float)  # (n, 1)
    bias = np.ones((len(words), 1))  # (n, 1)
    return np.hstack([bias, one_hot, person, _positions(len(words))])  # (n, 11)


def causal_mask(n: int) -> np.ndarray:
    """Return the (n, n) mask that lets each word see itself and the words before it.

    >>> causal_mask(3).astype(int).tolist()
    [[1, 0, 0], [1, 1, 0], [1, 1, 1]]
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be a whole number of words >= 1, got {n!r}")
    return np.tril(np.ones((n, n), dtype=bool))  # (n, n)


@dataclass(frozen=True, eq=False)
class Head:
    """One hand-set head: its weights and an account in words, in the language spoken now
    (attention.catalog; arrays are read-only).

    W_Q, W_K: (11, d_k)    W_V: (11, d_v)
    """

    name: str
    W_Q: np.ndarray
    W_K: np.ndarray
    W_V: np.ndarray

    def __post_init__(self):
        for value in (self.W_Q, self.W_K, self.W_V):
            value.flags.writeable = False

    @property
    def behaviour(self) -> str:
        """What it does, in a sentence."""
        return _SAID[self.name]["behaviour"]()

    @property
    def why(self) -> str:
        """How its weights do it: short paragraphs separated by a blank line."""
        return _SAID[self.name]["why"]()

    @property
    def gloss(self) -> str:
        """A few words beside its name where a reader picks a head."""
        return _SAID[self.name]["gloss"]()


def _table(columns: dict[int, dict[str, float]], width: int = D_K) -> np.ndarray:
    """Build an (11, width) matrix from {channel: {feature: value}}; the rest are 0."""
    W = np.zeros((len(FEATURES), width))  # (11, width)
    for channel, entries in columns.items():
        for feature, value in entries.items():
            W[FEATURES.index(feature), channel] = value
    return W


def _values() -> np.ndarray:
    """Return W_V: the identity, so a value is the word's own 11 features (d_v = 11)."""
    return np.eye(len(FEATURES))  # (11, 11)


# Every head's scores are divided by sqrt(8) before the softmax; the margins below are
# set so that each head's target keeps most of the weight on every sentence of up to
# 40 words, yet on short sentences the runners-up keep a visible share.
#
# Recency key, shared by all four heads: 20 sin1 - 30 cos1 is -30 at the first word and
# rises at every step up to position 39 (by 1.04 at the first step, 1.8 mid-sentence).
_RECENT = {"sin1": 20, "cos1": -30}

# previous-token: keys hold 10 x their fast waves; queries hold 0.7 x the same waves turned
# back one step, rounded: -0.12 = 0.7 cos w2 and 0.69 = 0.7 sin w2. Channels 0-1 give
# 7 cos(w2 (i - 1 - j)). Channels 2-3 give 30 sin(w1 (j - i)): the slow waves' angle between
# key and query, 0 at the query and lower the further back the key is, which tells apart the
# words about 8 and 19 back, where the fast wave nearly lines up again.
_PREV = (
    {0: {"sin2": -0.12, "cos2": -0.69}, 1: {"sin2": 0.69, "cos2": -0.12},
     2: {"cos1": 3}, 3: {"sin1": -3}},
    {0: {"sin2": 10}, 1: {"cos2": 10}, 2: {"sin1": 10}, 3: {"cos1": 10}},
)
# sink: one channel, 4 cos2 - 30 sin1 of the key, asked for by every query's bias: 4 at the
# first word, at most -2.2 at any later one (the fast cosine never climbs back to 1 there
# before the slow sine has grown).
_SINK = ({0: {"bias": 1}}, {0: {"sin1": -30, "cos2": 4}})
# A searching query (a pronoun here, a noun in verb-lookup) asks its target's channel with
# 7.7 + 5 sin1 - 7.5 cos1; times the key's 10 that is 2.5 (recency(i) - recency(0)) + 2, the
# most recency the words between target and query can gain, plus a margin of 2.
_COREF = (
    {0: {"person": 32, "pron": -16, "noun": -16},
     1: {"sin1": 5, "cos1": -7.5, "pron": 7.7},
     2: {"det": -250, "noun": -250, "verb": -250, "other": -250, "pron": 2.5}},
    {0: {"person": 10}, 1: {"noun": 10}, 2: _RECENT},
)
_VERB = (
    {0: {"sin1": 5, "cos1": -7.5, "noun": 7.7},
     1: {"det": -80, "verb": -80, "pron": -80, "other": -80, "noun": 2.5}},
    {0: {"verb": 10}, 1: _RECENT},
)

_SPECS = (("previous-token", _PREV), ("sink", _SINK), ("coreference", _COREF), ("verb-lookup", _VERB))

# Each head's words (attention/strings/<lang>.toml): its behaviour in a sentence; its "why",
# short paragraphs separated by a blank line, whose feature names (bias, det, noun, verb,
# pron, person, sin1, cos1, sin2, cos2) are the rows of W_Q and W_K, as in FEATURES (the page
# renders W_Q and W_K with subscripts); and its gloss, what its name means in a few words,
# where a reader picks one.
_SAID = {
    "previous-token": {"behaviour": lambda: say("bench-heads.previous-token-behaviour"),
                       "why": lambda: say("bench-heads.previous-token-why"),
                       "gloss": lambda: say("bench-heads.previous-token-gloss")},
    "sink": {"behaviour": lambda: say("bench-heads.sink-behaviour"),
             "why": lambda: say("bench-heads.sink-why"),
             "gloss": lambda: say("bench-heads.sink-gloss")},
    "coreference": {"behaviour": lambda: say("bench-heads.coreference-behaviour"),
                    "why": lambda: say("bench-heads.coreference-why"),
                    "gloss": lambda: say("bench-heads.coreference-gloss")},
    "verb-lookup": {"behaviour": lambda: say("bench-heads.verb-lookup-behaviour"),
                    "why": lambda: say("bench-heads.verb-lookup-why"),
                    "gloss": lambda: say("bench-heads.verb-lookup-gloss")},
}

HEADS = MappingProxyType({
    name: Head(name, _table(q), _table(k), _values()) for name, (q, k) in _SPECS
})


def lexicon_by_class() -> dict[str, list[str]]:
    """Return the words of the language spoken now grouped by class, in CLASSES order, each
    group sorted.

    Display only: the page lists the words a reader may type.

    >>> groups = lexicon_by_class()
    >>> list(groups) == list(CLASSES), groups["pronoun"]
    (True, ['he', 'it', 'she', 'they'])
    >>> sum(len(ws) for ws in groups.values()) == len(LEXICON)
    True
    """
    words = lexicon.lexicon()
    return {c: sorted(w for w, e in words.items() if e.word_class == c) for c in CLASSES}


def _head(head) -> Head:
    """Return the Head for a name (or a Head itself), or raise naming the valid ones."""
    if isinstance(head, Head):
        return head
    if isinstance(head, str) and head in HEADS:
        return HEADS[head]
    raise ValueError(f"unknown head {head!r}; choose one of {', '.join(HEADS)}")


def _allowed(n: int, mask) -> np.ndarray:
    """Return the causal mask, AND-ed with the reader's extra (n, n) boolean mask."""
    causal = causal_mask(n)  # (n, n)
    if mask is None:
        return causal
    extra = np.asarray(mask)  # (n, n)
    if extra.shape != (n, n) or extra.dtype != bool:
        raise ValueError(
            f"mask must be a boolean (n, n) = ({n}, {n}) array (True = allowed), "
            f"got shape {extra.shape} and dtype {extra.dtype}"
        )
    return causal & extra  # (n, n)


def trace(words, head, temperature: float = 1.0, mask=None) -> Trace:
    """Run one head over a sentence and keep every stage (see attention.ops.attend).

    >>> trace(["the", "car", "and", "she"], "previous-token").weights.argmax(axis=1).tolist()
    [0, 0, 1, 2]
    """
    h = _head(head)
    X = encode(words)  # (n, 11)
    Q, K, V = project(X, h.W_Q), project(X, h.W_K), project(X, h.W_V)  # (n, d_k) x2, (n, d_v)
    return attend(Q, K, V, mask=_allowed(len(X), mask), temperature=temperature)


def weights(words, head, temperature: float = 1.0) -> np.ndarray:
    """Return a head's (n, n) attention weights over a sentence.

    >>> weights(["it", "read"], "sink").round(2).tolist()
    [[1.0, 0.0], [0.9, 0.1]]
    """
    return trace(words, head, temperature).weights  # (n, n)
