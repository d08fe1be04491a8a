"""The bench's pictures and words say what its numbers say (issue 22): no key that takes a real
share is drawn as no match, the head descriptions give this sentence's shares, the walk's
numbers are the table's, and the tray's output is o = Σ aⱼvⱼ. Expected values are computed here
from attention.bench, never copied from the page."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from attention import bench, bench_drawing, bench_view

SENTENCES = [None, "the engineer left and it moved",
             "the farmer saw the doctor and he read the letter"]
TEMPERATURES = ["0.1", "1", "10", "100"]
REAL_SHARE = 0.05
TEMPLATES = Path(__file__).resolve().parent.parent / "templates" / "figures"


def _words(sentence):
    return list(bench.DEFAULT_SENTENCE) if sentence is None else sentence.split()


def _grid():
    for sentence in SENTENCES:
        for head in bench.HEADS:
            for t in TEMPERATURES:
                yield sentence, head, t


@pytest.mark.parametrize("sentence, head, t", list(_grid()))
def test_no_key_with_a_real_share_is_drawn_as_no_match(sentence, head, t):
    words = _words(sentence)
    weights = bench.weights(words, head, float(t))  # (n, n), from the core
    for i in range(len(words)):
        dials = bench_view.view(sentence, head, query=i, temperature=t)["drawing"]["dials"]
        for j, dial in enumerate(dials):
            if weights[i, j] >= REAL_SHARE:
                # a flat needle (-90, "pinned") is "no match"; a real share leans at most
                # ln(1 / 0.05) / DIAL_SPAN of the way down
                assert not dial["pinned"] and dial["angle"] > -90, (words[i], words[j], weights[i, j])
                lean = 90 * math.log(1 / REAL_SHARE) / bench_drawing.DIAL_SPAN
                assert dial["angle"] >= -lean - 0.01


def test_the_old_raw_score_scale_did_contradict_the_numbers():
    """The grid above can fail: on the old raw q·k scale (flat 20 or more below the best open
    key, whatever T) many keys with a real share lay flat."""
    flat_but_real = 0
    for sentence, head, t in _grid():
        tr = bench.trace(_words(sentence), head, float(t))
        for i in range(len(tr.scores)):
            gaps = tr.scores[i, : i + 1].max() - tr.scores[i, : i + 1]
            flat_but_real += int(((gaps >= 20) & (tr.weights[i, : i + 1] >= REAL_SHARE)).sum())
    assert flat_but_real > 100


@pytest.mark.parametrize("sentence, head, t", [(s, h, "1") for s in SENTENCES for h in bench.HEADS])
def test_needles_read_the_score_after_the_plate(sentence, head, t):
    words = _words(sentence)
    tr = bench.trace(words, head, float(t))
    for i in range(len(words)):
        dials = bench_view.view(sentence, head, query=i, temperature=t)["drawing"]["dials"]
        z = tr.tempered[i, : i + 1]
        for j in range(i + 1):
            gap = z.max() - z[j]
            assert dials[j]["angle"] == pytest.approx(-90 * min(gap / bench_drawing.DIAL_SPAN, 1), abs=0.01)


@pytest.mark.parametrize("sentence", SENTENCES)
@pytest.mark.parametrize("head", list(bench.HEADS))
def test_the_head_line_gives_this_sentences_shares(sentence, head):
    words = _words(sentence)
    weights = bench.weights(words, head)
    for i in range(len(words)):
        v = bench_view.view(sentence, head, query=i)
        here = v["head"]["here"]
        order = np.argsort(-weights[i, : i + 1], kind="stable")
        top = order[0]
        name = "itself" if top == i else f"“{words[top]}”"
        assert here.startswith(f"On this sentence the query “{words[i]}” gives "
                               f"{weights[i, top]:.3f} to {name}"), here
        assert "mostly" in v["head"]["behaviour"]  # the rule is not absolute
        for card in v["heads_here"]:  # every head's card, for the same query and sentence
            w = bench.weights(words, card["name"])[i]
            assert f"{w.max():.3f}" in card["here"]


def test_the_examples_of_the_issue_are_said_with_their_shares():
    v = bench_view.view("the engineer left and it moved", "coreference", query=4)
    w = bench.weights(_words("the engineer left and it moved"), "coreference")[4]
    assert v["head"]["here"] == (f"On this sentence the query “it” gives {w[4]:.3f} to itself, "
                                 f"{w[3]:.3f} to “and” and {w[:3].sum():.3f} to the other 3 words it can see.")


def test_no_share_is_typed_into_the_templates():
    """The head lines and the walk are filled from attention/: no digit of a share in them."""
    for name, pattern in [("fig-004.html", r'<p class="bench-head-line">.*?</p>'),
                          ("fig-007.html", r'<span class="head-here".*?</span>')]:
        text = (TEMPLATES / name).read_text(encoding="utf-8")
        found = re.findall(pattern, text, re.S)
        assert found
        for part in found:
            assert not re.search(r"\d", re.sub(r"\{\{.*?\}\}|\{%.*?%\}", "", part)), part
    walk = re.search(r'<ol class="bench-captions">.*?</ol>', (TEMPLATES / "fig-004.html").read_text(
        encoding="utf-8"), re.S).group(0)
    assert not re.search(r"\d", re.sub(r"\{\{.*?\}\}|\{%.*?%\}", "", walk))


@pytest.mark.parametrize("head", list(bench.HEADS))
def test_the_walk_says_the_tables_numbers(head):
    v = bench_view.view(head=head, temperature="2", shut=[0] if head != "sink" else [])
    walk, rows = v["walk"], v["rows"]
    assert [s["part"] for s in walk] == ["carriage", "dials", "plate", "reservoir", "valves", "tray"]
    assert v["query"]["vector"]["text"] in walk[0]["numbers"]
    live = sorted((r for r in rows if r["allowed"]), key=lambda r: -r["weight"]["value"])
    for step, column in [(1, "dot"), (2, "tempered"), (4, "exp"), (5, "weight")]:
        for r in live[:3]:
            assert f"{r['word']}{' (the query)' if r['is_query'] else ''} {r[column]['text']}" \
                in walk[step]["numbers"], (step, r["word"])
    for s in walk:  # each announcement names the head and T
        assert s["said"].startswith(f"Step {s['n']} of 6, {head} head, T = 2.")


def test_the_tray_shows_the_output_vector():
    words = list(bench.DEFAULT_SENTENCE)
    for head in bench.HEADS:
        v = bench_view.view(head=head, query=5)
        a = bench.weights(words, head)[5]
        o = a @ bench.encode(words)  # every value is the word's own features: o = Σ a_j x_j
        assert [e["feature"] for e in v["output"]] == list(bench.FEATURES)
        assert [e["text"] for e in v["output"]] == [f"{x:.3f}".replace("-", "−") for x in
                                                  np.where(np.abs(o) < 0.0005, 0.0, o)]
        assert v["announce"] == f"{head} head, T = 1: {v['summary']}"


def test_the_drawing_names_the_carriage_and_the_trays_weights():
    v = bench_view.view()
    d = v["drawing"]
    assert d["carriage"]["label"] == f"The carriage: the query “she”, q = {v['query']['vector']['text']}"
    named = v["sentence"]["names"]  # "the₀", "the₃": the sentence repeats "the"
    assert [s["text"] for s in d["strata"]] == [f"{named[r['index']]} {r['weight']['text']}" for r in v["rows"]]
