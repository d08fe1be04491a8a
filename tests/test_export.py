"""Downloads: a figure's numbers as CSV and JSON, equal to the core's at full precision."""

import csv
import io
import math

import pytest

from attention import bench, export, toy


def test_fig_002_export_matches_a_hand_computed_softmax():
    table = export.export("fig-002", {"query": "load"})
    assert table["columns"] == ["key", "score", "scaled", "weight", "value_1", "value_2",
                                "contribution_1", "contribution_2"]
    scaled = [1 / math.sqrt(2), 1 / math.sqrt(2), 2 / math.sqrt(2)]  # q = [0, 1]
    total = sum(math.exp(s) for s in scaled)
    for row, s in zip(table["rows"], scaled):
        assert row[2] == pytest.approx(s, abs=1e-15)
        assert row[3] == pytest.approx(math.exp(s) / total, abs=1e-15)


def test_lab_export_equals_the_trace():
    table = export.export("lab", {"query": ["0.3", "-1"], "mask": [True, False, True],
                                  "temperature": "0.7"})
    tr = toy.trace([0.3, -1.0], mask=[True, False, True], temperature=0.7)
    assert [row[7] for row in table["rows"]] == tr.weights[0].tolist()
    assert table["output"] == tr.output[0].tolist()
    assert [row[1] for row in table["rows"]] == [True, False, True]


def test_bench_exports_equal_the_model():
    words = list(bench.DEFAULT_SENTENCE)
    tr = bench.trace(words, "sink", 2.0)
    table = export.export("bench", {"head": "sink", "query": 5, "temperature": "2"})
    assert [row[7] for row in table["rows"]] == tr.weights[5].tolist()
    matrix = export.export("bench-matrix", {"head": "sink", "temperature": "2"})
    n = len(words)
    assert len(matrix["rows"]) == n * n
    for r, w_row, c, _, allowed, weight in matrix["rows"]:
        assert allowed == (c <= r) and weight == tr.weights[r, c]


def test_csv_round_trips_at_full_precision():
    table = export.export("lab", {"query": ["0.123456789", "1"]})
    rows = list(csv.reader(io.StringIO(export.to_csv(table))))
    assert rows[0] == table["columns"]
    for written, original in zip(rows[1:], table["rows"]):
        assert float(written[7]) == original[7]  # repr of a float round-trips exactly


def test_fig_001_and_unknown_exports():
    assert export.export("fig-001")["rows"][2] == ["rises", 1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 1.0, 2.0]
    with pytest.raises(ValueError, match="no export for 'bench-heads'"):
        export.export("bench-heads")
