"""The lab's view: every bad input gets a message for its field; good input the full working."""

import math

import numpy as np
import pytest

from attention import lab, toy


def test_default_view_is_rises_with_every_stage():
    v = lab.view()
    assert v["fields"] == ["1", "1"] and v["mask"] == [True, True, True]
    r2 = math.sqrt(2)
    scaled = [2 / r2, 1 / r2, 3 / r2]
    e = [math.exp(s - max(scaled)) for s in scaled]  # the stable recipe by hand
    for row, s, ex in zip(v["rows"], scaled, e):
        assert row["scaled"]["value"] == pytest.approx(s, abs=1e-15)
        assert row["tempered"]["value"] == pytest.approx(s, abs=1e-15)
        assert row["shifted"]["value"] == pytest.approx(s - max(scaled), abs=1e-15)
        assert row["exp"]["value"] == pytest.approx(ex, abs=1e-15)
        assert row["weight"]["value"] == pytest.approx(ex / sum(e), abs=1e-15)
    assert v["output"]["text"] == "[0.860, 1.432]"


def test_zero_query_is_uniform_and_gives_the_mean_of_the_values():
    v = lab.view(["0", "0"])
    assert [r["weight"]["text"] for r in v["rows"]] == ["0.333", "0.333", "0.333"]
    assert v["output"]["text"] == "[0.667, 1.333]"  # ([1,0] + [0,2] + [1,2]) / 3


def test_blocking_a_key_gives_it_minus_infinity_and_zero_weight():
    v = lab.view(["1", "1"], mask=[False, True, True])
    grid = v["rows"][0]
    assert grid["shifted"]["text"] == "−∞" and grid["shifted"]["value"] is None
    assert grid["exp"]["value"] == 0.0 and grid["weight"]["value"] == 0.0
    # Two keys left, scaled scores 1/√2 and 3/√2: weights 1/(1+e^√2) and e^√2/(1+e^√2).
    high = math.exp(math.sqrt(2)) / (1 + math.exp(math.sqrt(2)))
    assert v["rows"][2]["weight"]["value"] == pytest.approx(high, abs=1e-15)
    assert v["plot"]["hull"] == "0,2 1,2"  # a segment between the two allowed values


def test_temperature_flattens_and_sharpens():
    hot = lab.view(["1", "1"], temperature="100")
    cold = lab.view(["1", "1"], temperature="0.01")
    assert max(r["weight"]["value"] for r in hot["rows"]) < 0.35
    assert cold["rows"][2]["weight"]["text"] == "1.000"


@pytest.mark.parametrize(
    "kwargs, field, words",
    [
        ({"query": ["", "1"]}, "q1", "Enter a number."),
        ({"query": ["1", "abc"]}, "q2", "“abc” is not a number."),
        ({"query": ["NaN", "1"]}, "q1", "NaN is not a number you can compute with."),
        ({"query": ["Infinity", "1"]}, "q1", "Infinity is out of range: keep each coordinate between −1000 and 1000."),
        ({"query": ["1", "1e308"]}, "q2", "1e308 is out of range"),
        ({"temperature": "0"}, "temperature", "T must be greater than 0: dividing the scores by a temperature of 0 is undefined."),
        ({"temperature": "-2"}, "temperature", "T must be greater than 0"),
        ({"temperature": "1e9"}, "temperature", "keep T between 0.01 and 100"),
        ({"temperature": "nan"}, "temperature", "NaN is not a number"),
        ({"mask": [False, False, False]}, "mask", "No key is allowed: nothing to mix."),
        ({"mask": [True, "yes", True]}, "mask", "The mask needs 3 switches"),
        ({"query": ["1"]}, "query", "exactly two coordinates"),
        ({"move": "sideways"}, "pad", "Unknown move"),
        ({"pad": ["a", 1]}, "pad", "“a” is not a number."),
        ({"slider": 5000}, "temperature", "keep the slider between 0 and 1000"),
    ],
)
def test_each_bad_input_names_its_field(kwargs, field, words):
    with pytest.raises(lab.LabInputError) as err:
        lab.view(**kwargs)
    fields = [f for f, _ in err.value.problems]
    messages = " ".join(m for _, m in err.value.problems)
    assert field in fields and words in messages


def test_several_bad_fields_are_all_reported():
    with pytest.raises(lab.LabInputError) as err:
        lab.view(["x", "y"], temperature="0", mask=[False] * 3)
    assert [f for f, _ in err.value.problems] == ["temperature", "q1", "q2", "mask"]


def test_pad_and_moves_stay_on_the_pad_and_round_to_hundredths():
    assert lab.view(pad=[0.123456, -9])["fields"] == ["0.12", "-3"]
    assert lab.view(["1", "1"], move="up")["fields"] == ["1", "1.1"]
    assert lab.view(["-3", "0"], move="left")["fields"] == ["-3", "0"]
    far = lab.view(["500", "0"])
    assert far["pad"]["off_pad"] and far["pad"]["x"] == lab.PAD_LIMIT


def test_slider_is_log_scaled_and_round_trips():
    low, high, steps = lab.T_SLIDER
    assert lab.slider_temperature(0) == low and lab.slider_temperature(steps) == high
    mid = math.sqrt(low * high)  # the geometric middle sits halfway along the slider
    assert lab.slider_temperature(steps // 2) == pytest.approx(mid, rel=1e-2)
    for t in (0.05, 0.3, 1.0, 4.2, 20.0):
        assert lab.slider_temperature(lab.slider_position(t)) == pytest.approx(t, rel=0.01)
    assert lab.view(slider=steps // 2)["temperature"]["value"] == pytest.approx(mid, rel=1e-2)


def test_hull_of_the_values_and_output_inside_it():
    v = lab.view(["0.3", "-2"])
    points = {tuple(map(float, p.split(","))) for p in v["plot"]["hull"].split()}
    assert points == {tuple(row) for row in toy.roles()["V"].tolist()}
    out = np.array([v["plot"]["output"]["x"], v["plot"]["output"]["y"]])
    V = toy.roles()["V"]
    assert (out >= V.min(axis=0)).all() and (out <= V.max(axis=0)).all()


@pytest.mark.parametrize("typed, value", [("\u22123", -3.0), ("1,5", 1.5), (" \u22120,25 ", -0.25), ("2.5", 2.5)])
def test_the_minus_sign_the_site_prints_and_a_decimal_comma_are_read(typed, value):
    v = lab.view([typed, "1"])
    assert v["query"]["value"][0] == value and v["fields"][0] == repr(value).removesuffix(".0")
    assert lab.view(temperature=typed.replace("\u2212", "") if value < 0 else typed)["temperature"]["value"] == abs(value)


@pytest.mark.parametrize("typed", ["1,2,3", "1,000.5", "\u2212", ",", "1\u22122"])
def test_other_commas_and_minus_signs_are_still_refused(typed):
    with pytest.raises(lab.LabInputError, match="is not a number"):
        lab.view([typed, "1"])


def test_one_temperature_range_for_the_field_and_the_slider():
    low, high = lab.T_RANGE
    assert lab.T_SLIDER[:2] == lab.T_RANGE
    assert lab.slider_temperature(0) == low and lab.slider_temperature(lab.T_SLIDER[2]) == high
    limits = lab.limits()
    assert (limits["slider_low"], limits["slider_high"]) == (limits["t_low"], limits["t_high"]) == ("0.01", "100")


def test_every_key_off_is_refused_so_no_weight_can_be_shown():
    with pytest.raises(lab.LabInputError) as err:
        lab.view(["1", "1"], mask=[False, False, False])
    assert [f for f, _ in err.value.problems] == ["mask"]


def test_the_spoken_sentence_names_each_key_and_the_output():
    v = lab.view(["0", "0"], mask=[True, False, True])
    # Two keys with equal scores share the weight: 0.500 each; the output is the mean of [1,0] and [1,2].
    assert v["said"] == "Query [0.000, 0.000]: weights grid 0.500, load blocked, rises 0.500; output [1.000, 1.000]."
    assert v["allowed_text"] == "grid, rises"


@pytest.mark.parametrize("move, fields", [("right-big", ["2", "1"]), ("down-big", ["1", "0"]),
                                          ("home", ["-3", "1"]), ("end", ["3", "1"])])
def test_big_keyboard_steps_and_edges(move, fields):
    assert lab.view(["1", "1"], move=move)["fields"] == fields
    assert lab.view(["2.5", "2.5"], move="up-big")["fields"] == ["2.5", "3"]  # clamped to the pad


@pytest.mark.parametrize("query, mask", [(("3", "-3"), [True, False, True]),   # o just above grid
                                         (("-3", "0"), None),                 # o just below load
                                         (("1", "1"), None)])                 # the default
def test_the_outputs_o_keeps_clear_of_every_value_dot(query, mask):
    v = lab.view(query=query, mask=mask)
    out = v["plot"]["output"]
    label = out["label"]
    # the label's middle in value units: its y is drawn downwards; "end" means it sits to the left
    middle = np.array([out["x"] + label["x"] + (0.05 if label["anchor"] == "start" else -0.05),
                       out["y"] - label["y"] + 0.05])
    for p in v["plot"]["value_points"]:  # a dot's radius (0.06), half an "o" (~0.07) and a gap
        assert math.dist(middle, (p["x"], p["y"])) > 0.2, p["token"]


def test_the_outputs_o_stays_in_its_usual_place_when_nothing_is_near():
    assert lab.view()["plot"]["output"]["label"] == {"x": -0.11, "y": 0.2, "anchor": "end"}


def test_the_mix_step_is_shown_in_numbers():
    """Each key's part of the output, a_j v_j, and their sum, o (issue 22)."""
    v = lab.view(["2", "-1"], temperature="0.5")
    V = toy.roles()["V"]
    total = np.zeros(2)
    for row in v["rows"]:
        part = row["weight"]["value"] * V[row["index"]]
        assert row["product"]["value"] == pytest.approx(part.tolist())
        total += part
    assert total.tolist() == pytest.approx(v["output"]["value"])


def test_the_value_plot_has_axes_through_zero_with_whole_ticks():
    axes = lab.view()["plot"]["axes"]
    V = toy.roles()["V"]
    assert axes["x"][0] < min(0, V[:, 0].min()) and axes["x"][1] > V[:, 0].max()
    assert axes["y"][0] < min(0, V[:, 1].min()) and axes["y"][1] > V[:, 1].max()
    whole = {(a, str(k)) for a in (0, 1) for k in range(int(np.floor(V[:, a].min())),
                                                       int(np.ceil(V[:, a].max())) + 1) if k}
    assert {(t["axis"], t["text"]) for t in axes["ticks"]} == whole


def test_a_tie_for_the_largest_weight_names_every_key_in_it():
    # Review 4's newcomer: the zero query shows "Largest: grid 0.333" on a three-way tie, as if
    # grid won. Equal weights are a tie, said as one.
    top = lab.view(query=("0", "0"))["whatif"]["real"]["top"]
    assert f'{top["word"]} {top["weight"]["text"]}' == "grid, load and rises, tied at 0.333"
    blocked = lab.view(query=("0", "0"), mask=[True, False, True])["whatif"]["real"]["top"]
    assert f'{blocked["word"]} {blocked["weight"]["text"]}' == "grid and rises, tied at 0.500"
    assert lab.view()["whatif"]["real"]["top"]["word"] == "rises"  # no tie: the one key
