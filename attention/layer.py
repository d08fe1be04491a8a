"""A whole layer around the bench's heads: the four heads side by side, their outputs joined and
projected back into the residual stream, added to it, normalised, passed through a small MLP,
added and normalised again (post-LN, "Add & Norm", as in the original Transformer).

Every weight is set by hand, as the bench's heads are, so that every number the layer writes
has a name. The residual stream has ``D_MODEL`` = 18 numbers per word (``STREAM``): the
bench's 11 features, then 5 slots the heads write and 2 the MLP writes, all 0 going in.

- The heads are the bench's: its W_Q and W_K (zero rows for the slots, so the same scores),
  its scaling, causal mask and temperature, and its W_V (a value is the word's own 11
  features). Each head's output is the bench's output: the mixture of the features of the
  words it looks at.
- W_O (44 x 18) has five 1s: each says which head's which feature lands in which slot.
  Coreference copies the noun-ness and person-ness of what a pronoun looks at
  (``ref_noun``, ``ref_person``); previous-token copies whether the word before is a
  determiner or a verb (``prev_det``, ``prev_verb``); verb-lookup copies the verb-ness of what
  a noun looks at (``has_verb``). The sink head writes nothing: its block of W_O is 0, the
  resting place it is.
- LayerNorm's gain and shift are left at 1 and 0: by hand there is nothing for them to do.
  LayerNorm itself recentres and rescales each word's 18 numbers, so after it a feature a word
  has reads about 1 to 1.7 and one it lacks a little below 0.
- The MLP has 2 hidden units, each a rule on those normalised numbers that writes one slot:
  ``agrees`` (a pronoun whose coreference found a noun) and ``object`` (a noun with a verb
  before it). Each unit adds the two features it checks and subtracts ``THRESHOLD``: only a
  word high on both passes the ReLU.

>>> r = forward("the engineer fixed the bridge before she left".split())
>>> r.x.shape, r.concat.shape, r.W_O.shape, r.W_1.shape, r.output.shape
((8, 18), (8, 44), (44, 18), (18, 2), (8, 18))
>>> [h.name for h in r.heads], r.heads[0].weights.shape, r.heads[0].output.shape
(['previous-token', 'sink', 'coreference', 'verb-lookup'], (8, 8), (8, 11))
>>> [w for w, u in zip(r.words, r.hidden[:, UNITS.index("agrees")]) if u > 0]
['she']
>>> [w for w, u in zip(r.words, r.hidden[:, UNITS.index("object")]) if u > 0]
['bridge']
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import bench
from .ops import attend, project, read_only

__all__ = ["D_MODEL", "EPS", "SLOTS", "STREAM", "SWITCHES", "THRESHOLD", "UNITS", "Head", "Layer",
           "forward", "layer_norm"]

# What each head writes, and where: (head, the feature of its output, the slot it lands in).
WRITES = (
    ("coreference", "noun", "ref_noun"),
    ("coreference", "person", "ref_person"),
    ("previous-token", "det", "prev_det"),
    ("previous-token", "verb", "prev_verb"),
    ("verb-lookup", "verb", "has_verb"),
)
# What each MLP unit checks (two numbers of the normalised stream) and the slot it writes.
UNITS = ("agrees", "object")
RULES = {"agrees": ("pron", "ref_noun"), "object": ("noun", "has_verb")}
SLOTS = tuple(slot for _, _, slot in WRITES) + UNITS
STREAM = bench.FEATURES + SLOTS  # the residual stream's numbers, by name
D_MODEL = len(STREAM)  # 18
EPS = 1e-5  # LayerNorm's epsilon, as PyTorch's default
# After LayerNorm a feature a word has reads about 1 to 1.7 and one it lacks about -0.2 to
# -0.9: two of them add to more than 2 when a word has both, and to at most about 1.2 when it
# has one, so a unit subtracting 1.5 passes the ReLU only when both are there.
THRESHOLD = 1.5
# The parts a reader can switch off (besides one head): each removes its step and changes only
# the steps after it. Without the residual, neither sum adds back what came in; without layer
# norm, both normalisations pass their input through; without the MLP, it adds nothing.
SWITCHES = ("residual", "layer_norm", "mlp")


@dataclass(frozen=True)
class Head:
    """One head inside the layer: the bench's head, its weights padded to the stream.

    W_Q, W_K: (D_MODEL, d_k)    W_V: (D_MODEL, d_v)    weights: (n, n)    output: (n, d_v)
    """

    name: str
    W_Q: np.ndarray
    W_K: np.ndarray
    W_V: np.ndarray
    weights: np.ndarray
    output: np.ndarray

    def __post_init__(self):
        read_only(self)


@dataclass(frozen=True, kw_only=True)
class Layer:
    """Every step of one layer's forward pass over a sentence (shapes with n words)."""

    words: tuple[str, ...]
    temperature: float
    x: np.ndarray  # (n, D_MODEL): the residual stream going in
    heads: tuple[Head, ...]
    concat: np.ndarray  # (n, heads x d_v)
    W_O: np.ndarray  # (heads x d_v, D_MODEL)
    projected: np.ndarray  # (n, D_MODEL) = concat @ W_O
    after_attention: np.ndarray  # (n, D_MODEL) = x + projected
    gamma1: np.ndarray  # (D_MODEL,)
    beta1: np.ndarray  # (D_MODEL,)
    norm1: np.ndarray  # (n, D_MODEL)
    W_1: np.ndarray  # (D_MODEL, d_ff)
    b_1: np.ndarray  # (d_ff,)
    hidden: np.ndarray  # (n, d_ff) = ReLU(norm1 @ W_1 + b_1)
    W_2: np.ndarray  # (d_ff, D_MODEL)
    b_2: np.ndarray  # (D_MODEL,)
    mlp: np.ndarray  # (n, D_MODEL) = hidden @ W_2 + b_2
    after_mlp: np.ndarray  # (n, D_MODEL) = norm1 + mlp (mlp alone without the residual)
    gamma2: np.ndarray  # (D_MODEL,)
    beta2: np.ndarray  # (D_MODEL,)
    output: np.ndarray  # (n, D_MODEL) = LayerNorm(norm1 + mlp)
    eps: float
    without: tuple[str, ...] = ()  # the parts switched off (SWITCHES)
    silent: str | None = None  # the head switched off: its output is 0 in the concatenation

    def __post_init__(self):
        read_only(self)


def _padded(W: np.ndarray) -> np.ndarray:
    """A bench weight (11 rows, one per feature) with zero rows for the slots."""
    return np.vstack([W, np.zeros((len(SLOTS), W.shape[1]))])  # (D_MODEL, width)


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float = EPS) -> np.ndarray:
    """Normalise each row to mean 0 and variance 1 (the biased variance), then scale and shift.

    >>> layer_norm(np.array([[1.0, 3.0]]), np.ones(2), np.zeros(2)).round(3).tolist()
    [[-1.0, 1.0]]
    """
    mean = x.mean(axis=-1, keepdims=True)  # (n, 1)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)  # (n, 1)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta  # (n, d)


def _w_o(names: list[str], d_v: int) -> np.ndarray:
    """W_O: a 1 for each write, from its head's block of the concatenation to its slot."""
    W = np.zeros((len(names) * d_v, D_MODEL))  # (heads x d_v, D_MODEL)
    for head, feature, slot in WRITES:
        W[names.index(head) * d_v + bench.FEATURES.index(feature), STREAM.index(slot)] = 1.0
    return W


def _mlp_weights() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """W_1, b_1, W_2, b_2: each unit adds its two numbers and subtracts THRESHOLD, and writes
    what passes the ReLU into its slot."""
    W_1 = np.zeros((D_MODEL, len(UNITS)))  # (D_MODEL, d_ff)
    for k, unit in enumerate(UNITS):
        for name in RULES[unit]:
            W_1[STREAM.index(name), k] = 1.0
    b_1 = np.full(len(UNITS), -THRESHOLD)  # (d_ff,)
    W_2 = np.zeros((len(UNITS), D_MODEL))  # (d_ff, D_MODEL)
    for k, unit in enumerate(UNITS):
        W_2[k, STREAM.index(unit)] = 1.0
    b_2 = np.zeros(D_MODEL)  # (D_MODEL,)
    return W_1, b_1, W_2, b_2


def forward(words, temperature: float = 1.0, without=(), silent: str | None = None) -> Layer:
    """Run the layer over a sentence (lexicon words) at a temperature; keep every step.

    ``without`` names parts switched off (``SWITCHES``) and ``silent`` one head whose output
    is set to 0; each changes only the steps after it:

    >>> full = forward(bench.DEFAULT_SENTENCE)
    >>> cut = forward(bench.DEFAULT_SENTENCE, without=["layer_norm"])
    >>> bool((cut.after_attention == full.after_attention).all()), bool((cut.norm1 == full.norm1).all())
    (True, False)
    """
    unknown = set(without) - set(SWITCHES)
    if unknown:
        raise ValueError(f"cannot switch off {', '.join(sorted(unknown))}; "
                         f"choose from {', '.join(SWITCHES)}")
    if silent is not None and silent not in bench.HEADS:
        raise ValueError(f"no head {silent!r}; choose one of {', '.join(bench.HEADS)}")
    features = bench.encode(words)  # (n, 11)
    n = len(features)
    x = np.hstack([features, np.zeros((n, len(SLOTS)))])  # (n, D_MODEL)
    allowed = bench.causal_mask(n)  # (n, n)
    heads = []
    for name, h in bench.HEADS.items():
        W_Q, W_K, W_V = _padded(h.W_Q), _padded(h.W_K), _padded(h.W_V)  # (D_MODEL, d_k) x2, (D_MODEL, d_v)
        tr = attend(project(x, W_Q), project(x, W_K), project(x, W_V), mask=allowed,
                    temperature=temperature)
        heads.append(Head(name, W_Q, W_K, W_V, tr.weights, tr.output))  # (n, n), (n, d_v)
    concat = np.hstack([0 * h.output if h.name == silent else h.output
                        for h in heads])  # (n, heads x d_v)
    W_O = _w_o([h.name for h in heads], heads[0].output.shape[1])  # (heads x d_v, D_MODEL)
    projected = concat @ W_O  # (n, D_MODEL)
    keep = 0.0 if "residual" in without else 1.0  # what each sum adds back of its input
    after_attention = keep * x + projected  # (n, D_MODEL)
    gamma1, beta1 = np.ones(D_MODEL), np.zeros(D_MODEL)  # (D_MODEL,) each
    norm = (lambda a, g, b: a) if "layer_norm" in without else layer_norm
    norm1 = norm(after_attention, gamma1, beta1)  # (n, D_MODEL)
    W_1, b_1, W_2, b_2 = _mlp_weights()
    hidden = np.maximum(norm1 @ W_1 + b_1, 0.0)  # (n, d_ff)
    mlp = hidden @ W_2 + b_2  # (n, D_MODEL)
    if "mlp" in without:
        hidden, mlp = np.zeros_like(hidden), np.zeros_like(mlp)  # (n, d_ff), (n, D_MODEL)
    gamma2, beta2 = np.ones(D_MODEL), np.zeros(D_MODEL)  # (D_MODEL,) each
    after_mlp = keep * norm1 + mlp  # (n, D_MODEL)
    output = norm(after_mlp, gamma2, beta2)  # (n, D_MODEL)
    return Layer(words=tuple(w.lower() for w in words), temperature=float(temperature), x=x,
                 heads=tuple(heads), concat=concat, W_O=W_O, projected=projected,
                 after_attention=after_attention, gamma1=gamma1, beta1=beta1, norm1=norm1,
                 W_1=W_1, b_1=b_1, hidden=hidden, W_2=W_2, b_2=b_2, mlp=mlp, after_mlp=after_mlp,
                 gamma2=gamma2,
                 beta2=beta2, output=output, eps=EPS,
                 without=tuple(s for s in SWITCHES if s in without), silent=silent)
