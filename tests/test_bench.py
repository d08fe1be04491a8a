"""The bench's four heads, checked against rules written out plainly from word classes."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention import bench
from attention.bench import HEADS, LEXICON, MAX_WORDS
from attention.lexicon import WORDS

PRONOUN_TARGET = {True: "person noun", False: "thing noun"}


def kind(word):
    """Name a word's kind: 'person noun', 'thing noun', or its class (any edition's word)."""
    e = WORDS[word]
    if e.word_class == "noun":
        return "person noun" if e.person else "thing noun"
    return e.word_class


def nearest_before(words, i, wanted):
    """Return the position of the nearest word before i whose kind is wanted, or None."""
    for j in range(i - 1, -1, -1):
        if kind(words[j]) == wanted:
            return j
    return None


def expected(words, head, i):
    """The position that word i must put most weight on, by the head's plain rule."""
    if head == "previous-token":
        return max(i - 1, 0)
    if head == "coreference" and WORDS[words[i]].word_class == "pronoun":
        j = nearest_before(words, i, PRONOUN_TARGET[WORDS[words[i]].person])
        return i if j is None else j
    if head == "verb-lookup" and WORDS[words[i]].word_class == "noun":
        j = nearest_before(words, i, "verb")
        return i if j is None else j
    return 0


def check_sentence(words):
    for head in HEADS:
        W = bench.weights(words, head)
        for i, row in enumerate(W):
            t = expected(words, head, i)
            others = np.delete(row, t)
            assert row[t] >= 0.5, (head, words, i, t, row.round(3))
            assert (others.size == 0 or row[t] > others.max()), (head, words, i, t)


SENTENCES = [
    "the engineer fixed the bridge before she left",
    "she wrote the report",  # pronoun first: looks at itself
    "he read the book and it",
    "the book on the car and she left",  # only thing nouns before she
    "the teacher and the doctor read the letter because she cared",  # nearer person wins
    "the car and the bridge and the engineer saw that it moved",  # it skips the engineer
    "wrote the letter",  # verb first: letter -> wrote
    "the pilot drove the car then the farmer sold it",
    "they fixed the engine",
    "the artist painted the picture and they sold it",
    "the student read the book then he wrote the report on it",
    "it",
    "engineer",
    "the the the",
    "teacher doctor she",
    "book bridge it",
    "the nurse saw the driver when she opened the door",
    "a chef and a singer built a house with a garden near the road",
    "every clerk signed the report but no lawyer read it",
    "the baker cleaned the machine while the writer checked the map",
    "he and she and they and it",
    "this engine moved that grid under the bridge",
    "found lost sold the car",
]
LONG = (
    "the engineer wrote the report and the teacher read it then the doctor fixed the car "
    "because she saw the bridge and the pilot built a house with a garden near the road "
    "so he painted the door"
)


@pytest.mark.parametrize("text", SENTENCES + [LONG])
def test_hand_written_sentences(text):
    check_sentence(bench.tokenize(text))


def test_default_sentence():
    words = bench.DEFAULT_SENTENCE
    assert len(words) == 8
    check_sentence(list(words))
    # It shows every behaviour: she skips the nearer thing noun, a noun finds a verb,
    # and a noun with no verb before it looks at itself.
    assert expected(words, "coreference", 6) == 1
    assert expected(words, "verb-lookup", 4) == 2
    assert expected(words, "verb-lookup", 1) == 1


def test_forty_word_sentence():
    words = bench.tokenize(LONG)
    words = (words * 2)[:MAX_WORDS]
    assert len(words) == MAX_WORDS
    check_sentence(words)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(sorted(LEXICON)), min_size=1, max_size=MAX_WORDS))
def test_random_sentences(words):
    check_sentence(words)


# One word per kind: every word of a kind has the same feature row at the same position.
REPRESENTATIVE = {
    "determiner": "the", "person noun": "engineer", "thing noun": "book", "verb": "wrote",
    "person pronoun": "she", "thing pronoun": "it", "other": "and",
}


def representative_kind(word):
    e = LEXICON[word]
    if e.word_class == "pronoun":
        return "person pronoun" if e.person else "thing pronoun"
    return kind(word)


def test_words_of_one_kind_encode_alike():
    for word in LEXICON:
        rep = REPRESENTATIVE[representative_kind(word)]
        assert bench.encode([word]).tolist() == bench.encode([rep]).tolist(), word


def wanted_kind(head, query_kind):
    """The kind a query looks for under the head's rule, or None if it falls back to 0."""
    if head == "coreference" and query_kind in ("person pronoun", "thing pronoun"):
        return query_kind.replace("pronoun", "noun")
    if head == "verb-lookup" and query_kind in ("person noun", "thing noun"):
        return "verb"
    return None


def allowed_kinds(head, query_kind, i, t, p):
    """The kinds position p may hold when word i (of query_kind) must look at t."""
    wanted = wanted_kind(head, query_kind)
    if p == i:
        return [query_kind]
    if wanted is None or p < t < i:
        return list(REPRESENTATIVE)
    if p == t:
        return [wanted]
    return [k for k in REPRESENTATIVE if k != wanted]  # after t (or t is i): no nearer match


def targets(head, query_kind, i):
    if head == "previous-token":
        return [max(i - 1, 0)]
    if wanted_kind(head, query_kind):
        return list(range(i + 1))
    return [0]


@pytest.mark.parametrize("head", list(HEADS))
def test_worst_case_over_every_sentence(head):
    # A key's score is (query . its word's key) + (query . its position's key), so the
    # worst sentence for a row puts, at each other position, the best-scoring word the
    # rule allows there. Checking that worst case covers all sentences up to 40 words.
    h = HEADS[head]
    K = {k: bench.encode([w] * MAX_WORDS) @ h.W_K for k, w in REPRESENTATIVE.items()}
    worst = 1.0
    for qk, qw in REPRESENTATIVE.items():
        for i in range(MAX_WORDS):
            q = bench.encode([qw] * (i + 1))[i] @ h.W_Q
            s = {k: K[k][: i + 1] @ q / math.sqrt(8) for k in K}
            for t in targets(head, qk, i):
                kinds = [allowed_kinds(head, qk, i, t, p) for p in range(i + 1)]
                own = min(s[k][t] for k in kinds[t])
                rival = [max(s[k][p] for k in kinds[p]) for p in range(i + 1) if p != t]
                assert all(r < own for r in rival), (qk, i, t)
                worst = min(worst, 1 / (1 + sum(math.exp(r - own) for r in rival)))
    assert worst >= 0.55, worst


# The rows of DEFAULT_SENTENCE that demonstrate each head's behaviour, and their targets.
DEMONSTRATED = {
    "previous-token": [(i, i - 1) for i in range(1, 8)],
    "sink": [(i, 0) for i in range(1, 8)],
    "coreference": [(6, 1)],  # she -> engineer
    "verb-lookup": [(4, 2)],  # bridge -> fixed
}


@pytest.mark.parametrize("head", list(HEADS))
def test_default_sentence_rows_stay_soft(head):
    # A clear winner with visible traces of the rest: the margins are no larger than needed.
    words = bench.DEFAULT_SENTENCE
    W = bench.weights(words, head)
    for i, t in DEMONSTRATED[head]:
        assert expected(words, head, i) == t
        assert 0.55 <= W[i, t] < 0.97, (head, i, W[i].round(3))
        assert W[i, t] == W[i].max()


@pytest.mark.parametrize("head", list(HEADS))
def test_temperature_moves_the_default_rows(head):
    # The page's log slider runs from 0.05 to 20: each demonstrated row (the pronoun row of
    # coreference among them) turns one-hot at one end and visibly flatter at the other.
    words = bench.DEFAULT_SENTENCE
    cold, warm, hot = (bench.weights(words, head, temperature=t) for t in (0.05, 1.0, 20.0))
    for i, t in DEMONSTRATED[head]:
        assert cold[i, t] > 0.99, (head, i)
        assert hot[i].max() <= warm[i].max() - 0.2, (head, i, warm[i].round(3), hot[i].round(3))


def test_weights_are_readable_numbers():
    # Every entry of W_Q and W_K has at most 3 significant digits, e.g. -0.12, 7.7, -250.
    for name, h in HEADS.items():
        for W in (h.W_Q, h.W_K):
            for v in W.ravel():
                assert float(f"{v:.3g}") == v, (name, v)


def test_first_word_fallback_for_pronouns_is_impossible():
    # Why a pronoun with no antecedent looks at itself: with keys of one kind at
    # positions 0 and 3, the score gap is the same in both sentences, but the first
    # sentence would need position 0 to win and the second needs position 3.
    a = bench.tokenize("the car and the book she")
    b = bench.tokenize("teacher and the doctor read she")
    for head in HEADS:
        sa, sb = bench.trace(a, head).scores, bench.trace(b, head).scores
        assert math.isclose(sa[5, 3] - sa[5, 0], sb[5, 3] - sb[5, 0], abs_tol=1e-9)
    assert expected(b, "coreference", 5) == 3


def test_shapes_and_rows():
    words = bench.tokenize(LONG)
    n = len(words)
    assert bench.encode(words).shape == (n, 11)
    assert len(bench.FEATURES) == 11
    for name, h in HEADS.items():
        assert h.name == name
        assert h.W_Q.shape == h.W_K.shape == (11, 8)
        assert h.W_V.shape[0] == 11
        for W in (h.W_Q, h.W_K, h.W_V):
            assert not W.flags.writeable
        assert h.behaviour and h.why
        W = bench.weights(words, name)
        assert W.shape == (n, n)
        assert np.allclose(W.sum(axis=1), 1.0, rtol=0, atol=1e-12)
        assert (W[np.triu_indices(n, k=1)] == 0).all()
    assert list(HEADS) == ["previous-token", "sink", "coreference", "verb-lookup"]


def test_lexicon():
    assert len(LEXICON) >= 60
    assert {w for w, e in LEXICON.items() if e.word_class == "pronoun"} == {
        "he", "she", "it", "they"}
    assert LEXICON["she"].person and LEXICON["he"].person and not LEXICON["it"].person
    assert LEXICON["engineer"].person and not LEXICON["bridge"].person
    assert {e.word_class for e in LEXICON.values()} == set(bench.CLASSES)
    assert all(w == w.lower() for w in LEXICON)
    with pytest.raises(TypeError):
        LEXICON["zorp"] = LEXICON["the"]


def test_tokenize():
    assert bench.tokenize("The Engineer, she READ it; then: done! ok?") == [
        "the", "engineer", "she", "read", "it", "then", "done", "ok"]
    assert bench.tokenize("  ,  ") == []


def test_positional_columns():
    X = bench.encode(["the"] * MAX_WORDS)
    for p in range(MAX_WORDS):
        w1, w2 = bench.OMEGA1, bench.OMEGA2
        want = [math.sin(w1 * p), math.cos(w1 * p), math.sin(w2 * p), math.cos(w2 * p)]
        assert np.allclose(X[p, 7:], want, rtol=0, atol=1e-15)
    assert bench.FEATURES[7:] == ("sin1", "cos1", "sin2", "cos2")


def test_causal_mask():
    m = bench.causal_mask(4)
    assert m.dtype == bool and m.shape == (4, 4)
    assert m.tolist() == [[j <= i for j in range(4)] for i in range(4)]
    for bad in (0, -1, 2.5, "3"):
        with pytest.raises(ValueError, match="whole number"):
            bench.causal_mask(bad)


def test_encode_ignores_case():
    assert bench.encode(["The", "ENGINEER"]).tolist() == bench.encode(["the", "engineer"]).tolist()


def test_unknown_words_are_all_named():
    with pytest.raises(ValueError) as err:
        bench.encode(["the", "zorp", "car", "blix"])
    assert "'zorp'" in str(err.value) and "'blix'" in str(err.value)
    with pytest.raises(ValueError, match="unknown word: 7"):
        bench.encode(["the", 7])


@pytest.mark.parametrize(
    "words, message",
    [([], "empty"), (["the"] * (MAX_WORDS + 1), "at most 40"), ("the car", "not a string")],
)
def test_bad_sentences(words, message):
    with pytest.raises(ValueError, match=message):
        bench.encode(words)


def test_unknown_head_lists_the_names():
    with pytest.raises(ValueError) as err:
        bench.weights(["the"], "induction")
    for name in HEADS:
        assert name in str(err.value)


@pytest.mark.parametrize("t", [0, -1.0, float("nan"), float("inf"), "hot"])
def test_bad_temperature(t):
    with pytest.raises(ValueError, match="temperature"):
        bench.weights(["the", "car"], "sink", temperature=t)


def test_extra_mask():
    words = ["the", "engineer", "read", "she"]
    shut = np.ones((4, 4), dtype=bool)
    shut[3, 1] = False  # hide the engineer from she
    W = bench.trace(words, "coreference", mask=shut).weights
    assert W[3, 1] == 0 and W[3].argmax() == 3
    shut = np.ones((4, 4), dtype=bool)
    shut[2, :3] = False  # row 2 sees nothing
    with pytest.raises(ValueError, match="row 2"):
        bench.trace(words, "sink", mask=shut)
    with pytest.raises(ValueError, match="mask"):
        bench.trace(words, "sink", mask=np.ones((3, 3), dtype=bool))


def test_temperature_flattens():
    hot = bench.weights(bench.DEFAULT_SENTENCE, "sink", temperature=1000.0)
    cold = bench.weights(bench.DEFAULT_SENTENCE, "sink")
    assert hot[7, 0] < cold[7, 0]
