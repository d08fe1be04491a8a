"""What if a step were missing: counterfactual weights, checked against arithmetic done here."""

import json
import math
import sys

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from attention import bench, bench_view, lab, ops, whatif, whatif_panel
from attention.catalog import speaking

LN_MAX = math.log(sys.float_info.max)  # ≈ 709.78


def softmax_by_hand(scores):
    """exp(s_j) / Σ exp(s), one key at a time (fine for the small scores used here)."""
    top = max(scores)
    e = [math.exp(s - top) for s in scores]
    return [x / sum(e) for x in e]


def test_ln_max_is_the_log_of_the_largest_double():
    assert whatif.LN_MAX == pytest.approx(709.78, abs=0.01)
    assert math.isfinite(math.exp(whatif.LN_MAX - 1e-9))
    with pytest.raises(OverflowError):
        math.exp(whatif.LN_MAX + 1e-9)


def test_the_toys_rises_row_without_scaling_is_softmax_of_2_1_3():
    # toy.py: q(rises) = [1, 1]; keys [1, 1], [0, 1], [1, 2] -> raw scores 2, 1, 3.
    e2, e1, e3 = math.exp(2), math.exp(1), math.exp(3)
    expected = [e2 / (e2 + e1 + e3), e1 / (e2 + e1 + e3), e3 / (e2 + e1 + e3)]
    entry = lab.view(["1", "1"], without=["scale"])["whatif"]
    got = [w["value"] for w in entry["counterfactual"]["weights"]]
    assert got == pytest.approx(expected, abs=1e-15)
    # the real row keeps ÷√2: softmax([2, 1, 3] / √2)
    real = softmax_by_hand([2 / math.sqrt(2), 1 / math.sqrt(2), 3 / math.sqrt(2)])
    assert [w["value"] for w in entry["real"]["weights"]] == pytest.approx(real, abs=1e-15)
    assert entry["counterfactual"]["top"]["word"] == "rises"
    h = -sum(p * math.log2(p) for p in expected)
    assert entry["counterfactual"]["entropy"]["value"] == pytest.approx(h, abs=1e-12)
    assert "rises" in entry["sentence"] and f"{expected[2]:.3f}" in entry["sentence"]


def test_temperature_still_divides_without_scaling():
    got = whatif.counterfactual([[2.0, 1.0, 3.0]], d_k=2, temperature=2.0, without=["scale"])
    assert got.weights[0].tolist() == pytest.approx(softmax_by_hand([1.0, 0.5, 1.5]), abs=1e-15)


def _bench_q_and_k(head):
    """The bench's query and key vectors, rebuilt here from the encoding and W_Q, W_K."""
    words = list(bench.DEFAULT_SENTENCE)
    X = bench.encode(words)  # (8, 11)
    h = bench.HEADS[head]
    Q = [[sum(X[i, f] * h.W_Q[f, c] for f in range(11)) for c in range(8)] for i in range(8)]
    K = [[sum(X[j, f] * h.W_K[f, c] for f in range(11)) for c in range(8)] for j in range(8)]
    return words, Q, K


def test_the_benchs_coreference_row_for_she_without_scaling():
    words, Q, K = _bench_q_and_k("coreference")
    i = words.index("she")  # 6; the causal mask lets it see words 0..6
    raw = [sum(a * b for a, b in zip(Q[i], K[j])) for j in range(i + 1)]
    expected = softmax_by_hand(raw) + [0.0]  # "left" comes later: masked
    entry = bench_view.view(without=["scale"])["whatif"]
    got = [k["counterfactual"]["value"] for k in entry["keys"]]
    assert got == pytest.approx(expected, abs=1e-12)
    real = softmax_by_hand([s / math.sqrt(8) for s in raw]) + [0.0]
    assert [k["real"]["value"] for k in entry["keys"]] == pytest.approx(real, abs=1e-12)
    assert entry["counterfactual"]["top"] == {"index": 1, "word": "engineer",
                                              "weight": {"value": pytest.approx(expected[1]),
                                                         "text": f"{expected[1]:.3f}"}}
    more = expected[1] - real[1]
    assert f"{more:.3f} more" in entry["sentence"]


def test_without_the_mask_later_words_open_but_shut_ones_stay_shut():
    # sink head, query "the" (0): its bias asks for the key's 4 cos(1.75 j) - 30 sin(0.05 j)
    z = [(4 * math.cos(1.75 * j) - 30 * math.sin(0.05 * j)) / math.sqrt(8) for j in range(8)]
    open_keys = [j for j in range(8) if j != 2]  # the reader shut "fixed"
    w = softmax_by_hand([z[j] for j in open_keys])
    expected = [0.0] * 8
    for j, x in zip(open_keys, w):
        expected[j] = x
    entry = bench_view.view(head="sink", query=0, shut=[2], without=["mask"])["whatif"]
    assert [k["counterfactual"]["value"] for k in entry["keys"]] == pytest.approx(expected)
    assert [k["open"] for k in entry["keys"]] == [j != 2 for j in range(8)]
    assert [k["future"] for k in entry["keys"]] == [j > 0 for j in range(8)]
    later = sum(expected[1:])
    assert f"gives {later:.3f} of its unit to later words" in entry["sentence"]
    assert "“engineer”" in entry["sentence"]  # the heaviest later word


def test_the_counterfactual_matrix_marks_masked_cells():
    entry = bench_view.view(without=["scale"])["whatif"]
    for r, row in enumerate(entry["matrix"]):
        assert [c is None for c in row["cells"]] == [c > r for c in range(8)]
    unmasked = bench_view.view(without=["mask"], shut=[3])["whatif"]["matrix"]
    assert all((cell is None) == (c == 3) for row in unmasked for c, cell in enumerate(row["cells"]))
    assert bench_view.view()["whatif"]["matrix"] is None


def test_naive_softmax_overflows_at_a_low_temperature_and_says_so():
    d = bench_view.view(temperature="0.05", without=["shift"])
    cf = d["whatif"]["counterfactual"]
    assert cf["failure"] == "overflow" and cf["weights"] is None and cf["top"] is None
    assert cf["message"] == ("eᶻ overflows: 1.8×10³⁰⁸ is the largest double; "
                             "the naive weights are undefined")
    assert all(k["counterfactual"] is None for k in d["whatif"]["keys"])
    json.dumps(d, allow_nan=False)  # no NaN or Infinity anywhere
    # The sentence says which eᶻ overflowed, and its z: “she”'s z, ÷√8 ÷ 0.05, worked out here.
    words, Q, K = _bench_q_and_k("coreference")
    z = [sum(a * b for a, b in zip(Q[6], K[j])) / math.sqrt(8) / 0.05 for j in range(7)]
    top = max(range(7), key=z.__getitem__)
    over = sum(x > LN_MAX for x in z)
    second = max((j for j in range(7) if j != top), key=z.__getitem__)
    assert over == 2 and z[second] > LN_MAX  # so the sentence names the second one too
    assert d["whatif"]["sentence"] == (
        f"Without the max-shift, eᶻ of “{words[top]}” overflows (as does that of “{words[second]}”): "
        f"its z is {z[top]:.3f}, and past z = {LN_MAX:.3f}, eᶻ is more than 1.8×10³⁰⁸, the largest "
        "double (64-bit float); the naive weights are undefined. With the max-shift the top key’s "
        "eᶻ is exactly 1 and every other one at most 1, so the real row is unaffected.")


def test_every_extreme_state_stays_json_safe():
    for head in bench.HEADS:
        for t in ("0.01", "1", "100"):
            for query in range(8):
                d = bench_view.view(head=head, query=query, temperature=t,
                                    without=["scale", "mask", "shift"])
                json.dumps(d, allow_nan=False)
    d = lab.view(["1000", "1000"], temperature="0.01", without=["scale", "shift"])
    json.dumps(d, allow_nan=False)
    assert d["whatif"]["counterfactual"]["failure"] == "overflow"


def test_every_exponential_underflowing_is_its_own_failure():
    cf = whatif.counterfactual([[-800.0, -900.0]], d_k=1, without=["shift"])
    assert cf.failure == ("underflow",)
    with speaking("en"):
        assert "0 ÷ 0" in whatif.message("underflow")


def test_a_finite_sum_that_overflows_is_caught():
    z = LN_MAX - 0.1  # each e^z is finite, two of them are not
    assert math.isfinite(math.exp(z)) and not math.isfinite(math.exp(z) * 2)
    assert whatif.counterfactual([[z, z]], d_k=1, without=["shift"]).failure == ("sum",)


def test_the_lab_can_reach_overflow_by_scaling_the_query():
    entry = lab.view(["1", "1"], without=["shift"])["whatif"]
    reach = entry["reach"]
    factor = int(reach["factor"])
    # the largest score of q = factor x [1, 1] is 3 x factor (key rises = [1, 2]), ÷ √2
    assert 3 * factor / math.sqrt(2) > LN_MAX
    assert 3 * (factor / 2) / math.sqrt(2) < LN_MAX  # the next smaller round factor is not enough
    assert reach["fields"] == [str(factor), str(factor)]
    after = lab.view(reach["fields"], without=["shift"])["whatif"]
    assert after["counterfactual"]["failure"] == "overflow" and after["reach"] is None


def test_steps_are_canonical_and_checked():
    assert whatif.steps(["shift", "scale", "mask", "scale"]) == ("scale", "mask", "shift")
    with pytest.raises(ValueError, match="unknown step 'zoom'"):
        whatif.steps(["zoom"])
    with pytest.raises(lab.LabInputError, match="no causal mask"):
        lab.view(without=["mask"])
    with pytest.raises(bench_view.BenchInputError) as err:
        bench_view.view(without=["<b>"])
    assert err.value.field == "without"


def test_without_shift_alone_changes_no_weight():
    d = bench_view.view(without=["shift"])["whatif"]
    assert [k["counterfactual"]["value"] for k in d["keys"]] == pytest.approx(
        [k["real"]["value"] for k in d["keys"]], abs=1e-15)
    assert "come out the same" in d["sentence"]


def test_entropy_in_bits():
    assert whatif.entropy_bits([0.25] * 4) == pytest.approx(2.0)
    assert whatif.entropy_bits([1.0, 0.0, 0.0]) == 0.0


scores = st.lists(st.floats(-3000, 3000, allow_nan=False), min_size=1, max_size=8)


@settings(max_examples=300, deadline=None)
@given(scores, st.integers(1, 16), st.floats(0.01, 100), st.sampled_from([(), ("scale",)]))
def test_naive_overflows_exactly_when_a_score_passes_ln_max(row, d_k, t, more):
    cf = whatif.counterfactual([row], d_k, t, without=("shift", *more))
    root = 1.0 if more else math.sqrt(d_k)
    z = [s / root / t for s in row]  # after ÷√d_k (unless removed) and ÷T
    assume(all(abs(x - LN_MAX) > 1e-9 for x in z))
    assert (cf.failure[0] == "overflow") == (max(z) > LN_MAX)
    if max(z) < LN_MAX - math.log(len(z)):  # then even the sum of all the e^z fits
        assert cf.failure[0] in (None, "underflow")
    # the stable softmax of the very same scores never fails
    w = ops.softmax([z])
    assert np.isfinite(w).all() and w.sum() == pytest.approx(1.0)
    stable = whatif.counterfactual([row], d_k, t, without=more)
    assert stable.failure == (None,) and np.isfinite(stable.weights).all()
    if cf.failure[0] is None:
        assert cf.weights[0] == pytest.approx(w[0], abs=1e-12)


def test_with_no_step_removed_the_bench_computes_no_counterfactual(monkeypatch):
    """The 40-word hot path: nothing removed, nothing recomputed; the entry is the real row."""
    sentence = " ".join(["the", "engineer", "fixed", "the", "bridge"] * 8)
    full = bench_view.view(sentence, query=38, shut=[3])["whatif"]  # the real path, first

    def refuse(*args, **kwargs):
        raise AssertionError("a counterfactual was computed with no step removed")

    monkeypatch.setattr(whatif, "counterfactual", refuse)
    bench_view._head_state.cache_clear()
    bench_view._query_parts.cache_clear()
    entry = bench_view.view(sentence, query=38, shut=[3])["whatif"]
    assert entry == full
    words = sentence.split()
    tr = bench.trace(words, "coreference", mask=np.array([[c <= r and c != 3 for c in range(40)]
                                                          for r in range(40)]))
    for j, k in enumerate(entry["keys"]):  # the real softmax input, by hand: q·k ÷ √8 ÷ 1
        assert k["z"]["value"] == pytest.approx(tr.scores[38, j] / math.sqrt(8), abs=1e-12)
        assert k["z"] == k["z_real"] and k["counterfactual"] is None
        assert k["open"] == (j <= 38 and j != 3) and k["future"] == (j > 38)
    assert entry["matrix"] is None and entry["counterfactual"] is None and entry["title"] == ""
    assert entry["sentence"] == "Every step is in place: these are the real weights."


def test_the_no_step_entry_equals_the_one_the_full_path_builds():
    """What the full path (counterfactual with nothing removed) would return, field for field."""
    for kwargs in ({}, {"head": "sink", "query": 3, "shut": [1]}, {"temperature": "0.05"}):
        v = bench_view.view(**kwargs)
        words, labels = v["sentence"]["words"], v["sentence"]["names"]  # labels: the₀, the₃
        n, i = len(words), v["query"]["index"]
        causal = bench.causal_mask(n)
        reader = np.broadcast_to(~np.array([j in v["shut"] for j in range(n)])[None, :], (n, n))
        tr = bench_view._head_state(tuple(words), v["head"]["name"], v["temperature"]["value"],
                                    tuple(j in v["shut"] for j in range(n))).trace
        cf = whatif.counterfactual(tr.scores, tr.d_k, tr.temperature, mask=reader, causal=causal)
        built = {"without": [], "options": whatif_panel._options(whatif.STEPS, (), tr.d_k),
                 **whatif_panel._compare(tr, cf, i, labels, f"“{labels[i]}”"),
                 "keys": whatif_panel._keys(tr, cf, i, labels, ~causal[i]), "matrix": None}
        entry = {k: x for k, x in v["whatif"].items()
                 if k not in ("state", "matrix_label", "matrix_note")}
        assert json.dumps(entry) == json.dumps(built)


def test_the_counterfactual_matrix_says_why_a_cell_has_no_weight():
    # without the mask, the reader's shut "fixed" (2) is the only cell left without a weight
    rows = bench_view.view(shut=[2], without=["mask"])["whatif"]["matrix"]
    assert all(r["masks"] == "aasaaaaa" and r["note"] == "" for r in rows)
    # with the mask, later words keep the diagonal hatching ("f") and the shut key its own
    rows = bench_view.view(shut=[2], without=["scale"])["whatif"]["matrix"]
    assert rows[4]["masks"] == "aasaafff" and rows[0]["masks"] == "afffffff"
    # at T = 0.05 every row of the default sentence overflows without the max-shift:
    # the best q·k of each row, ÷√8 ÷ 0.05, passes ln(1.8e308) ≈ 709.78
    words = list(bench.DEFAULT_SENTENCE)
    S = bench.trace(words, "coreference").scores
    best = [max(S[r, : r + 1]) / math.sqrt(8) / 0.05 for r in range(8)]
    assert all(b > LN_MAX for b in best)
    entry = bench_view.view(temperature="0.05", without=["shift"])["whatif"]
    for r, row in enumerate(entry["matrix"]):
        assert row["failure"] == "overflow" and row["cells"] == [None] * 8
        assert row["masks"] == "u" * (r + 1) + "f" * (7 - r) and row["note"] == " (overflow)"
    assert entry["matrix_note"] == ("Showing the matrix without the max-shift; 8 of 8 rows have "
                                    "no weights: eᶻ overflows.")
    assert entry["matrix_label"] == "Show the matrix without the max-shift"
    unmasked = bench_view.view(without=["mask"])["whatif"]["matrix_note"]
    assert unmasked == ("Showing the matrix without the causal mask: the hatched triangle is gone, "
                        "and every word may look at later words.")


def test_a_failed_row_says_which_exponential_broke_it():
    words = ["a", "b", "c"]
    # e^709.5 ≈ 1.35e308 fits; two of them do not
    assert math.isfinite(math.exp(709.5)) and 2 * math.exp(709.5) > sys.float_info.max
    _, _, failure = whatif.naive_softmax([[709.5, 709.5, 0.0]], [[True] * 3])
    assert failure == ("sum",)
    assert whatif_panel.cause("sum", [709.5, 709.5, 0.0], [True] * 3, words) == (
        "each eᶻ fits, but their sum overflows: it is more than 1.8×10³⁰⁸, the largest double "
        "(64-bit float)")
    # a shut key's z does not count, however large
    assert whatif_panel.cause("overflow", [5000.0, 800.0, 720.0], [False, True, True], words) == (
        "eᶻ of “b” overflows (as does that of “c”): its z is 800.000, and past z = 709.783, eᶻ is "
        "more than 1.8×10³⁰⁸, the largest double (64-bit float)")
    many = whatif_panel.cause("overflow", [800.0, 790.0, 780.0, 770.0], [True] * 4, ["a", "b", "c", "d"])
    assert many.startswith("eᶻ of “a” overflows (as do those of 3 more keys):")
    two = whatif_panel.cause("overflow", [800.0, 790.0, 780.0, 0.0], [True] * 4, ["a", "b", "c", "d"])
    assert two.startswith("eᶻ of “a” overflows (as do those of “b” and “c”):")
    assert math.exp(-800.0) == 0.0
    assert whatif_panel.cause("underflow", [-900.0, -800.0, -850.0], [True] * 3, words) == (
        "every eᶻ underflows to 0 (the largest z, that of “b”, is −800.000): the naive weights "
        "are 0 ÷ 0")
