"""attention.trained_layer: the weights file is what the model gives, byte for byte; the first
layer run from it is the full model's to AGREEMENT, on sentences the tests generate; its steps
are the model's own; without the file, the bridge asks for it (CL-060)."""

from __future__ import annotations

import hashlib
import io
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention import bench, trained_layer
from attention.figures import fig_010
from attention.protocol import bridge

sentences = st.lists(st.sampled_from(sorted(bench.LEXICON)), min_size=1, max_size=bench.MAX_WORDS)


def test_the_weights_file_is_the_models_first_layer_byte_for_byte():
    out = io.BytesIO()
    np.savez(out, **trained_layer.extract())
    assert out.getvalue() == trained_layer.WEIGHTS.read_bytes()
    assert hashlib.sha256(out.getvalue()).hexdigest() == trained_layer.WEIGHTS_SHA256
    assert trained_layer.weights_name() == f"minilm_first_layer.{trained_layer.WEIGHTS_SHA256[:12]}.npz"


@settings(max_examples=15, deadline=None)
@given(sentences)
def test_the_files_first_layer_gives_the_full_models_sizes(words):
    """Every step's length and every head's write, for every token, within AGREEMENT of the
    whole model's in float64 (the file keeps the weights in float16)."""
    tokens, record, writes = trained_layer.steps(words)
    full_tokens, full, full_writes = trained_layer.model_steps(words)
    assert tokens == full_tokens
    for key in trained_layer.STEPS:
        np.testing.assert_allclose(np.linalg.norm(record[key], axis=-1),
                                   np.linalg.norm(full[key], axis=-1), rtol=trained_layer.AGREEMENT)
    np.testing.assert_allclose(np.linalg.norm(writes, axis=-1), np.linalg.norm(full_writes, axis=-1),
                               rtol=trained_layer.AGREEMENT)


def test_the_rounding_is_seen_by_the_agreement_check():
    """The tolerance is not loose enough to pass anything: 8-bit-like rounding of the
    weights fails it."""
    w, config, rows = trained_layer.weights()
    coarse = {k: np.round(v * 16) / 16 for k, v in w.items()}
    from attention.trained_model import embed, layer_steps
    ids = [rows[t] for t in ["[CLS]", *bench.DEFAULT_SENTENCE, "[SEP]"]]
    a = layer_steps(embed(ids, w, config), w, 0, config)["output"]
    b = layer_steps(embed(ids, coarse, config), coarse, 0, config)["output"]
    rel = np.abs(np.linalg.norm(a, axis=-1) - np.linalg.norm(b, axis=-1)) / np.linalg.norm(a, axis=-1)
    assert rel.max() > trained_layer.AGREEMENT


def test_the_models_steps_end_where_its_forward_ends():
    """The measured steps are the model’s own (CL-064 for its heads): run to the last layer they end in the hidden
    states attention.trained_model.forward returns (checked against transformers in
    tests/test_trained.py), and the heads' writes add up to the projection."""
    from attention import trained_model

    m = trained_model.load()
    _, ids, _ = trained_model.tokenize(list(bench.DEFAULT_SENTENCE), m)
    tokens, record, writes = trained_layer.model_steps(bench.DEFAULT_SENTENCE, layer=trained_model.LAYERS - 1)
    np.testing.assert_allclose(record["output"], trained_model.forward(ids, m)[0], atol=1e-10)
    tokens, record, writes = trained_layer.model_steps(bench.DEFAULT_SENTENCE)
    bias = m.weights["encoder.layer.0.attention.output.dense.bias"]
    np.testing.assert_allclose(writes.sum(axis=0) + bias, record["projected"], atol=1e-10)
    np.testing.assert_allclose(record["after_attention"], record["x"] + record["projected"], atol=1e-12)
    assert tokens == ["[CLS]", *bench.DEFAULT_SENTENCE, "[SEP]"]


def test_cl060_the_heads_together_write_about_a_third_of_the_residual_and_each_head_less():
    s = trained_layer.sizes(bench.DEFAULT_SENTENCE)
    x = np.array(s["steps"]["x"])[1:-1]
    projected = np.array(s["steps"]["projected"])[1:-1]
    heads = np.array(s["heads"])[:, 1:-1]  # (12, words)
    assert 0.25 < (projected / x).mean() < 0.42
    assert (heads < projected).all()
    assert len(heads) == 12
    assert np.array(s["steps"]["output"]).std() > 0.5  # learned gains: not one length for every word, unlike √d


def test_the_figure_follows_a_sentence_and_its_default_word():
    d = fig_010.data("the engineer left")
    assert d["words"] == ["the", "engineer", "left"] and d["word"] == {"index": 2, "word": "left"}
    assert d["count"] == "three words"
    assert all(len(s["toy"]) == len(s["trained"]) == 3 for s in d["steps"])
    assert [len(h) for h in d["heads"]["trained"]] == [3] * 12
    s = trained_layer.sizes(["the", "engineer", "left"])
    assert d["steps"][0]["trained"][1] == f"{s['steps']['x'][2]:.3f}"


@pytest.fixture
def no_weights(monkeypatch, tmp_path):
    trained_layer.weights.cache_clear()
    monkeypatch.setattr(trained_layer, "WEIGHTS", tmp_path / "minilm_first_layer.npz")
    yield tmp_path / "minilm_first_layer.npz"
    trained_layer.weights.cache_clear()


def test_without_the_file_the_bridge_asks_for_it_then_answers(no_weights):
    request = json.dumps({"figure": "fig-010", "sentence": "the engineer left"})
    text = bridge.handle_json(request)
    assert text.startswith(bridge.NEEDS)
    answer = json.loads(text)
    assert answer["ok"] is False and answer["errors"][0]["message"]
    assert answer["needs"] == {"file": trained_layer.weights_name(), "path": str(no_weights)}
    # what the worker does: the file written where Python reads it, the same request again
    no_weights.write_bytes((trained_layer.Path(fig_010.__file__).parents[1] / "data"
                            / "minilm_first_layer.npz").read_bytes())
    again = json.loads(bridge.handle_json(request))  # not the remembered "needs" answer
    assert again["ok"] is True and again["data"]["words"] == ["the", "engineer", "left"]


def test_a_bad_sentence_is_refused_by_field_before_the_weights_are_asked_for(no_weights):
    answer = json.loads(bridge.handle_json(json.dumps({"figure": "fig-010", "sentence": "the zzz"})))
    assert "needs" not in answer and answer["errors"][0]["field"] == "sentence"
    answer = json.loads(bridge.handle_json(json.dumps({"figure": "fig-010", "sentence": 7})))
    assert answer["errors"] == [{"field": "sentence", "message": "The sentence must be text."}]


def test_the_claim_and_the_figure_say_the_agreement_the_tests_check():
    import tomllib

    claims = tomllib.loads((trained_layer.Path(__file__).parents[1] / "templates" / "claims.toml")
                           .read_text(encoding="utf-8"))["claims"]
    said = f"{trained_layer.AGREEMENT * 100:g} %"
    assert said in claims["CL-060"]["measurement"]
    assert fig_010.data()["download"]["within"] + " %" == said
