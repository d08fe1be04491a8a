"""Properties of the attention operations, a naive reference, and every bad input."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from attention import attend, mix, project, scale, softmax

finite = st.floats(-50, 50, allow_nan=False, allow_infinity=False)
temperatures = st.floats(0.05, 20, allow_nan=False)


def naive_attention(Q, K, V, allowed, T):
    """Attention written as loops over Python floats, sharing nothing with the core."""
    out_w, out_o = [], []
    for i, q in enumerate(Q):
        z = {}
        for j, k in enumerate(K):
            if allowed[i][j]:
                z[j] = sum(a * b for a, b in zip(q, k)) / (math.sqrt(len(q)) * T)
        top = max(z.values())
        total = sum(math.exp(v - top) for v in z.values())
        w = [math.exp(z[j] - top) / total if j in z else 0.0 for j in range(len(K))]
        out_w.append(w)
        out_o.append([sum(w[j] * V[j][c] for j in range(len(K))) for c in range(len(V[0]))])
    return np.array(out_w), np.array(out_o)


@st.composite
def problems(draw):
    """Draw Q, K, V, a mask with at least one allowed key per row, and a temperature."""
    n, m = draw(st.integers(1, 5)), draw(st.integers(1, 6))
    d_k, d_v = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    Q = draw(hnp.arrays(float, (n, d_k), elements=finite))
    K = draw(hnp.arrays(float, (m, d_k), elements=finite))
    V = draw(hnp.arrays(float, (m, d_v), elements=finite))
    mask = draw(hnp.arrays(bool, (n, m)))
    first = draw(hnp.arrays(np.int64, n, elements=st.integers(0, m - 1)))
    mask[np.arange(n), first] = True  # keep one key per row
    return Q, K, V, mask, draw(temperatures)


@settings(max_examples=300, deadline=None)
@given(problems())
def test_weights_are_a_distribution_over_the_allowed_keys(p):
    Q, K, V, mask, T = p
    w = attend(Q, K, V, mask, T).weights
    assert np.all(w[~mask] == 0.0)
    assert np.all(w >= 0)
    assert np.allclose(w.sum(axis=1), 1.0, rtol=0, atol=1e-12)


@settings(max_examples=300, deadline=None)
@given(problems())
def test_matches_the_naive_reference(p):
    Q, K, V, mask, T = p
    tr = attend(Q, K, V, mask, T)
    w, o = naive_attention(Q.tolist(), K.tolist(), V.tolist(), mask.tolist(), T)
    assert np.allclose(tr.weights, w, rtol=1e-9, atol=1e-12)
    assert np.allclose(tr.output, o, rtol=1e-9, atol=1e-9)


@settings(max_examples=300, deadline=None)
@given(problems())
def test_output_is_a_convex_mixture_of_the_allowed_values(p):
    Q, K, V, mask, T = p
    out = attend(Q, K, V, mask, T).output
    for i in range(len(Q)):
        allowed_values = V[mask[i]]  # (allowed, d_v)
        slack = 1e-9 * (1 + np.abs(allowed_values).max())
        assert np.all(out[i] >= allowed_values.min(axis=0) - slack)
        assert np.all(out[i] <= allowed_values.max(axis=0) + slack)


@settings(max_examples=300, deadline=None)
@given(problems(), st.floats(-1e6, 1e6, allow_nan=False))
def test_adding_a_constant_to_a_score_row_changes_nothing(p, c):
    _, _, _, mask, T = p
    S = np.arange(mask.size, dtype=float).reshape(mask.shape) % 7 - 3  # (n, m)
    assert np.allclose(softmax(S + c, mask, T), softmax(S, mask, T), rtol=0, atol=1e-9)


@settings(max_examples=200, deadline=None)
@given(hnp.arrays(float, (2, 5), elements=finite))
def test_temperature_limits(S):
    hot = softmax(S, temperature=1e9)
    assert np.allclose(hot, 1 / 5, rtol=0, atol=1e-6)
    cold = softmax(S, temperature=1e-9)
    for row_s, row_w in zip(S, cold):
        winners = row_s == row_s.max()
        gap = np.sort(np.unique(row_s))
        if gap.size > 1 and gap[-1] - gap[-2] < 1e-6:
            continue  # near-ties need an even colder temperature
        assert np.allclose(row_w[winners], 1 / winners.sum(), atol=1e-9)
        assert np.allclose(row_w[~winners], 0, atol=1e-9)


def test_trace_stages_and_shapes():
    tr = attend(np.ones((2, 3)), np.ones((4, 3)), np.ones((4, 5)))
    for name in ("scores", "scaled", "tempered", "shifted", "exp", "weights"):
        assert getattr(tr, name).shape == (2, 4), name
    assert tr.output.shape == (2, 5)
    with pytest.raises(ValueError):
        tr.weights[0, 0] = 1.0  # read-only
    with pytest.raises(AttributeError):
        tr.temperature = 2.0  # frozen


def test_stages_follow_each_other():
    S = [[3.0, 1.0, 2.0]]
    tr = attend([[1.0, 2.0]], [[1.0, 1.0], [1.0, 0.0], [0.0, 1.0]], np.eye(3), temperature=0.5)
    assert tr.scores.tolist() == S
    assert np.array_equal(tr.scaled, np.array(S) / math.sqrt(2))
    assert np.array_equal(tr.tempered, tr.scaled / 0.5)
    assert tr.shifted.max() == 0.0
    assert np.array_equal(tr.exp, np.exp(tr.shifted))
    assert np.array_equal(tr.output, tr.weights)  # V = I


@pytest.mark.parametrize("big", [1e4, 1e300, -1e300])
def test_large_finite_scores_do_not_overflow(big):
    w = softmax([[big, 0.0, big]])
    assert np.isfinite(w).all()
    if big > 0:
        assert np.allclose(w, [[0.5, 0.0, 0.5]])
    else:
        assert np.allclose(w, [[0.0, 1.0, 0.0]])
    w2 = softmax([[1e300, 1e300 - 1e285]])
    assert np.isfinite(w2).all() and w2[0, 0] == 1.0


def test_projection_and_mix():
    assert project([[1, 1]], [[1, 1], [0, 1]]).tolist() == [[1, 2]]
    assert mix([[0.25, 0.75]], [[4, 0], [0, 4]]).tolist() == [[1, 3]]
    assert scale([[3.0]], 9).tolist() == [[1.0]]


# ---- bad inputs: each raises ValueError with words that say what went wrong ----

Q3, K3, V3 = np.ones((1, 2)), np.ones((3, 2)), np.ones((3, 2))


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: attend(np.ones((1, 3)), K3, V3), r"query/key width mismatch: Q is \(1, 3\) but K is \(3, 2\)"),
        (lambda: attend(Q3, K3, np.ones((4, 2))), r"key/value row mismatch: K is \(3, 2\) but V is \(4, 2\)"),
        (lambda: attend([[np.nan, 0]], K3, V3), r"Q has a non-finite entry \(nan\) at row 0, column 0"),
        (lambda: attend(Q3, [[1, 1], [0, np.inf], [1, 1]], V3), r"K has a non-finite entry \(inf\) at row 1, column 1"),
        (lambda: attend(Q3, K3, [[1, 1], [1, 1], [-np.inf, 1]]), r"V has a non-finite entry \(-inf\) at row 2"),
        (lambda: attend(Q3, K3, V3, temperature=0), "temperature must be a finite number greater than 0, got 0.0"),
        (lambda: attend(Q3, K3, V3, temperature=-1), "greater than 0, got -1.0"),
        (lambda: attend(Q3, K3, V3, temperature=np.nan), "greater than 0, got nan"),
        (lambda: attend(Q3, K3, V3, temperature=np.inf), "greater than 0, got inf"),
        (lambda: attend(Q3, K3, V3, temperature="hot"), "temperature must be a number, got 'hot'"),
        (lambda: attend(Q3, K3, V3, mask=[[True, False]]), r"mask must have shape \(n, m\) = \(1, 3\), got \(1, 2\)"),
        (lambda: attend(Q3, K3, V3, mask=[[1, 0, 1]]), "mask must be boolean"),
        (lambda: attend(np.ones((2, 2)), K3, V3, mask=[[True] * 3, [False] * 3]), "row 1 has every key masked: no key is allowed, nothing to mix"),
        (lambda: attend([[1e200, 1e200]], [[1e200, 1e200]], [[1, 1]]), "the scores overflow"),
        (lambda: softmax([[1e308, -1e308]]), "more than the largest float apart"),
        (lambda: softmax([[1e300, 0.0]], temperature=1e-300), "the temperature is too small"),
        (lambda: attend([[1, 2, 3]], K3, V3), r"Q is \(1, 3\)"),
        (lambda: attend([1, 2], K3, V3), r"Q must be 2-D \(rows × columns\), got shape \(2,\)"),
        (lambda: attend([["a", "b"]], K3, V3), "Q must be a matrix of numbers"),
        (lambda: project([[1, 2]], np.ones((3, 2))), r"projection width mismatch: X is \(1, 2\) but W is \(3, 2\)"),
        (lambda: mix([[0.5, 0.5]], np.ones((3, 2))), r"key/value row mismatch: the weights are \(1, 2\) but V is \(3, 2\)"),
        (lambda: scale([[1.0]], 0), "d_k must be a positive whole number"),
    ],
)
def test_bad_input_raises_a_clear_value_error(call, words):
    with pytest.raises(ValueError, match=words):
        call()
