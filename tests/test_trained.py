"""The trained model: the NumPy forward pass against transformers, the head search's scores
on weights whose answer is known by construction, and the committed data file."""

from __future__ import annotations

import json
import tempfile
import zipfile

import numpy as np
import pytest

from attention import bench, trained, trained_model, trained_search, trained_view

# Sentences for the reference check: none is an example, and they use words and lengths
# the examples do not (one is a single word, one is long).
REFERENCE = [
    "the doctor saw a bridge and she painted it",
    "it",
    "every nurse cared",
    "the writer drove the car to the garden because they liked it and then he sold the "
    "engine of the machine",
    "she read",
]


@pytest.fixture(scope="session")
def reference():
    """transformers' own BertModel with eager attention, loaded once from the same zip."""
    import torch  # installed by make test (the reference extra): missing is a failure, not a skip
    import transformers
    assert torch.__version__.startswith("2.13.0")
    folder = tempfile.mkdtemp(prefix="minilm-")
    zipfile.ZipFile(trained_model._zip_path()).extractall(folder)
    model = transformers.BertModel.from_pretrained(folder, attn_implementation="eager").eval()
    tokenizer = transformers.BertTokenizerFast.from_pretrained(folder)

    def run(words):
        enc = tokenizer(" ".join(words), return_tensors="pt")
        with torch.no_grad():
            out = model(**enc, output_attentions=True)
        tokens = tokenizer.convert_ids_to_tokens(enc["input_ids"][0])
        return tokens, np.stack([a[0].numpy() for a in out.attentions])

    return run


def test_reference_sentences_are_not_examples():
    assert not set(REFERENCE) & set(trained.EXAMPLES)


@pytest.mark.parametrize("text", REFERENCE)
def test_every_weight_matches_transformers(reference, text):
    words = text.split()
    tokens, W = trained_model.attention(words)
    ref_tokens, R = reference(words)
    assert tokens == ref_tokens
    assert tokens[0] == "[CLS]" and tokens[-1] == "[SEP]"
    assert W.shape == (6, 12, len(tokens), len(tokens)) == R.shape
    assert np.abs(W - R).max() < 1e-4


def test_every_head_goes_through_attend(monkeypatch):
    calls = []
    real = trained_model.attend

    def spy(Q, K, V, *args, **kwargs):
        calls.append(np.shape(Q))
        return real(Q, K, V, *args, **kwargs)

    monkeypatch.setattr(trained_model, "attend", spy)
    tokens, _ = trained_model.attention(["she", "left"])
    assert calls == [(len(tokens), 384 // 12)] * (6 * 12)


def test_gelu_and_layer_norm_by_hand():
    # Φ(1) = 0.841344746..., so GELU(1) = Φ(1) and GELU(-1) = -(1 - Φ(1)).
    assert trained_model.gelu(np.array([1.0, -1.0])) == pytest.approx([0.8413447461, -0.1586552539])
    out = trained_model.layer_norm(np.array([[2.0, 4.0, 6.0]]), np.array([1.0, 2.0, 1.0]),
                             np.array([0.0, 0.0, 10.0]), 0.0)
    s = np.sqrt(8 / 3)  # the biased standard deviation of 2, 4, 6
    assert out[0].tolist() == pytest.approx([-2 / s, 0.0, 10 + 2 / s])


def test_every_lexicon_word_is_one_wordpiece_token():
    words = list(bench.LEXICON)
    tokens, _, word_ids = trained_model.tokenize(words)
    assert trained_search.word_tokens(words, tokens, word_ids) == list(range(1, len(words) + 1))
    assert tokens[1:-1] == words


def test_a_split_word_is_refused():
    with pytest.raises(ValueError, match="several WordPiece tokens"):
        trained_search.word_tokens(["engineering"], ["[CLS]", "engineer", "##ing", "[SEP]"],
                            [None, 0, 0, None])


# ---------------------------------------------------------------- the scores, by construction

SENT = "the pilot saw the car before he left".split()  # 8 words, 10 tokens


def _one_hot(targets_by_token, n=10, layers=1, heads=1):
    """Weights whose every row puts all its weight on one chosen key (rest: uniform)."""
    W = np.full((layers, heads, n, n), 1.0 / n)
    for q, t in targets_by_token.items():
        W[:, :, q] = 0.0
        W[:, :, q, t] = 1.0
    return W


def test_targets_follow_the_hand_set_rules():
    # the(0) pilot(1) saw(2) the(3) car(4) before(5) he(6) left(7)
    assert trained_search.targets(SENT, "previous-token") == {i: i - 1 for i in range(1, 8)}
    assert trained_search.targets(SENT, "sink") == {i: -1 for i in range(8)}
    assert trained_search.targets(SENT, "coreference") == {6: 1}  # he -> pilot, not car
    assert trained_search.targets(SENT, "verb-lookup") == {4: 2}  # car -> saw; pilot has no verb
    words = "the book and the letter and it".split()
    assert trained_search.targets(words, "coreference") == {6: 4}  # it -> the nearest thing
    with pytest.raises(ValueError, match="unknown behaviour 'induction'"):
        trained_search.targets(words, "induction")


def test_previous_token_score_is_one_for_a_perfect_head_and_one_over_n_for_uniform():
    perfect = _one_hot({q: q - 1 for q in range(2, 10)})
    uniform = np.full((1, 1, 10, 10), 0.1)
    assert trained_search.scores([perfect], [SENT])["previous-token"][0, 0] == pytest.approx(1.0)
    assert trained_search.scores([uniform], [SENT])["previous-token"][0, 0] == pytest.approx(0.1)


def test_sink_score_is_the_mean_weight_on_cls():
    W = np.zeros((1, 1, 10, 10))
    W[0, 0, :, 0] = 0.5  # every row: half on [CLS] ...
    W[0, 0, :, 9] = 0.5  # ... half on [SEP]
    W[0, 0, 1, 0], W[0, 0, 1, 9] = 0.9, 0.1  # but the first word: 0.9 on [CLS]
    # 8 words: seven give 0.5 and one gives 0.9
    assert trained_search.scores([W], [SENT])["sink"][0, 0] == pytest.approx((7 * 0.5 + 0.9) / 8)


def test_scores_pool_pairs_across_sentences_and_heads_stay_apart():
    other = "a farmer built the house and then he sold it".split()  # he -> farmer, it -> house
    W1 = np.zeros((1, 2, 10, 10))
    W1[0, 0, 7, 2] = 1.0  # head 0: he (token 7) -> pilot (token 2), fully
    W2 = np.zeros((1, 2, 12, 12))
    W2[0, 0, 8, 2], W2[0, 0, 10, 5] = 0.25, 0.5  # he (8) -> farmer (2); it (10) -> house (5)
    W2[0, 1, 10, 5] = 0.3  # head 1 only on the last pair
    s = trained_search.scores([W1, W2], [SENT, other])["coreference"]
    assert s[0, 0] == pytest.approx((1.0 + 0.25 + 0.5) / 3)
    assert s[0, 1] == pytest.approx(0.3 / 3)


def test_search_picks_the_best_head_and_reports_the_even_baseline():
    W = np.full((2, 3, 10, 10), 0.1)
    W[1, 2] = _one_hot({5: 3})[0, 0]  # layer 1 head 2: car (token 5) -> saw (token 3)
    W[0, 1] = _one_hot({5: 3})[0, 0] * 0.6 + 0.04  # a weaker one: 0.6 + 0.04 on saw
    r = trained_search.search([W], [SENT])["verb-lookup"]
    assert (r["layer"], r["head"], r["pairs"], r["top"]) == (1, 2, 1, 1.0)
    assert r["score"] == pytest.approx(1.0)
    assert (r["runner_up"]["layer"], r["runner_up"]["head"]) == (0, 1)
    assert r["runner_up"]["score"] == pytest.approx(0.64)
    assert r["baseline"] == pytest.approx(1 / 10)


# ---------------------------------------------------------------- the committed data


def test_top_counts_the_pairs_whose_target_wins_the_row():
    W = np.full((1, 1, 10, 10), 0.1)
    W[0, 0, 7, 2], W[0, 0, 7, 3] = 0.3, 0.1  # he -> pilot wins its row
    W[0, 0, 5, 3], W[0, 0, 5, 1] = 0.2, 0.3  # car -> saw loses to "the"
    assert trained_search.search([W], [SENT])["coreference"]["top"] == 1.0
    assert trained_search.search([W], [SENT])["verb-lookup"]["top"] == 0.0


def test_regenerated_data_equals_the_committed_file():
    assert trained.dumps(trained.build_data()) == trained.DATA.read_text(encoding="utf-8")


def test_the_committed_data_has_every_head_for_every_example():
    d = trained_view.data()
    assert (d["layers"], d["heads"]) == (trained_view.LAYERS, trained_view.HEADS)
    assert trained.EXAMPLES[0] == " ".join(bench.DEFAULT_SENTENCE)
    assert [e["text"] for e in d["examples"]] == list(trained.EXAMPLES)
    assert len(d["search"]["sentences"]) >= 12
    for e in d["examples"]:
        n = len(e["words"]) + 2
        assert e["tokens"] == ["[CLS]", *e["words"], "[SEP]"]
        assert len(e["rows"]) == 6 and all(len(layer) == 12 for layer in e["rows"])
        for layer in e["rows"]:
            for rows in layer:
                cells = [[float(x) for x in row.split(" ")] for row in rows]
                assert np.array(cells).shape == (n, n)
                assert np.abs(np.sum(cells, axis=1) - 1).max() < 0.01  # rounding only


def test_committed_rows_are_the_model_rounded_to_three_places():
    example = trained_view.data()["examples"][0]
    _, W = trained_model.attention(example["words"])
    shown = np.array([[float(x) for x in row.split(" ")] for row in example["rows"][4][5]])
    assert np.abs(shown - W[4, 5]).max() <= 0.0005 + 1e-12


def test_search_results_match_a_recount_from_the_model():
    words = [s.split() for s in trained.SEARCH]
    weights = [trained_model.attention(w)[1] for w in words]
    d = trained_view.data()["search"]["results"]
    # previous-token, recounted directly: mean of W[l, h, k + 1, k] over words k >= 1
    prev = np.mean([W[:, :, k + 1, k] for W, ws in zip(weights, words)
                    for k in range(1, len(ws))], axis=0)  # (6, 12)
    layer, head = np.unravel_index(prev.argmax(), prev.shape)
    assert (d["previous-token"]["layer"], d["previous-token"]["head"]) == (layer, head)
    assert float(d["previous-token"]["score"]) == pytest.approx(prev.max(), abs=0.0005)
    # sink: mean weight on token 0 from every word token
    sink = np.mean([W[:, :, k + 1, 0] for W, ws in zip(weights, words)
                    for k in range(len(ws))], axis=0)
    assert (d["sink"]["layer"], d["sink"]["head"]) == np.unravel_index(sink.argmax(), sink.shape)


def test_data_file_is_valid_json_of_modest_size():
    text = trained.DATA.read_text(encoding="utf-8")
    assert len(text.encode()) < 400_000
    json.loads(text)


def test_importing_the_package_loads_none_of_the_optional_libraries():
    import subprocess
    import sys

    code = ("import sys, attention, attention.trained, attention.protocol.bridge, attention.figures\n"
            "extra = {'safetensors', 'tokenizers', 'torch', 'transformers', 'all_minilm_l6_v2'}\n"
            "print(sorted(extra & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_verb_lookup_match_fades_for_nouns_far_from_their_verb():
    """CL-051 says the best verb-lookup head gives much less to a noun further from its verb."""
    r = trained_view.measured()["verb-lookup"]
    near, far = [], []
    for text in trained.SEARCH:
        words = text.split()
        W = trained_model.attention(words)[1][r["layer"], r["head"]]
        for i, j in trained_search.targets(words, "verb-lookup").items():
            (near if i - j == 2 else far).append(W[i + 1, j + 1])
    assert far and near
    assert np.mean(far) < np.mean(near) / 2
