"""The bench page's data: the working table, the matrix and the drawing's geometry."""

import json

import numpy as np
import pytest

from attention import bench, bench_view


def test_default_view_is_the_pronoun_under_coreference():
    v = bench_view.view()
    assert v["sentence"]["words"] == list(bench.DEFAULT_SENTENCE)
    assert v["query"]["word"] == "she" and v["head"]["name"] == "coreference"
    assert v["state"] == {"sentence": " ".join(bench.DEFAULT_SENTENCE), "head": "coreference",
                          "query": 6, "temperature": "1", "shut": []}
    json.dumps(v, allow_nan=False)  # plain, JSON-safe data


def test_rows_match_the_model_trace():
    words = ["the", "pilot", "saw", "the", "car", "and", "he", "drove", "it"]
    v = bench_view.view(" ".join(words), "verb-lookup", query=4, temperature="0.7")
    tr = bench.trace(words, "verb-lookup", 0.7)
    for j, row in enumerate(v["rows"]):
        assert row["dot"]["value"] == tr.scores[4, j]
        assert row["tempered"]["value"] == tr.tempered[4, j]
        assert row["weight"]["value"] == tr.weights[4, j]
        assert row["future"] == (j > 4) and row["allowed"] == (j <= 4)
    assert v["rows"][2]["weight"]["value"] == tr.weights[4].max()  # car -> saw


def test_matrix_hides_the_future_and_shows_each_weight():
    v = bench_view.view()
    tr = bench.trace(list(bench.DEFAULT_SENTENCE), "coreference")
    n = len(bench.DEFAULT_SENTENCE)
    for r in range(n):
        for c in range(n):
            cell = v["matrix"][r][c]
            if c > r:
                assert cell is None
            else:
                assert list(cell) == [f"{tr.weights[r, c]:.3f}", int(round(tr.weights[r, c] * 10))]


def test_a_shut_key_is_shut_for_every_query():
    v = bench_view.view(shut=[1])
    assert v["shut"] == [1] and v["rows"][1]["shut"] and not v["rows"][1]["allowed"]
    assert all(row[1] is None for row in v["matrix"])
    assert v["rows"][1]["weight"]["value"] == 0.0
    assert v["drawing"]["valves"][1]["open"] is False
    # Row 1 ("engineer") still sees "the"; row 0 would be empty only if "the" were shut.
    empty_first = bench_view.view(shut=[0], query=6)
    assert list(empty_first["matrix"][0]) == [None] * len(bench.DEFAULT_SENTENCE)


def test_drawing_geometry():
    v = bench_view.view(temperature="3")
    d = v["drawing"]
    bottom, height = bench_view.TRAY
    assert sum(s["height"] for s in d["strata"]) == pytest.approx(height, abs=0.01)
    assert d["strata"][0]["y"] + d["strata"][0]["height"] == pytest.approx(bottom, abs=0.01)
    z = np.array([r["tempered"]["value"] for r in v["rows"]])
    live = [dial for dial in d["dials"] if dial["state"] == "live"]
    top = max(z[dial["index"]] for dial in live)
    for dial in live:
        gap = z[dial["index"]] - top
        expected = 180 * min(max(1 + gap / bench_view.DIAL_SPAN, 0), 1) - 90
        assert dial["angle"] == pytest.approx(expected, abs=0.01)
        assert dial["pinned"] == (gap < -bench_view.DIAL_SPAN)
    assert max(dial["angle"] for dial in live) == 90
    assert [dial["state"] for dial in d["dials"]][7] == "dead"  # "left" comes after "she"
    assert d["plate"] == "÷ √8 ÷ T (3)"
    assert bench_view.view()["drawing"]["plate"] == "÷ √8"


def test_summary_names_the_heaviest_words_first():
    assert bench_view.view()["summary"] == "query she: engineer 0.835, she 0.165"


@pytest.mark.parametrize(
    "kwargs, field, words",
    [
        ({"sentence": "the zorp read the blorp"}, "sentence", "Not in the lexicon: “zorp”, “blorp”"),
        ({"sentence": "the techer read it"}, "sentence", "“techer” (try teacher"),
        ({"sentence": "   "}, "sentence", "Type a sentence of at least one word."),
        ({"sentence": " ".join(["the"] * 41)}, "sentence", "Use at most 40 words; this sentence has 41."),
        ({"sentence": 42}, "sentence", "The sentence must be text."),
        ({"head": "induction"}, "head", "Choose one of the heads: previous-token, sink, coreference, verb-lookup."),
        ({"query": 8}, "query", "from 0 to 7"),
        ({"query": "x"}, "query", "must be a word position"),
        ({"query": 1.5}, "query", "from 0 to 7"),
        ({"query": True}, "query", "must be a word position"),
        ({"shut": [0, 1, 2, 3, 4, 5, 6]}, "shut", "Every key “she” may use is shut: nothing to pour."),
        ({"shut": "all"}, "shut", "must be a list of word positions"),
        ({"shut": [99]}, "shut", "from 0 to 7"),
        ({"temperature": "0"}, "temperature", "T must be greater than 0"),
        ({"slider": -1}, "temperature", "keep the slider between 0 and 1000"),
    ],
)
def test_bad_input_names_its_field(kwargs, field, words):
    with pytest.raises(bench_view.BenchInputError) as err:
        bench_view.view(**kwargs)
    assert err.value.field == field and words in str(err.value)


def test_forty_words_are_fine():
    sentence = " ".join(["the", "engineer", "fixed", "the", "bridge"] * 8)
    v = bench_view.view(sentence)
    assert len(v["rows"]) == 40 and len(v["matrix"]) == 40
    assert v["drawing"]["labels"] is False  # too narrow for names under the dials


def test_heads_tables_show_every_weight_that_is_not_zero():
    for h in bench_view.heads():
        head = bench.HEADS[h["name"]]
        for name in ("W_Q", "W_K"):
            W = getattr(head, name)
            assert [row["feature"] for row in h[name]] == list(bench.FEATURES)
            for row, values in zip(h[name], W):
                assert [float(c.replace("−", "-")) for c in row["cells"]] == values[h["channels"]].tolist()
            hidden = [c for c in range(W.shape[1]) if c not in h["channels"]]
            assert not W[:, hidden].any() and len(hidden) == h["unused"]
