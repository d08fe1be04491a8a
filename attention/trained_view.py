"""The bench's comparison panel: a trained model's rows beside the hand-set heads' rows.

Everything here reads the committed data file that ``python -m attention.trained
--write`` makes (``attention/data/trained.json``); nothing here needs the model
or its libraries, so the site builds without them. Heads are named ``"L-H"``
(layer and head, both counted from 0), as in the URL parameter ``trained=4-5``.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

from . import bench, bench_view

__all__ = ["DATA", "LAYERS", "HEADS", "data", "head_name", "matched", "panel", "parse_head",
           "site_files"]

DATA = Path(__file__).parent / "data" / "trained.json"
LAYERS, HEADS = 6, 12  # all-MiniLM-L6-v2 (checked against the data file by the tests)
SITE_DIR = "data/trained/"  # where the build puts one JSON file per example sentence
STRENGTH = ((0.7, "strong"), (0.4, "moderate"), (0.0, "weak"))  # how a match score is described


@functools.lru_cache(maxsize=1)
def data() -> dict:
    """Return the committed data (see attention.trained.build_data for its schema)."""
    return json.loads(DATA.read_text(encoding="utf-8"))


def head_name(layer: int, head: int) -> str:
    """Return a head's short name, counting layers and heads from 0.

    >>> head_name(4, 5)
    '4-5'
    """
    return f"{layer}-{head}"


def parse_head(value) -> tuple[int, int]:
    """Read a head's short name "L-H", or raise ValueError saying what is allowed.

    >>> parse_head("4-5")
    (4, 5)
    >>> parse_head("6-0")
    Traceback (most recent call last):
    ValueError: expected a trained head as layer-head, like 4-5, with layer 0 to 5 and head 0 to 11
    """
    parts = value.split("-") if isinstance(value, str) else []
    if len(parts) == 2 and all(p.isdigit() and len(p) <= 2 for p in parts):
        layer, head = int(parts[0]), int(parts[1])
        if layer < LAYERS and head < HEADS:
            return layer, head
    raise ValueError(f"expected a trained head as layer-head, like 4-5, with layer 0 to "
                     f"{LAYERS - 1} and head 0 to {HEADS - 1}")


def strength(score: float) -> str:
    """Describe a match score in a word.

    >>> strength(1.0), strength(0.45), strength(0.2)
    ('strong', 'moderate', 'weak')
    """
    return next(word for floor, word in STRENGTH if score >= floor)


def matched() -> dict[str, str]:
    """Return {hand-set head: the short name of the trained head that matches it best}."""
    return {b: head_name(r["layer"], r["head"]) for b, r in data()["search"]["results"].items()}


def example_index(text: str) -> int | None:
    """Return which example sentence a bench sentence is, or None if it is not one."""
    texts = [e["text"] for e in data()["examples"]]
    return texts.index(text) if text in texts else None


def _results() -> list[dict]:
    """Return the head search's results, one entry per hand-set head, for display."""
    out = []
    for name, r in data()["search"]["results"].items():
        out.append({**r, "behaviour": name, "name": head_name(r["layer"], r["head"]),
                    "runner_up_name": head_name(r["runner_up"]["layer"], r["runner_up"]["head"]),
                    "strength": strength(float(r["score"]))})
    return out


def _matrix(example: dict, layer: int, head: int) -> list[list[str]]:
    """Return one head's whole matrix for an example as texts: rows query tokens, columns keys."""
    return [row.split(" ") for row in example["rows"][layer][head]]


def panel(sentence=None, head="coreference", query=None, trained=None, **_) -> dict:
    """Return the comparison panel's data for the bench's state.

    Schema: ``{"state", "sentence", "query": {"index", "word", "token"}, "bench_head",
    "example": index or None, "examples": [{"text", "file"}], "matched": {head: "L-H"},
    "chosen": {"name", "layer", "head", "picked"}, "tokens": [str],
    "rows": [{"token", "index", "handset": text or None, "trained": text}],
    "matrix": [[text]], "results": [...], "heads": ["L-H" x 72], "model", "sentences"}``.
    Token k + 1 is word k; ``rows`` is empty and ``example`` None for a sentence that is
    not one of the examples.

    >>> p = panel()
    >>> p["chosen"]["name"], p["query"]["token"], p["tokens"][0], len(p["heads"])
    ('3-1', 7, '[CLS]', 72)
    """
    v = bench_view.view(sentence=sentence, head=head, query=query)
    words, i = v["sentence"]["words"], v["query"]["index"]
    picked = parse_head(trained) if trained else None
    name = head_name(*picked) if picked else matched()[head]
    layer, h = parse_head(name)
    k = example_index(v["sentence"]["text"])
    d = data()
    rows, tokens, matrix = [], [], []
    if k is not None:
        example = d["examples"][k]
        tokens, matrix = example["tokens"], _matrix(example, layer, h)
        handset = {j + 1: r["weight"]["text"] for j, r in enumerate(v["rows"])}
        rows = [{"token": t, "index": c, "handset": handset.get(c), "trained": matrix[i + 1][c]}
                for c, t in enumerate(tokens)]
    return {
        "state": {**v["state"], "trained": name if picked else None},
        "sentence": v["sentence"], "query": {"index": i, "word": words[i], "token": i + 1},
        "bench_head": head, "example": k,
        "examples": [{"text": e["text"], "file": f"{SITE_DIR}{n}.json"}
                     for n, e in enumerate(d["examples"])],
        "matched": matched(), "chosen": {"name": name, "layer": layer, "head": h,
                                         "picked": bool(picked)},
        "tokens": tokens, "rows": rows, "matrix": matrix, "results": _results(),
        "heads": [head_name(a, b) for a in range(LAYERS) for b in range(HEADS)],
        "model": d["model"], "sentences": len(d["search"]["sentences"]),
        "default": " ".join(bench.DEFAULT_SENTENCE),
    }


def site_files() -> dict[str, str]:
    """Return {path below the site root: JSON text}: one file per example sentence, holding
    its tokens and every head's rows, for the panel to pick from in the browser."""
    out = {}
    for n, e in enumerate(data()["examples"]):
        out[f"{SITE_DIR}{n}.json"] = json.dumps(
            {"text": e["text"], "tokens": e["tokens"], "rows": e["rows"]},
            ensure_ascii=False, separators=(",", ":"))
    return out
