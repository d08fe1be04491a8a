"""The chapters' numbers, derived by hand here and compared with the core."""

import math

import numpy as np
import pytest

from attention import toy


def hand_softmax(z):
    """Textbook softmax written out with math.exp, for three or fewer numbers."""
    e = [math.exp(v) for v in z]
    return [v / sum(e) for v in e]


def test_fig001_roles_match_hand_multiplication():
    # Row vectors: [x1, x2] @ [[a, b], [c, d]] = [x1*a + x2*c, x1*b + x2*d].
    # W_Q = I keeps each state; W_K adds x1 to the second coordinate; W_V doubles it.
    r = toy.roles()
    assert r["Q"].tolist() == [[1, 0], [0, 1], [1, 1]]
    assert r["K"].tolist() == [[1, 1], [0, 1], [1, 2]]
    assert r["V"].tolist() == [[1, 0], [0, 2], [1, 2]]
    assert toy.TOKENS == ("grid", "load", "rises")


def test_rises_every_stage_against_hand_arithmetic():
    tr = toy.trace("rises")
    # q = [1, 1]; keys [1,1], [0,1], [1,2] -> 1+1, 0+1, 1+2
    assert tr.scores.tolist() == [[2, 1, 3]]
    r2 = math.sqrt(2)
    assert np.allclose(tr.scaled, [[2 / r2, 1 / r2, 3 / r2]], rtol=0, atol=1e-15)
    assert [f"{v:.3f}" for v in tr.scaled[0]] == ["1.414", "0.707", "2.121"]
    a = hand_softmax([2 / r2, 1 / r2, 3 / r2])
    assert np.allclose(tr.weights, [a], rtol=0, atol=1e-15)
    assert [f"{v:.3f}" for v in tr.weights[0]] == ["0.284", "0.140", "0.576"]
    # o = a1*[1,0] + a2*[0,2] + a3*[1,2]
    o = [a[0] + a[2], 2 * a[1] + 2 * a[2]]
    assert np.allclose(tr.output, [o], rtol=0, atol=1e-15)
    assert [f"{v:.3f}" for v in tr.output[0]] == ["0.860", "1.432"]


def test_rises_contributions_round_like_the_seed():
    tr = toy.trace("rises")
    contributions = tr.weights[0][:, None] * toy.roles()["V"]
    shown = [[f"{v:.3f}" for v in row] for row in contributions]
    assert shown == [["0.284", "0.000"], ["0.000", "0.280"], ["0.576", "1.152"]]


@pytest.mark.parametrize(
    "token, raw, weights, output",
    [
        # q = [1, 0]: scores 1, 0, 1 -> two equal winners around a smaller middle
        ("grid", [1, 0, 1], ["0.401", "0.198", "0.401"], ["0.802", "1.198"]),
        # q = [0, 1]: scores 1, 1, 2
        ("load", [1, 1, 2], ["0.248", "0.248", "0.503"], None),
    ],
)
def test_other_queries(token, raw, weights, output):
    tr = toy.trace(token)
    assert tr.scores.tolist() == [raw]
    a = hand_softmax([s / math.sqrt(2) for s in raw])
    assert np.allclose(tr.weights, [a], rtol=0, atol=1e-15)
    assert [f"{v:.3f}" for v in tr.weights[0]] == weights
    o = [a[0] + a[2], 2 * a[1] + 2 * a[2]]
    assert np.allclose(tr.output, [o], rtol=0, atol=1e-15)
    if output:
        assert [f"{v:.3f}" for v in tr.output[0]] == output


def test_zero_query_gives_the_average_of_the_values_not_zero():
    tr = toy.trace([0.0, 0.0])
    assert tr.scores.tolist() == [[0, 0, 0]]
    assert np.allclose(tr.weights, 1 / 3, rtol=0, atol=1e-15)
    # mean of [1,0], [0,2], [1,2] = [2/3, 4/3]
    assert np.allclose(tr.output, [[2 / 3, 4 / 3]], rtol=0, atol=1e-15)
    assert [f"{v:.3f}" for v in tr.output[0]] == ["0.667", "1.333"]


def test_toy_data_is_read_only():
    with pytest.raises(ValueError):
        toy.X[0, 0] = 5


def test_unknown_token_is_named():
    with pytest.raises(ValueError, match="unknown token 'power'"):
        toy.trace("power")
