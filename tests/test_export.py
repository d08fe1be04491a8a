"""Downloads: a figure's numbers as CSV and JSON, equal to the core's at full precision."""

import csv
import io
import math

import numpy as np
import pytest

from attention import bench, toy
from attention.protocol import export, registry


def test_fig_002_export_matches_a_hand_computed_softmax():
    table = registry.export("fig-002", {"query": "load"})
    assert table["columns"] == ["query", "key", "score", "scaled", "weight", "value_1",
                                "value_2", "contribution_1", "contribution_2", "output_1",
                                "output_2"]
    scaled = [1 / math.sqrt(2), 1 / math.sqrt(2), 2 / math.sqrt(2)]  # q = [0, 1]
    total = sum(math.exp(s) for s in scaled)
    for row, s in zip(table["rows"], scaled):
        assert row[3] == pytest.approx(s, abs=1e-15)
        assert row[4] == pytest.approx(math.exp(s) / total, abs=1e-15)


def test_fig_002_csv_names_the_query_and_carries_the_output():
    # Review 4: the CSV had neither, so a file did not say whose row it was or what it mixed to.
    table = registry.export("fig-002", {"query": "load"})
    rows = list(csv.DictReader(io.StringIO(export.to_csv(table))))
    assert {r["query"] for r in rows} == {"load"}
    for i in (1, 2):  # the output is the sum of the contributions, on every row
        total = sum(float(r[f"contribution_{i}"]) for r in rows)
        assert [float(r[f"output_{i}"]) for r in rows] == pytest.approx([total] * 3, abs=1e-15)


def column(table, name):
    """One column of an export, by name."""
    k = table["columns"].index(name)
    return [row[k] for row in table["rows"]]


def test_lab_export_equals_the_trace_and_carries_its_state():
    table = registry.export("lab", {"query": ["0.3", "-1"], "mask": [True, False, True],
                                  "temperature": "0.7"})
    tr = toy.trace([0.3, -1.0], mask=[True, False, True], temperature=0.7)
    assert column(table, "weight") == tr.weights[0].tolist()
    assert table["output"] == tr.output[0].tolist()
    assert column(table, "allowed") == [True, False, True]
    # every row says the state it was made from: q, T and the output
    assert column(table, "q_1") == [0.3] * 3 and column(table, "q_2") == [-1.0] * 3
    assert column(table, "T") == [0.7] * 3
    assert column(table, "output_1") == [tr.output[0][0]] * 3
    assert table["state"] == {"q": ["0.3", "-1"], "T": "0.7", "allowed": ["grid", "rises"],
                              "without": []}
    assert "without_weight" not in table["columns"]


def test_lab_export_carries_both_rows_without_scaling():
    table = registry.export("lab", {"without": ["scale"]})  # q = [1, 1]: raw scores 2, 1, 3
    e = [math.exp(2), math.exp(1), math.exp(3)]
    assert column(table, "without_weight") == pytest.approx([x / sum(e) for x in e], abs=1e-15)
    assert column(table, "without") == ["scale"] * 3
    assert column(table, "weight") == toy.trace("rises").weights[0].tolist()
    assert table["without"]["steps"] == ["scale"] and table["without"]["failure"] is None


def test_an_overflowing_export_leaves_the_weights_empty():
    table = registry.export("lab", {"query": ["1000", "1000"], "without": ["shift"]})
    assert column(table, "without_failure") == ["overflow"] * 3
    assert column(table, "without_weight") == [None] * 3
    assert None in column(table, "without_exp")  # e^z of 3000 / √2 is not a double
    text = export.to_csv(table)
    assert "inf" not in text.lower() and "nan" not in text.lower()
    rows = list(csv.reader(io.StringIO(text)))
    k = rows[0].index("without_weight")
    assert [r[k] for r in rows[1:]] == ["", "", ""]


def test_bench_exports_equal_the_model_and_carry_their_state():
    words = list(bench.DEFAULT_SENTENCE)
    tr = bench.trace(words, "sink", 2.0)
    table = registry.export("bench", {"head": "sink", "query": 5, "temperature": "2", "shut": [1]})
    shut = np.ones(8, dtype=bool)
    shut[1] = False
    expected = bench.trace(words, "sink", 2.0, mask=np.broadcast_to(shut, (8, 8))).weights[5]
    assert column(table, "weight") == expected.tolist()
    assert column(table, "sentence") == [" ".join(words)] * 8
    assert column(table, "head") == ["sink"] * 8
    assert column(table, "query_j") == [5] * 8 and column(table, "query_word") == ["before"] * 8
    assert column(table, "T") == [2.0] * 8
    # a later word and a shut stopcock are told apart
    assert column(table, "causal_masked") == [j > 5 for j in range(8)]
    assert column(table, "shut") == [j == 1 for j in range(8)]
    assert table["state"]["query"] == {"index": 5, "word": "before"}
    assert table["state"]["shut"] == [{"index": 1, "word": "engineer"}]
    matrix = registry.export("bench-matrix", {"head": "sink", "temperature": "2"})
    assert len(matrix["rows"]) == 8 * 8
    k = matrix["columns"].index("query_j")
    for row in matrix["rows"]:
        r, _, c, _, masked, is_shut, weight = row[k:k + 7]
        assert masked == (c > r) and not is_shut and weight == tr.weights[r, c]


def test_the_query_is_told_by_position_when_words_repeat():
    table = registry.export("bench", {"query": 3})  # the second "the"
    assert table["state"]["query"] == {"index": 3, "word": "the"}
    assert export.filename(table) == "attention-bench-fig-004-coreference-q3-T1"


def test_the_bench_export_without_the_mask():
    table = registry.export("bench", {"head": "sink", "query": 0, "without": ["mask"]})
    cf = column(table, "without_weight")
    assert cf[0] < 1 and sum(cf) == pytest.approx(1.0)  # "the" now reaches later words
    assert column(table, "weight")[0] == 1.0
    matrix = registry.export("bench-matrix", {"without": ["mask", "scale"]})
    assert all(w is not None for w in column(matrix, "without_weight"))


@pytest.mark.parametrize("figure, state, name", [
    ("fig-004", {"query": 6}, "attention-bench-fig-004-coreference-q6-T1"),
    ("fig-005", {"head": "sink", "query": 2, "temperature": "0.5", "shut": [0, 1]},
     "attention-bench-fig-005-sink-q2-T0.5-shut0_1"),
    ("fig-006", {"without": ["shift", "scale"]},
     "attention-bench-fig-006-coreference-T1-without-scale-shift"),
    ("fig-003", {"query": ["0.5", "-2"], "mask": [True, False, True], "temperature": "2"},
     "attention-bench-fig-003-q0.5_-2-T2-allowed-grid_rises"),
    # an old embed id (a course page's iframe made before the figures had one name each)
    ("bench-table", {"query": 6}, "attention-bench-fig-005-coreference-q6-T1"),
    ("fig-002", {"query": "grid"}, "attention-bench-fig-002-grid"),
    ("fig-001", {}, "attention-bench-fig-001"),
])
def test_file_names_say_the_state(figure, state, name):
    assert export.filename(registry.export(figure, state)) == name


def test_csv_round_trips_at_full_precision():
    table = registry.export("lab", {"query": ["0.123456789", "1"]})
    rows = list(csv.reader(io.StringIO(export.to_csv(table))))
    assert rows[0] == table["columns"]
    for written, original in zip(rows[1:], table["rows"]):
        assert float(written[10]) == original[10]  # repr of a float round-trips exactly


def test_fig_001_and_unknown_exports():
    assert registry.export("fig-001")["rows"][2] == ["rises", 1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 1.0, 2.0]
    with pytest.raises(ValueError, match="no export for 'bench-heads'"):
        registry.export("bench-heads")
