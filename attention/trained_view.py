"""The bench's comparison panel: a trained model's rows beside the hand-set heads' rows.

Everything here reads the committed data file that ``python -m attention.trained
--write`` makes (``attention/data/trained.json``); nothing here needs the model
or its libraries, so the site builds without them. Heads are named ``"L-H"``
(layer and head, both counted from 0), as in the URL parameter ``trained=4-5``.
"""

from __future__ import annotations

import functools
import json

from . import bench, bench_view
from .catalog import say
from .trained_model import DATA, HEADS, LAYERS

__all__ = ["DATA", "LAYERS", "HEADS", "data", "head_name", "matched", "panel", "parse_head",
           "site_files"]

SITE_DIR = "data/trained/"  # where the build puts one JSON file per example sentence
STRENGTH = ((0.7, "strong"), (0.5, "moderate"), (0.0, "weak"))  # how a match score is described


def _word(strength_id: str) -> str:
    """A strength's word as a reader reads it (STRENGTH names it in English, as an id)."""
    return {"strong": say("trained-view.strong"), "moderate": say("trained-view.moderate"),
            "weak": say("trained-view.weak")}[strength_id]


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
    if len(parts) == 2 and all(p.isascii() and p.isdigit() and len(p) <= 2 for p in parts):
        layer, head = int(parts[0]), int(parts[1])
        if layer < LAYERS and head < HEADS:
            return layer, head
    raise ValueError(say("trained-view.bad-head", example="4-5", first=0, last_layer=LAYERS - 1, last_head=HEADS - 1))


def strength(score: float) -> str:
    """Describe a match score in a word.

    >>> strength(1.0), strength(0.55), strength(0.45)
    ('strong', 'moderate', 'weak')
    """
    return _word(next(word for floor, word in STRENGTH if score >= floor))


def matched() -> dict[str, str]:
    """Return {hand-set head: the short name of the trained head that matches it best}."""
    return {b: head_name(r["layer"], r["head"]) for b, r in data()["search"]["results"].items()}


def example_index(text: str) -> int | None:
    """Return which example sentence a bench sentence is, or None if it is not one."""
    texts = [e["text"] for e in data()["examples"]]
    return texts.index(text) if text in texts else None


def _results() -> list[dict]:
    """Return the head search's results, one entry per hand-set head, for display."""
    out, found = [], data()["search"]["results"]
    for name, r in ((b, found[b]) for b in bench.HEADS if b in found):
        out.append({**r, "behaviour": name, "name": head_name(r["layer"], r["head"]),
                    "runner_up_name": head_name(r["runner_up"]["layer"], r["runner_up"]["head"]),
                    "strength": strength(float(r["score"])),
                    "sentences": len(data()["search"]["sentences"])})
    return out


def levels(row: str) -> str:
    """Return a row's shade levels 0..10 (its weights times ten, rounded), as the row is written.

    >>> levels("0.000 0.835 0.165")
    '0 8 2'
    """
    return " ".join(str(round(float(x) * 10)) for x in row.split(" "))


def label(name: str) -> str:
    """Return a head's name as a reader sees it.

    >>> label("4-5")
    'layer 4, head 5'
    """
    layer, head = parse_head(name)
    return say("trained-view.head", layer=layer, head=head)


def counted_from_one(name: str) -> dict[str, str]:
    """Return a head of this model named both ways: as here (from 0) and as Clark et al.
    count layers and heads (from 1), so the panel can show the conversion on a real head.

    Schema: ``{"ours": "layer L, head H", "theirs": "layer L+1, head H+1"}``.

    >>> counted_from_one("2-0")
    {'ours': 'layer 2, head 0', 'theirs': 'layer 3, head 1'}
    """
    layer, head = parse_head(name)
    return {"ours": label(name), "theirs": say("trained-view.head", layer=layer + 1, head=head + 1)}


def measured() -> dict[str, dict]:
    """Return the head search's results by hand-set head, for the claims page.

    >>> measured()["previous-token"]["name"], measured()["previous-token"]["strength"]
    ('0-2', 'strong')
    """
    return {r["behaviour"]: r for r in _results()}


def _matrix(example: dict, layer: int, head: int) -> list[list[tuple[str, int]]]:
    """Return one head's whole matrix for an example as (text, shade level) per cell:
    rows are query tokens, columns key tokens."""
    return [list(zip(row.split(" "), map(int, levels(row).split(" "))))
            for row in example["rows"][layer][head]]


def panel(sentence=None, head="coreference", query=None, trained=None, **bench_state) -> dict:
    """Return the comparison panel's data for the bench's state (the hand-set row is the
    bench's own, at its temperature and with its stopcocks; the trained row is the model's).

    Schema: ``{"state", "sentence", "query": {"index", "word", "token"}, "bench_head",
    "example": index or None, "examples": [{"text", "file"}], "matched": {head: "L-H"},
    "chosen": {"name", "layer", "head", "picked"}, "tokens": [str],
    "rows": [{"token", "index", "handset": text or None, "future", "trained": text}],
    "matrix": [[(text, level)]], "results": [...], "heads": [{"name": "L-H", "label"}] x 72,
    "table": {head: [[score text per head] per layer]}, "model", "sentences", "default"}``.
    Token k + 1 is word k; ``rows`` is empty and ``example`` None for a sentence that is
    not one of the examples.

    >>> p = panel()
    >>> p["chosen"]["name"], p["query"]["token"], p["tokens"][0], len(p["heads"])
    ('3-1', 7, '[CLS]', 72)
    """
    v = bench_view.view(sentence=sentence, head=head, query=query, **bench_state)
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
        future = {j + 1: r["future"] for j, r in enumerate(v["rows"])}
        rows = [{"token": t, "index": c, "handset": handset.get(c), "future": future.get(c, False),
                 "trained": matrix[i + 1][c][0]} for c, t in enumerate(tokens)]
    return {
        "state": {**v["state"], "trained": name if picked else None},
        "sentence": v["sentence"], "query": {"index": i, "word": words[i], "token": i + 1},
        "bench_head": head, "example": k,
        "examples": [{"text": e["text"], "file": f"{SITE_DIR}{n}.json"}
                     for n, e in enumerate(d["examples"])],
        "matched": matched(), "chosen": {"name": name, "label": label(name), "layer": layer,
                                         "head": h, "picked": bool(picked),
                                         "score": d["search"]["table"][head][layer][h],
                                         "strength": "" if picked else measured()[head]["strength"]},
        "tokens": tokens, "rows": rows, "matrix": matrix, "results": _results(),
        "heads": [{"name": head_name(a, b), "label": label(head_name(a, b))}
                  for a in range(LAYERS) for b in range(HEADS)],
        "table": d["search"]["table"],
        "model": d["model"], "sentences": len(d["search"]["sentences"]),
        "layers": LAYERS, "per_layer": HEADS,
        "strengths": [{"word": _word(word), "floor": f"{floor:g}"} for floor, word in STRENGTH[:-1]],
        # the numbering shown on this model's own best coreference head, a head that exists
        "clark": {**counted_from_one(matched()["coreference"]), "behaviour": "coreference"},
        "default": " ".join(bench.DEFAULT_SENTENCE),
    }


def with_pick(view, state: dict) -> dict:
    """Answer the bench's state by ``view``, carrying the reader's trained head along in
    ``data["state"]["trained"]`` ("L-H", or None for the best match).

    >>> with_pick(bench_view.view, {"trained": "4-5"})["state"]["trained"]
    '4-5'
    >>> with_pick(bench_view.view, {"trained": "9-9"})
    Traceback (most recent call last):
    attention.bench_input.BenchInputError: Expected a trained head as layer-head, like 4-5, with layer 0 to 5 and head 0 to 11.
    """  # noqa: E501 (a doctest shows its output whole, on one line)
    state = dict(state)
    pick = state.pop("trained", None)
    if pick is not None:
        try:
            parse_head(pick)
        except ValueError as exc:
            text = str(exc)
            raise bench_view.BenchInputError("trained", say("trained-view.input-error",
                                                            reason=f"{text[0].upper()}{text[1:]}")) from None
    data = view(**state)
    data["state"]["trained"] = pick
    return data


def site_files() -> dict[str, str]:
    """Return {path below the site root: JSON text}: one file per example sentence, holding
    its tokens and every head's rows, for the panel to pick from in the browser."""
    out = {}
    for n, e in enumerate(data()["examples"]):
        out[f"{SITE_DIR}{n}.json"] = json.dumps(
            {"text": e["text"], "tokens": e["tokens"], "rows": e["rows"],
             "levels": [[[levels(r) for r in rows] for rows in layer] for layer in e["rows"]]},
            ensure_ascii=False, separators=(",", ":"))
    return out
