"""attention.layer: one whole layer around the bench's heads, every step checked against an
independent float64 recomputation in PyTorch, and the hand-set writes read as the module says."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from attention import bench, layer

WORDS = sorted(bench.LEXICON)
sentences = st.lists(st.sampled_from(WORDS), min_size=1, max_size=bench.MAX_WORDS)


def torch_layer(words, temperature: float) -> dict:
    """The layer written again from its definition, in PyTorch float64: the features and
    positions from their formulas, the scores, mask, softmax and mixtures with torch's own
    operations, torch's LayerNorm and ReLU. Only the hand-set weights are read from the
    module (they are what is being computed with, not how)."""
    r = layer.forward(words, temperature)
    t = lambda a: torch.tensor(np.asarray(a), dtype=torch.float64)  # noqa: E731
    n = len(words)
    p = torch.arange(n, dtype=torch.float64)
    entries = [bench.LEXICON[w] for w in words]
    classes = torch.tensor([[e.word_class == c for c in bench.CLASSES] for e in entries], dtype=torch.float64)
    person = torch.tensor([[float(e.person)] for e in entries], dtype=torch.float64)
    waves = torch.stack([torch.sin(bench.OMEGA1 * p), torch.cos(bench.OMEGA1 * p),
                         torch.sin(bench.OMEGA2 * p), torch.cos(bench.OMEGA2 * p)], dim=1)
    x = torch.cat([torch.ones(n, 1, dtype=torch.float64), classes, person, waves,
                   torch.zeros(n, len(layer.SLOTS), dtype=torch.float64)], dim=1)
    future = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)
    out = {"x": x, "heads": []}
    for h in r.heads:
        q, k, v = x @ t(h.W_Q), x @ t(h.W_K), x @ t(h.W_V)
        scores = (q @ k.T) / (math.sqrt(q.shape[1]) * temperature)
        weights = torch.softmax(scores.masked_fill(future, -math.inf), dim=-1)
        out["heads"].append((weights, weights @ v))
    out["concat"] = torch.cat([o for _, o in out["heads"]], dim=1)
    out["projected"] = out["concat"] @ t(r.W_O)
    out["after_attention"] = x + out["projected"]
    norm = torch.nn.functional.layer_norm
    out["norm1"] = norm(out["after_attention"], (layer.D_MODEL,), t(r.gamma1), t(r.beta1), r.eps)
    out["hidden"] = torch.relu(out["norm1"] @ t(r.W_1) + t(r.b_1))
    out["mlp"] = out["hidden"] @ t(r.W_2) + t(r.b_2)
    out["output"] = norm(out["norm1"] + out["mlp"], (layer.D_MODEL,), t(r.gamma2), t(r.beta2), r.eps)
    return out


def assert_close(mine: np.ndarray, theirs: torch.Tensor, what: str) -> None:
    assert mine.shape == tuple(theirs.shape), what
    np.testing.assert_allclose(mine, theirs.numpy(), rtol=0, atol=1e-10, err_msg=what)


@pytest.mark.parametrize("temperature", [1.0, 0.5])
@settings(max_examples=30, deadline=None)
@given(words=sentences)
def test_every_step_equals_a_torch_float64_recomputation(words, temperature):
    r, expected = layer.forward(words, temperature), torch_layer(words, temperature)
    assert_close(r.x, expected["x"], "x")
    for h, (weights, output) in zip(r.heads, expected["heads"]):
        assert_close(h.weights, weights, f"{h.name} weights")
        assert_close(h.output, output, f"{h.name} output")
    for step in ("concat", "projected", "after_attention", "norm1", "hidden", "mlp", "output"):
        assert_close(getattr(r, step), expected[step], step)


def test_the_comparison_fails_on_a_changed_step():
    """The recomputation is independent: a layer whose LayerNorm forgot its epsilon differs."""
    words = "the engineer fixed the bridge before she left".split()
    expected = torch_layer(words, 1.0)
    r = layer.forward(words, 1.0)
    wrong = (r.after_attention - r.after_attention.mean(-1, keepdims=True)) \
        / r.after_attention.std(-1, keepdims=True)  # no epsilon
    with pytest.raises(AssertionError):
        assert_close(wrong, expected["norm1"], "norm1")


@pytest.mark.parametrize("temperature", [1.0, 0.5])
def test_the_heads_are_the_benchs_own(temperature):
    words = "the teacher read the letter and then she left it".split()
    r = layer.forward(words, temperature)
    assert [h.name for h in r.heads] == list(bench.HEADS)
    for h in r.heads:
        tr = bench.trace(words, h.name, temperature)
        np.testing.assert_array_equal(h.weights, tr.weights)
        np.testing.assert_array_equal(h.output, tr.output)


def test_the_stream_starts_as_the_benchs_features_with_empty_slots():
    words = ["she", "read", "it"]
    r = layer.forward(words)
    assert layer.STREAM[:11] == bench.FEATURES and len(layer.STREAM) == layer.D_MODEL == 18
    np.testing.assert_array_equal(r.x[:, :11], bench.encode(words))
    assert not r.x[:, 11:].any()


def test_w_o_has_one_1_per_write_and_nothing_from_the_sink():
    r = layer.forward(["the", "car"])
    assert sorted(r.W_O.ravel().tolist()).count(1.0) == 5 and np.count_nonzero(r.W_O) == 5
    d_v = r.heads[0].output.shape[1]
    sink = [h.name for h in r.heads].index("sink")
    assert not r.W_O[sink * d_v:(sink + 1) * d_v].any()
    # only the heads' slots receive anything: the features and the MLP's slots are left alone
    written = {layer.STREAM[j] for j in np.flatnonzero(r.W_O.any(axis=0))}
    assert written == {"ref_noun", "ref_person", "prev_det", "prev_verb", "has_verb"}


def test_what_the_heads_write_is_what_they_look_at():
    """she -> engineer (a person noun), bridge's previous word is the, bridge's verb is fixed."""
    words = "the engineer fixed the bridge before she left".split()
    r = layer.forward(words)
    slot = {name: r.projected[:, layer.STREAM.index(name)] for name in layer.SLOTS}
    she, bridge = words.index("she"), words.index("bridge")
    coref = r.heads[[h.name for h in r.heads].index("coreference")].weights
    assert slot["ref_person"][she] == pytest.approx(coref[she] @ r.x[:, bench.FEATURES.index("person")])
    assert slot["ref_noun"][she] > 0.5 and slot["ref_person"][she] > 0.5
    assert slot["prev_det"][bridge] > 0.5 and slot["has_verb"][bridge] > 0.5
    assert slot["prev_verb"][words.index("the", 1)] > 0.5  # "the" after "fixed"
    assert not slot["agrees"].any() and not slot["object"].any()


@pytest.mark.parametrize("sentence, agrees, objects", [
    ("the engineer fixed the bridge before she left", ["she"], ["bridge"]),
    ("a car and a book it", ["it"], []),
    ("the doctor saw the teacher and he left the house", ["he"], ["teacher", "house"]),
    ("she left", [], []),  # no noun before she: coreference leaves her on herself
])
def test_each_unit_fires_for_the_words_its_rule_names(sentence, agrees, objects):
    words = sentence.split()
    r = layer.forward(words)
    fired = {unit: [w for w, u in zip(words, r.hidden[:, k]) if u > 0] for k, unit in enumerate(layer.UNITS)}
    assert fired == {"agrees": agrees, "object": objects}
    # what fires lands in its own slot, and only there
    for k, unit in enumerate(layer.UNITS):
        np.testing.assert_array_equal(r.mlp[:, layer.STREAM.index(unit)], r.hidden[:, k])
    assert np.count_nonzero(r.mlp[:, :-len(layer.UNITS)]) == 0


def test_bad_input_raises_as_the_bench_does():
    with pytest.raises(ValueError, match="unknown word"):
        layer.forward(["the", "zzz"])
    with pytest.raises(ValueError):
        layer.forward(["the", "car"], temperature=0)


@settings(max_examples=25, deadline=None)
@given(words=sentences)
def test_cl064_joining_and_projecting_is_adding_each_heads_own_write(words):
    """CL-064: Concat(O¹…Oʰ) W_O = Σ O⁽ʰ⁾ W_O⁽ʰ⁾, W_O⁽ʰ⁾ the block of rows for head h's part."""
    r = layer.forward(words)
    d_v = r.heads[0].output.shape[1]
    writes = [h.output @ r.W_O[k * d_v:(k + 1) * d_v] for k, h in enumerate(r.heads)]  # each (n, d_model)
    np.testing.assert_allclose(sum(writes), r.projected, atol=1e-12)
    assert r.concat.shape[1] == d_v * len(r.heads) == r.W_O.shape[0]
