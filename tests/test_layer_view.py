"""attention.layer_view and the switches of attention.layer: each switch changes only the steps
after the part it removes; every number's working, read back from its text, computes the
number; bad input is refused by field."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention import bench, layer, layer_view
from attention.bench_input import BenchInputError

WORDS = sorted(bench.LEXICON)
sentences = st.lists(st.sampled_from(WORDS), min_size=1, max_size=12)
# the record's steps in the order they are computed, with the number the page gives each
ORDER = (("heads", 2), ("concat", 3), ("projected", 4), ("after_attention", 5), ("norm1", 6),
         ("hidden", 7), ("mlp", 7), ("output", 9))
FIRST_CHANGED = {"silent": 2, "residual": 5, "layer_norm": 6, "mlp": 7}


def arrays(r: layer.Layer) -> dict[str, np.ndarray]:
    return {"heads": np.stack([h.output for h in r.heads]),
            **{k: getattr(r, k) for k, _ in ORDER if k != "heads"}}


def switched(words, part: str) -> layer.Layer:
    return layer.forward(words, silent="coreference") if part == "silent" \
        else layer.forward(words, without=[part])


@settings(max_examples=25, deadline=None)
@given(words=sentences, part=st.sampled_from(sorted(FIRST_CHANGED)))
def test_a_switch_leaves_every_step_before_its_part_as_it_was(words, part):
    full, cut = arrays(layer.forward(words)), arrays(switched(words, part))
    for key, n in ORDER:
        if n < FIRST_CHANGED[part]:
            assert np.array_equal(full[key], cut[key]), (part, key)


@pytest.mark.parametrize("part", sorted(FIRST_CHANGED))
def test_on_the_bench_sentence_a_switch_changes_its_step_and_every_one_after(part):
    """On the default sentence every later step moves: the units fire for “she” and “bridge”
    in the whole layer, so even the MLP's switch reaches the output."""
    words = bench.DEFAULT_SENTENCE
    full, cut = arrays(layer.forward(words)), arrays(switched(words, part))
    changed = {n for key, n in ORDER if not np.allclose(full[key], cut[key], atol=1e-9)}
    expected = set(range(FIRST_CHANGED[part], 10)) - {8}  # step 8 is not kept in the record
    if part == "silent":
        expected -= {2}  # the head still computes its weights; only its part of the concat is 0
    assert changed == expected


@pytest.mark.parametrize("part", sorted(FIRST_CHANGED))
def test_the_view_names_the_changed_steps_and_marks_the_changed_numbers(part):
    state = {"silent": "coreference"} if part == "silent" else {"without": [part]}
    v = layer_view.view(**state)
    said = re.search(r"steps ([\d, and]+) change for “she”", v["changed"])[1]
    assert min(int(n) for n in re.findall(r"\d+", said)) == FIRST_CHANGED[part]
    for step in v["steps"]:
        assert step["changed"] == (step["n"] >= FIRST_CHANGED[part]), (part, step)
    whole = layer_view.view()
    for r, w in zip(v["rows"], whole["rows"]):
        for c, c0 in zip(r["cells"], w["cells"]):
            assert c["changed"] == (c["value"] != c0["value"])
            assert c["was"] == (f"was {c0['text']}" if c["changed"] else None)


def test_a_switch_marks_the_followed_words_steps_not_the_whole_layers():
    """Silencing the coreference head changes only “she”'s stream: following “the”, no step
    of the stream is marked and the sentence says whose numbers changed (every step was marked,
    by the whole layer, while each of “the”'s numbers said it was unchanged)."""
    v = layer_view.view(silent="coreference", focus=0)
    assert not any(s["changed"] for s in v["steps"])
    assert not any(c["changed"] for r in v["rows"] for c in r["cells"])
    assert "no number" not in v["changed"] and "steps 2 and 3 change for “the”" in v["changed"]
    assert "the stream’s numbers change only for “she”" in v["changed"]
    assert "now fires for no word; with every part on, it fires for “she”" in v["changed"]
    assert v["changed"].startswith("Without the coreference head:")
    marked = {s["key"] for s in layer_view.view(silent="coreference", focus=6)["steps"] if s["changed"]}
    assert marked == {key for key, n in layer_view.STEPS if n >= 4}


def test_the_words_left_all_zeros_are_named():
    """ "6 of 8 words end as all zeros" said neither which nor whether the followed word was one."""
    r = layer.forward(bench.DEFAULT_SENTENCE, without=["residual"])
    kept = [w for w, row in zip(r.words, r.output) if np.abs(row).max() > 1e-12]
    said = layer_view.view(without=["residual"])["changed"]
    assert 0 < len(kept) < len(r.words) / 2  # most words end as zeros: the few others are named
    assert f"Every word but {' and '.join(f'“{w}”' for w in kept)} ends as all zeros." in said


@pytest.mark.parametrize("part", ["residual", "layer_norm", "mlp"])
def test_a_part_switched_off_retitles_its_steps(part):
    """With the residual off, its two columns held the writes alone under "add the residual"."""
    titles = {s["key"]: s["title"] for s in layer_view.view(without=[part])["steps"]}
    whole = {s["key"]: s["title"] for s in layer_view.view()["steps"]}
    retitled = {k for k in titles if titles[k] != whole[k]}
    assert retitled == set(layer_view.RETITLED[part])
    assert all("off" in titles[k] or "no " in titles[k] for k in retitled)
    assert part != "residual" or "add the residual" not in titles.values()


NUMBER = r"(−?\d+\.\d+)"


def value(text: str) -> float:
    return float(text.replace("−", "-"))


def check_working(how: str, shown: float) -> None:
    """Recompute a number from the numbers its working names (each shown to 3 decimals)."""
    tol = 0.02
    if m := re.fullmatch(rf"\({NUMBER} − mean {NUMBER}\) ÷ √\(variance {NUMBER} \+ ε\) = {NUMBER}", how):
        a, mean, var, out = map(value, m.groups())
        assert abs((a - mean) / math.sqrt(var + layer.EPS) - out) < tol + 1e-3 * abs(out) / max(var, 1e-3)
    elif m := re.fullmatch(rf"{NUMBER} \+ {NUMBER} = {NUMBER}", how):
        a, b, out = map(value, m.groups())
        assert abs(a + b - out) < 2e-3
    elif m := re.fullmatch(rf"ReLU\(\w+ {NUMBER} \+ \w+ {NUMBER} − {NUMBER}\) = {NUMBER}", how):
        a, b, t, out = map(value, m.groups())
        assert abs(max(a + b - t, 0) - out) < 2e-3
    elif m := re.fullmatch(rf"Σ weight × \w+: (.*?)( \+ \d+ more)? = {NUMBER}", how):
        terms = [tuple(map(value, t)) for t in re.findall(rf"{NUMBER} × {NUMBER} \(\w+\)", m[1])]
        # the words left out carry the rest of the unit of weight, and every feature is in [-1, 1]
        rest = 1 - sum(w for w, _ in terms) if m[2] else 0.0
        assert abs(sum(w * f for w, f in terms) - value(m[3])) <= rest + 2e-3 * len(terms) + 1e-9
    elif m := re.search(rf"= {NUMBER}$|: {NUMBER}$", how):
        pass  # read from the lexicon or a position wave: checked below against the features
    else:
        assert how.startswith(("0:", "1 for every word")), how
        return
    assert re.search(rf"{NUMBER}$", how)[1] == f"{shown:.3f}".replace("-", "−")


@pytest.mark.parametrize("state", [{}, {"without": ["layer_norm"]}, {"without": ["residual"]},
                                   {"focus": 4, "temperature": "0.5"}])
def test_every_numbers_working_computes_the_number(state):
    v = layer_view.view(**state)
    for row in [*v["rows"], *v["features"]]:
        for c in row["cells"]:
            check_working(c["how"], float(c["text"].replace("−", "-")))


def test_a_working_that_does_not_add_up_is_caught():
    with pytest.raises(AssertionError):
        check_working("0.500 + 0.250 = 0.800", 0.8)


def test_a_features_working_names_the_words_class_and_its_position_wave():
    v = layer_view.view(focus=1)  # “engineer”, position 1
    cells = {r["name"]: r["cells"][0] for r in v["rows"]}
    assert cells["noun"]["how"] == "“engineer” is a noun: 1.000"
    assert cells["person"]["how"] == "“engineer” names a person: 1.000"
    assert cells["sin2"]["how"] == f"sin(ω₂ × position 1) = {math.sin(bench.OMEGA2):.3f}"


@pytest.mark.parametrize("state, field", [
    ({"sentence": "the cat sat"}, "sentence"),
    ({"sentence": ""}, "sentence"),
    ({"focus": 8}, "focus"),
    ({"focus": "x"}, "focus"),
    ({"temperature": "0"}, "temperature"),
    ({"temperature": "nan"}, "temperature"),
    ({"temperature": "1e308"}, "temperature"),
    ({"without": ["attention"]}, "without"),
    ({"without": 3}, "without"),
    ({"silent": "induction"}, "silent"),
])
def test_bad_input_is_refused_at_its_field(state, field):
    with pytest.raises(BenchInputError) as caught:
        layer_view.view(**state)
    assert caught.value.field == field
    assert str(caught.value)[-1] == "."


def test_no_switch_setting_puts_a_nan_or_infinity_in_any_number():
    for without in ([], ["residual"], ["layer_norm"], ["mlp"], list(layer.SWITCHES)):
        for silent in (None, *bench.HEADS):
            r = layer.forward(["the", "it"], 0.05, without, silent)
            for a in arrays(r).values():
                assert np.isfinite(a).all(), (without, silent)


@settings(max_examples=25, deadline=None)
@given(words=sentences)
def test_after_layer_norm_every_vector_is_at_most_root_d_long(words):
    """CL-058: gain 1 and shift 0 leave mean 0 and variance v/(v + eps), so length ≤ √d."""
    r = layer.forward(words)
    for rows in (r.norm1, r.output):
        lengths = np.linalg.norm(rows, axis=1)
        assert (lengths <= math.sqrt(layer.D_MODEL) + 1e-12).all()
        var = (r.after_attention if rows is r.norm1 else r.norm1 + r.mlp).var(axis=1)
        np.testing.assert_allclose(lengths, np.sqrt(layer.D_MODEL * var / (var + layer.EPS)), rtol=1e-9)
