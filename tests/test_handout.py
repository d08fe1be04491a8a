"""attention.protocol.handout and attention.questions: a class handout's numbers and questions follow
the state its address sets, and each answer is what an independent computation gives."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest

from attention import layer_view, quiz
from attention.protocol import bridge, handout, registry


def softmax(z):
    e = [math.exp(x - max(z)) for x in z]
    return [x / sum(e) for x in e]


def test_every_figure_with_a_state_and_a_download_has_a_handout():
    printable = [f.id for f in handout.figures()]
    assert printable == ["fig-002", "fig-003", "fig-004", "fig-005", "fig-006", "fig-009"]


@pytest.mark.parametrize("query", ["grid", "load", "rises"])
def test_the_mixture_questions_are_answered_as_the_toy_says(query):
    # the toy, by hand: queries, keys and values as the seed's FIG-001 gives them, d_k = 2
    keys = {"grid": [1, 1], "load": [0, 1], "rises": [1, 2]}
    values = {"grid": [1, 0], "load": [0, 2], "rises": [1, 2]}
    q = {"grid": [1, 0], "load": [0, 1], "rises": [1, 1]}[query]
    scaled = [sum(a * b for a, b in zip(q, k)) / math.sqrt(2) for k in keys.values()]
    weights = softmax(scaled)
    tokens = list(keys)
    h = handout.view("fig-002", {"query": query})
    top = [t for t, w in zip(tokens, weights) if round(w, 3) == round(max(weights), 3)]
    assert h["questions"][0]["answer"] == (top[0] if len(top) == 1 else "tie")
    second = [w * values[t][1] for t, w in zip(tokens, weights)]
    most = [t for t, x in zip(tokens, second) if round(x, 3) == round(max(second), 3)]
    assert h["questions"][1]["answer"] == (most[0] if len(most) == 1 else "tie")
    sharper = max(softmax([2 * s for s in scaled]))
    assert h["questions"][2]["answer"] == ("grow" if round(sharper, 3) > round(max(weights), 3) else "same")
    assert [r[3] for r in h["rows"]] == [f"{w:.3f}" for w in weights]  # the weight column


def test_halving_a_cold_lab_can_leave_the_largest_weight_whole():
    # one key allowed: it has the whole unit at any temperature
    h = handout.view("fig-003", {"q": "1,1", "mask": "0,0,1", "t": "1"})
    assert h["questions"][2]["answer"] == "same" and [r[0] for r in h["rows"]] == ["grid", "load", "rises"]


def test_the_bench_handout_asks_the_quiz_of_its_state():
    url = {"sentence": "the farmer saw the doctor and he left", "query": "6", "head": "coreference"}
    h = handout.view("fig-005", url)
    asked = quiz.view(sentence=url["sentence"], query=6, head="coreference")["questions"][:3]
    assert h["questions"] == asked and len(asked) == 3
    assert {"name": "sentence", "text": url["sentence"]} in h["setting"]
    assert h["url"]["query"] == "6" and len(h["rows"]) == 8


def test_the_table_is_the_downloads_numbers_with_its_constant_columns_as_the_setting():
    table = registry.export("fig-004", {"query": 5})
    h = handout.view("fig-004", {"query": "5"})
    weight = table["columns"].index("weight")
    assert [r[h["columns"].index("weight")] for r in h["rows"]] == [f"{r[weight]:.3f}" for r in table["rows"]]
    assert "sentence" not in h["columns"] and "word" in h["columns"]


def test_a_long_table_is_cut_and_says_how_many_rows_it_left_out():
    h = handout.view("fig-006", {})
    n = len(registry.export("fig-006", {})["rows"])
    assert len(h["rows"]) == handout.MAX_ROWS < n and h["more"] == n - handout.MAX_ROWS


def test_the_bridge_answers_a_handout_and_says_why_it_cannot():
    answer = json.loads(bridge.handle_json(json.dumps({"figure": "handout", "of": "fig-002", "url": {"query": "load"}})))
    assert answer["ok"] and answer["data"] == handout.view("fig-002", {"query": "load"})
    for request, field in [({"of": "fig-010"}, "of"), ({"of": 3}, "of"), ({"of": "fig-002", "url": 3}, "url")]:
        errors = json.loads(bridge.handle_json(json.dumps({"figure": "handout", **request})))["errors"]
        assert errors[0]["field"] == field, errors
    ignored = json.loads(bridge.handle_json(json.dumps({"figure": "handout", "of": "fig-002", "url": {"query": "nope"}})))
    assert ignored["data"]["notices"] and ignored["data"]["url"] == {"query": "rises"}


def test_no_answer_is_outside_its_choices_and_none_is_nan():
    for f in handout.figures():
        h = handout.view(f.id)
        assert len(h["questions"]) == 3
        for q in h["questions"]:
            assert q["answer"] in {c["id"] for c in q["choices"]}
        assert "nan" not in json.dumps(h).lower() and not np.isnan(0.0)


@pytest.mark.parametrize("state", [{}, {"focus": 3}, {"without": ["layer_norm"]}, {"silent": "coreference"}])
def test_the_layer_questions_are_answered_as_the_layer_computes(state):
    from attention import bench, layer

    words = list(bench.DEFAULT_SENTENCE)
    i = state.get("focus", 6)
    run = layer.forward(words, without=tuple(state.get("without", ())), silent=state.get("silent"))
    qs = handout.view("fig-009", {**({"word": str(i)} if "focus" in state else {}),
                                  **({"off": ",".join(state["without"])} if "without" in state else {}),
                                  **({"silent": state["silent"]} if "silent" in state else {})})["questions"]
    asked = qs[0]["prompt"].split(" the ")[1].split(" head")[0]  # the head the question is about
    head = next(h for h in run.heads if h.name == asked)
    assert qs[0]["answer"] == f"w{int(np.argmax(head.weights[i]))}"
    norm = lambda a: round(float(np.linalg.norm(a[i])), 3)  # noqa: E731 (as the page rounds a size)
    heads, mlp = norm(run.projected), norm(run.mlp)
    assert qs[1]["answer"] == ("heads" if heads > mlp else "mlp" if mlp > heads else "equal")
    before, after = ((run.projected, run.after_attention) if "without" in state
                     else (run.after_attention, run.norm1))
    b, a = norm(before), norm(after)
    assert qs[2]["answer"] == ("grow" if a > b else "shrink" if a < b else "same")
    assert f"{b:.3f}" in qs[2]["prompt"]


def test_each_question_speaks_of_what_its_chapter_has_taught():
    """A teacher's pass: chapter 2's handout asked to halve a temperature it never mentions,
    and the lab's answer called its score after ÷ T "the largest scaled score"."""
    mixture = handout.view("fig-002", {"query": "grid"})["questions"]
    assert not any("temperature" in q["prompt"].lower() or "temperature" in q["explanation"].lower()
                   for q in mixture)
    lab = handout.view("fig-003", {"q": "2,0", "t": "0.5", "mask": "1,1,0"})
    top = lab["questions"][0]["explanation"]
    tempered = lab["columns"].index("tempered")
    row = next(r for r in lab["rows"] if r[0] == "grid")
    assert f"the largest score after ÷ T, {row[tempered]}" in top


def test_the_setting_is_the_state_a_download_leads_with_not_a_number_that_happens_to_be_constant():
    """A fresh-eyes pass: the layer's mlp column, 0 in every row for "the", was printed under
    "the state this handout prints", and so were FIG-002's outputs and the bench's "shut"."""
    layer = handout.view("fig-009", {"word": "3"})
    assert [s["name"] for s in layer["setting"]] == ["sentence", "word_j", "word", "T", "off", "silent"]
    assert "mlp" in layer["columns"] and {r[layer["columns"].index("mlp")] for r in layer["rows"]} == {"0.000"}
    mixture = handout.view("fig-002", {"query": "grid"})
    assert [s["name"] for s in mixture["setting"]] == ["query"] and mixture["columns"][-2:] == ["output_1", "output_2"]
    bench = handout.view("fig-005", {})
    assert "shut" in bench["columns"] and "shut" not in [s["name"] for s in bench["setting"]]


def test_the_layers_first_answer_says_what_the_figure_says_of_its_head():
    h = handout.view("fig-009", {"word": "3"})
    said = next(x for x in layer_view.view(focus=3)["heads"] if x["name"] == "coreference")["said"]
    assert said in h["questions"][0]["explanation"] and "is not a pronoun" in h["questions"][0]["explanation"]


@pytest.mark.parametrize("state", [{}, {"word": "3"}, {"word": "3", "off": "layer_norm"}])
def test_the_layers_questions_name_the_word_and_the_columns_they_read(state):
    """A teacher's pass found "the (word 0)" among the choices for a question asked “from
    ‘the’” (which one?), and a size quoted with no column of the paper to find it in."""
    h = handout.view("fig-009", state)
    d = layer_view.view(focus=int(state.get("word", 6)), without=[state["off"]] if "off" in state else [])
    i, words = d["focus"]["index"], d["sentence"]["words"]
    named = f"“{words[i]}” (word {i})" if words.count(words[i]) > 1 else f"“{words[i]}”"
    for q in h["questions"]:
        assert named in q["prompt"], q["prompt"]
    size = h["questions"][2]["prompt"]
    columns = re.findall(r"the (\w+) column", size)
    assert len(columns) == 2 and set(columns) <= set(h["columns"]), size
