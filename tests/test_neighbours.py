"""The states one click away, as the requests each figure's page sends."""

from __future__ import annotations

import json

import pytest

from attention import bench, toy
from attention.protocol import bridge, neighbours, registry


def _data(figure: str, **state) -> dict:
    answer = json.loads(bridge.handle_json(json.dumps({"figure": figure, **state})))
    assert answer["ok"], answer
    return answer["data"]


def test_fig_002_offers_every_token_as_the_query():
    requests = registry.neighbours("fig-002", _data("fig-002"))
    assert requests == [{"figure": "fig-002", "query": t} for t in ("grid", "load", "rises")]


def test_bench_offers_each_row_head_and_turnable_stopcock():
    data = _data("bench")  # "she" (position 6) of the eight default words is the query
    requests = registry.neighbours("bench", data)
    state = {"figure": "bench", "sentence": "the engineer fixed the bridge before she left",
             "head": "coreference", "query": 6, "temperature": "1", "shut": [], "trained": None}
    assert [r["query"] for r in requests[:8]] == list(range(8))
    assert all(r == {**state, "query": j} for j, r in enumerate(requests[:8]))
    assert [r["head"] for r in requests[8:12]] == list(bench.HEADS)
    # A word may look at itself and earlier words only: stopcocks 0..6 turn, 7 ("left") cannot.
    assert [r["shut"] for r in requests[12:19]] == [[j] for j in range(7)]
    assert requests[19] == {**state, "query": None}  # "Use sentence" again
    assert [r["slider"] for r in requests[20:22]] == ["499", "501"]
    # the what-if panel's three toggles, each ticked alone (whatif.js sends the panel's state)
    assert requests[22:] == [{**state, "without": [s]} for s in ("scale", "mask", "shift")]
    assert len(requests) == 25


def test_bench_toggle_reopens_a_shut_stopcock():
    data = _data("bench", shut=[2])
    shut = [r["shut"] for r in registry.neighbours("bench", data) if r["shut"] != [2]]
    assert [] in shut and [2, 0] in shut  # 2 reopened; another added after it, as bench.js does


def test_lab_offers_switches_moves_and_preset_queries():
    requests = registry.neighbours("lab", _data("lab"))
    base = {"figure": "lab", "query": ["1", "1"], "mask": [True, True, True], "temperature": "1"}
    assert requests[0] == base
    assert [r["mask"] for r in requests[1:4]] == [[False, True, True], [True, False, True],
                                                  [True, True, False]]
    assert [r["move"] for r in requests[4:8]] == ["left", "right", "up", "down"]
    assert requests[8]["query"] == ["0", "0"]  # the prediction's zero query
    assert len(requests[9:12]) == len(toy.TOKENS)
    assert [r["slider"] for r in requests[12:14]] == ["499", "501"]
    # the lab has no causal mask: its what-if toggles are the scale and the max-shift
    assert requests[14:] == [{**base, "without": ["scale"]}, {**base, "without": ["shift"]}]


@pytest.mark.parametrize("figure", sorted(registry.STATES))
def test_every_neighbour_is_a_request_the_bridge_accepts(figure):
    for request in registry.neighbours(figure, _data(figure)):
        assert json.loads(bridge.handle_json(json.dumps(request)))["ok"], request


def test_key_sorts_fields_and_refuses_floats():
    assert neighbours.key({"z": 1, "a": {"y": [True, None], "b": "é"}}) == \
        '{"a":{"b":"é","y":[true,null]},"z":1}'
    with pytest.raises(ValueError, match="float"):
        neighbours.key({"figure": "lab", "pad": [0.5, 1]})


def test_a_what_if_toggle_is_the_request_its_panel_sends():
    """whatif.js sends {figure, ...its panel's state, without}: the panel's state must be the
    figure's own, field for field, so the toggled request is the key in the table."""
    for figure in ("lab", "bench"):
        data = _data(figure)
        sent = {"figure": figure, **data["whatif"]["state"], "without": ["scale"]}
        assert neighbours.key(sent) in {neighbours.key(r) for r in registry.neighbours(figure, data)}


def test_with_a_step_removed_every_request_keeps_it_and_the_toggles_turn_one():
    # page.js adds the removed steps to every request of the figure: a row click keeps them
    data = _data("bench", without=["mask"])
    requests = registry.neighbours("bench", data)
    assert all(r["without"] == ["mask"] for r in requests[:22])
    assert [r.get("without") for r in requests[22:]] == [["scale", "mask"], None, ["mask", "shift"]]
    assert "without" not in requests[23]  # the last step turned off: no field, as whatif.js sends
    lab = registry.neighbours("lab", _data("lab", without=["shift"]))
    assert [r.get("without") for r in lab[-2:]] == [["scale", "shift"], None]
