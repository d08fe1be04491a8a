"""A bench answer leaves out the matrix only when the page holds that very matrix."""

import json

import pytest

from attention import bench
from attention.protocol import bridge, delta

FORTY = " ".join(["the", "pilot", "saw", "it", "and", "she", "left", "the", "car"] * 4 + ["the"] * 4)


def ask(**state) -> dict:
    return json.loads(bridge.handle_json(json.dumps({"figure": "bench", **state})))


def by_hand_row(words, head, i):
    """Row i of the head's matrix texts, from bench.weights (masked keys: None)."""
    w = bench.weights(words, head)  # (n, n)
    return [None if j > i else f"{w[i, j]:.3f}" for j in range(len(words))]


def test_a_query_click_at_40_words_sends_no_matrix_when_the_page_holds_the_current_one():
    first = ask(sentence=FORTY, query=5)["data"]
    assert len(first["matrix"]) == 40 and set(delta.MATRIX_PARTS) <= set(first)
    click = ask(sentence=FORTY, query=30, have=first["matrix_id"])
    data = click["ok"] and click["data"]
    assert not set(delta.MATRIX_PARTS) & set(data)  # matrix, masks, empty: all left out
    assert data["matrix_id"] == first["matrix_id"] and data["query"]["index"] == 30
    assert len(data["rows"]) == 40 and data["rows"][30]["is_query"]  # the row itself is whole
    assert len(bridge.handle_json(json.dumps({"figure": "bench", "sentence": FORTY, "query": 30,
                                              "have": first["matrix_id"]}))) \
        < len(json.dumps({"ok": True, "figure": "bench", "data": first})) - 15_000


@pytest.mark.parametrize("have", [None, "0" * 12, "", "not an id"])
def test_a_stale_or_missing_version_gets_the_whole_answer(have):
    data = ask(sentence=FORTY, query=30, have=have)["data"]
    assert [data[k] is not None for k in delta.MATRIX_PARTS] == [True] * 3
    words = FORTY.split()
    assert [c and c[0] for c in data["matrix"][30]] == by_hand_row(words, "coreference", 30)


@pytest.mark.parametrize("change", [{"sentence": "the pilot saw it"}, {"head": "sink"},
                                    {"temperature": "2"}, {"shut": [1]}, {"without": ["scale"]}])
def test_any_change_the_matrix_depends_on_gets_a_new_matrix_in_full(change):
    held = ask()["data"]["matrix_id"]
    data = ask(**change, have=held)["data"]
    assert data["matrix_id"] != held and "matrix" in data
    if "head" in change:
        words = list(bench.DEFAULT_SENTENCE)
        assert [c and c[0] for c in data["matrix"][6]] == by_hand_row(words, "sink", 6)


def test_a_bad_version_is_a_clear_error():
    answer = ask(have=7)
    assert answer["ok"] is False and answer["errors"][0]["field"] == "have"
    assert "matrix" in answer["errors"][0]["message"]


def test_the_answer_cache_gives_the_same_text_as_computing_afresh():
    text = json.dumps({"figure": "bench", "sentence": FORTY, "query": 7})
    first = bridge.handle_json(text)
    assert bridge.handle_json(text) == first == bridge._answer_text_uncached(text)
