"""The comparison panel's data (attention.trained_view), read from the committed file, and
its trained-head choice in the bridge, the URL and the exports."""

from __future__ import annotations

import json

import pytest

from attention import bench, bench_view, trained_view
from attention.protocol import bridge, registry

COMMITTED = json.loads(trained_view.DATA.read_text(encoding="utf-8"))


def test_panel_for_the_default_puts_the_bench_row_beside_the_committed_row():
    p = trained_view.panel()
    v = bench_view.view()
    r = COMMITTED["search"]["results"]["coreference"]
    row = COMMITTED["examples"][0]["rows"][r["layer"]][r["head"]][v["query"]["index"] + 1]
    assert p["example"] == 0 and p["tokens"] == ["[CLS]", *bench.DEFAULT_SENTENCE, "[SEP]"]
    assert [x["trained"] for x in p["rows"]] == row.split(" ")
    assert [x["handset"] for x in p["rows"]] == [None, *[x["weight"]["text"] for x in v["rows"]],
                                                 None]
    assert p["chosen"] == {"name": f"{r['layer']}-{r['head']}", "layer": r["layer"],
                           "head": r["head"], "label": f"layer {r['layer']}, head {r['head']}",
                           "picked": False, "score": r["score"],
                           "strength": trained_view.strength(float(r["score"]))}


def test_panel_for_a_picked_head_and_a_sentence_outside_the_examples():
    p = trained_view.panel(head="sink", query=2, trained="5-11")
    assert p["chosen"]["name"] == "5-11" and p["chosen"]["picked"]
    assert p["chosen"]["score"] == COMMITTED["search"]["table"]["sink"][5][11]
    assert [x["trained"] for x in p["rows"]] == \
        COMMITTED["examples"][0]["rows"][5][11][3].split(" ")
    other = trained_view.panel(sentence="the car and the book she")
    assert other["example"] is None and other["rows"] == [] and other["matrix"] == []


def test_matrix_levels_are_tenths_rounded():
    m = trained_view.panel()["matrix"]
    for row in m:
        for text, level in row:
            assert level == round(float(text) * 10)
    assert trained_view.levels("0.049 0.050 0.951 1.000") == "0 0 10 10"  # 0.5 -> 0, 9.51 -> 10


@pytest.mark.parametrize("value", ["4-5", "0-0", "5-11"])
def test_parse_head_accepts_every_head(value):
    layer, head = trained_view.parse_head(value)
    assert f"{layer}-{head}" == value


@pytest.mark.parametrize("value", ["6-0", "0-12", "4", "4-5-1", "-1-2", "a-b", "", "04-005", 45,
                                   None, "٤-٥"])
def test_parse_head_refuses_anything_else(value):
    with pytest.raises(ValueError, match="layer-head"):
        trained_view.parse_head(value)


def test_bridge_echoes_the_trained_choice_and_the_url_keeps_it():
    answer = bridge.handle({"figure": "bench", "query": 2, "trained": "4-5"})
    assert answer["data"]["state"]["trained"] == "4-5"
    assert answer["url"]["trained"] == "4-5" and answer["url"]["query"] == "2"
    assert "trained" not in bridge.handle({"figure": "bench"})["url"]
    bad = json.loads(bridge.handle_json('{"figure": "bench", "trained": "9-9"}'))
    assert bad["ok"] is False and bad["errors"][0]["field"] == "trained"


def test_a_tampered_trained_parameter_is_dropped_with_a_notice():
    state, notices = registry.from_url("bench", {"trained": "<b>", "query": "1"})
    assert state == {"query": 1}
    assert notices == ["Ignored trained=<b>: Expected a trained head as layer-head, like 4-5, "
                       "with layer 0 to 5 and head 0 to 11."]
    assert registry.from_url("bench", {"trained": "0-2"})[0] == {"trained": "0-2"}


def test_bench_exports_ignore_the_trained_choice():
    with_choice = bridge.handle({"figure": "export", "of": "bench-table",
                                 "url": {"trained": "4-5", "query": "1"}})
    plain = registry.export("bench-table", {"query": 1})
    assert with_choice["data"]["json"]["rows"] == plain["rows"]


def test_site_files_hold_every_head_and_its_levels():
    files = trained_view.site_files()
    assert sorted(files) == [f"data/trained/{n}.json" for n in range(len(COMMITTED["examples"]))]
    one = json.loads(files["data/trained/0.json"])
    assert one["rows"] == COMMITTED["examples"][0]["rows"]
    assert one["levels"][4][5][1] == trained_view.levels(one["rows"][4][5][1])


def test_panel_hand_set_row_follows_the_bench_temperature_and_stopcocks():
    p = trained_view.panel(temperature="2", shut=[1])
    v = bench_view.view(temperature="2", shut=[1])
    assert [x["handset"] for x in p["rows"][1:-1]] == [r["weight"]["text"] for r in v["rows"]]
    assert p["rows"][2]["handset"] == "0.000"  # "engineer" is shut


def test_the_trained_fragment_reads_the_bench_url():
    from sitebuild.fragment import fragment

    html = fragment("trained", "trained=4-5&query=2")
    assert 'data-bind="trained-head">layer 4, head 5<' in html
    assert 'data-bind="query-word">fixed<' in html


def test_the_clark_numbering_example_is_a_head_of_this_model_counted_both_ways():
    p = trained_view.panel()
    r = COMMITTED["search"]["results"]["coreference"]  # a head that exists in the data
    n_layers = len(COMMITTED["examples"][0]["rows"])
    assert 0 <= r["layer"] < n_layers
    assert p["clark"]["ours"] == f"layer {r['layer']}, head {r['head']}"
    assert p["clark"]["theirs"] == f"layer {r['layer'] + 1}, head {r['head'] + 1}"
    assert p["clark"]["behaviour"] == "coreference"
