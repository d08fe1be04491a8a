"""Predict, then reveal: each question's right answer, worked out here from the scores."""

import json
import math

import pytest

from attention import bench, quiz
from attention.protocol import bridge


def bench_scores(words, head, temperature=1.0):
    """Every (query, key) score ÷ √8 ÷ T, rebuilt here from the encoding and W_Q, W_K."""
    X = bench.encode(words)  # (n, 11)
    h = bench.HEADS[head]
    n = len(words)
    Q = [[sum(X[i, f] * h.W_Q[f, c] for f in range(11)) for c in range(8)] for i in range(n)]
    K = [[sum(X[j, f] * h.W_K[f, c] for f in range(11)) for c in range(8)] for j in range(n)]
    return [[sum(a * b for a, b in zip(Q[i], K[j])) / math.sqrt(8) / temperature
             for j in range(n)] for i in range(n)]


def weights_by_hand(z, keys):
    top = max(z[j] for j in keys)
    e = {j: math.exp(z[j] - top) for j in keys}
    return {j: e[j] / sum(e.values()) for j in keys}


def questions(**state):
    return {q["id"]: q for q in quiz.view(**state)["questions"]}


def answer_label(q):
    return next(c["label"] for c in q["choices"] if c["id"] == q["answer"])


@pytest.mark.parametrize("state", [{}, {"head": "previous-token", "query": 4},
                                   {"sentence": "the pilot saw the car and it left", "head": "verb-lookup", "query": 4}])
def test_shutting_the_top_key_sends_the_query_to_the_runner_up(state):
    words = (state.get("sentence") or " ".join(bench.DEFAULT_SENTENCE)).split()
    head = state.get("head", "coreference")
    i = state.get("query", 6)
    z = bench_scores(words, head)[i]
    before = weights_by_hand(z, range(i + 1))
    ranked = sorted(before, key=lambda j: -before[j])
    q = questions(**state)["shut-top"]
    w = words[ranked[0]]
    top = w if words.count(w) == 1 else f"{w} (word {ranked[0]})"  # a repeated word says which
    assert q["prompt"] == f"Shut the stopcock of “{top}”: where does “{words[i]}” look now?"
    assert q["answer"] == f"w{ranked[1]}"  # renormalising keeps the ratios
    after = weights_by_hand(z, [j for j in range(i + 1) if j != ranked[0]])
    assert f"{after[ranked[1]]:.3f} of the unit" in q["explanation"]
    assert q["answer"] in [c["id"] for c in q["choices"]] and len(q["choices"]) >= 2


@pytest.mark.parametrize("head", list(bench.HEADS))
@pytest.mark.parametrize("temperature", ["0.1", "1", "10"])
def test_every_question_offers_a_choice(head, temperature):
    """A reader met "where does “engineer” look now?" with one button: with "the" shut only
    "engineer" itself is left. Every question has two or more choices, the answer among them;
    when shutting the top key leaves one open key (counted here from the causal mask), there is
    no such question."""
    words = list(bench.DEFAULT_SENTENCE)
    for i in range(len(words)):
        qs = questions(head=head, query=i, temperature=temperature)
        for q in qs.values():
            ids = [c["id"] for c in q["choices"]]
            assert len(ids) >= 2 and len(set(ids)) == len(ids) and q["answer"] in ids, (i, q)
        left = i  # the keys 0..i the mask opens, less the top one
        if left < 2:
            assert "shut-top" not in qs, i


def test_a_colder_bench_gives_the_top_key_more():
    words = list(bench.DEFAULT_SENTENCE)
    warm = weights_by_hand(bench_scores(words, "coreference", 1.0)[6], range(7))
    cold = weights_by_hand(bench_scores(words, "coreference", 0.2)[6], range(7))
    q = questions()["temperature"]
    assert q["prompt"] == ("At T = 0.2, does “engineer” get more or less of the unit “she” "
                           "shares out than now, at T = 1?")  # no “she”’s: a quote then an apostrophe
    assert q["answer"] == "more" and cold[1] > warm[1]
    assert f"{cold[1]:.3f} instead of {warm[1]:.3f}" in q["explanation"]
    hot = questions(temperature="0.1")["temperature"]
    assert hot["prompt"].startswith("At T = 5,") and hot["answer"] == "less"


def test_without_the_mask_the_sinks_first_word_still_looks_at_itself():
    words = list(bench.DEFAULT_SENTENCE)
    z = bench_scores(words, "sink")[0]
    w = weights_by_hand(z, range(8))  # no causal mask: every key
    q = questions()["sink-unmasked"]
    best = max(w, key=w.get)
    assert best == 0 and q["answer"] == "w0"
    assert f"with {w[0]:.3f}" in q["explanation"] and 0 < 1 - w[0]


def test_the_naive_question_overflows_exactly_when_a_z_passes_ln_max():
    for head in bench.HEADS:
        words = list(bench.DEFAULT_SENTENCE)
        z = bench_scores(words, head, quiz.NAIVE_T)[6][:7]
        overflow = max(z) > math.log(1.7976931348623157e308)
        underflow = max(z) < -745.2  # every e^z below the smallest subnormal
        q = questions(head=head)["naive"]
        assert q["answer"] == ("undefined" if overflow or underflow else "same"), head


def test_the_quiz_goes_through_the_bridge_as_json():
    answer = json.loads(bridge.handle_json('{"figure": "quiz", "head": "sink", "query": 2}'))
    assert answer["ok"] and len(answer["data"]["questions"]) >= 3
    assert answer["data"]["state"]["head"] == "sink"
    bad = json.loads(bridge.handle_json('{"figure": "quiz", "query": 99}'))
    assert not bad["ok"] and bad["errors"][0]["field"] == "query"


@pytest.mark.parametrize("head", list(bench.HEADS))
def test_no_question_puts_a_closing_quote_against_an_apostrophe(head):
    """“she”’s reads as a typo: the questions say “the weights of “she”” instead."""
    for query in range(len(bench.DEFAULT_SENTENCE)):
        for q in quiz.view(head=head, query=query)["questions"]:
            texts = [q["prompt"], q["explanation"], *(c["label"] for c in q["choices"])]
            assert not any("”’" in t for t in texts), (head, query, q["id"])


def test_a_repeated_query_word_says_which_one_it_is():
    """With the second “the” as the query, “where does “the” look” could mean either."""
    sentence = "the pilot saw the car and it left"
    for q in quiz.view(sentence=sentence, query=3)["questions"]:
        if q["id"] != "sink-unmasked":  # that one is about the first word, whatever the query
            assert "“the (word 3)”" in q["prompt"], q["prompt"]
            assert "“the”" not in q["prompt"], q["prompt"]


@pytest.mark.parametrize("temperature", ["0.01", "0.1", "1", "5"])
def test_a_share_that_does_not_move_is_given_once(temperature):
    """Not “1.000 instead of 1.000”: a share that reads the same at both temperatures is one number."""
    for head in bench.HEADS:
        for query in range(len(bench.DEFAULT_SENTENCE)):
            q = questions(head=head, query=query, temperature=temperature).get("temperature")
            if q is None:  # the first word: one key, nothing to ask
                assert query == 0
                continue
            shown = q["explanation"].split(". ")[0]
            numbers = [t for t in shown.replace(":", "").split() if t[0].isdigit()]
            assert len(numbers) == 1 or numbers[0] != numbers[1], (head, query, shown)
            if len(numbers) == 1:
                assert q["answer"] == "same" and shown.endswith("at both temperatures"), shown


def test_a_query_with_one_key_open_is_not_asked_about_the_temperature():
    """It keeps the whole unit at any T: “does “the (word 0)” get more of the unit “the (word 0)”
    shares out” asks nothing."""
    assert "temperature" not in questions(query=0)
    assert "temperature" not in questions(query=2, shut=[0, 1])  # one key left open
    assert "temperature" in questions(query=2, shut=[0])


def test_the_naive_question_says_which_exponential_overflows():
    words = list(bench.DEFAULT_SENTENCE)
    z = bench_scores(words, "coreference", quiz.NAIVE_T)[6][:7]  # “she” and the words before it
    ln_max = math.log(1.7976931348623157e308)
    over = sorted((j for j in range(7) if z[j] > ln_max), key=lambda j: -z[j])
    assert [words[j] for j in over] == ["engineer", "she"]
    q = questions()["naive"]
    assert q["answer"] == "undefined"
    assert q["explanation"].startswith(
        f"No weights: eᶻ of “engineer” overflows (as does that of “she”): its z is {z[over[0]]:.3f}, "
        f"and past z = {ln_max:.3f}, eᶻ is more than 1.8×10³⁰⁸, the largest double (64-bit float), "
        "so the naive weights are undefined.")


def test_a_runner_up_too_small_to_show_is_not_said_to_have_had_nothing():
    """“it had 0.000” reads as no share at all: the runner-up always has some (eᶻ > 0)."""
    words = list(bench.DEFAULT_SENTENCE)
    z = bench_scores(words, "coreference")[2]  # “fixed”: the first word takes nearly all
    before = weights_by_hand(z, range(3))
    ranked = sorted(before, key=lambda j: -before[j])
    assert 0 < before[ranked[1]] < 0.0005  # shown as 0.000 on the bench
    q = questions(query=2)["shut-top"]
    assert q["answer"] == f"w{ranked[1]}"
    assert "(it had less than 0.0005, shown as 0.000)" in q["explanation"]
    assert "it had 0.000)" not in q["explanation"]


def test_the_first_word_is_named_as_its_choice_names_it():
    """The prompt said “the” while its choice said “the (word 0)”: the same word, two names."""
    q = questions(sentence="the pilot saw the car and it left")["sink-unmasked"]
    assert "the first word, “the (word 0)”, look" in q["prompt"]
    assert "the (word 0)" in [c["label"] for c in q["choices"]]


def test_a_key_that_already_takes_the_whole_unit_is_asked_about_a_warmer_bench():
    """Asked whether a key showing 1.000 gets more at T = 0.2, the reader could only say “more”
    and be told “about the same”; at T = 5 the question is whether it gives any back."""
    words = list(bench.DEFAULT_SENTENCE)
    now = weights_by_hand(bench_scores(words, "coreference", 1.0)[2], range(3))  # “fixed”
    top = max(now, key=now.get)
    assert f"{now[top]:.3f}" == "1.000"
    warm = weights_by_hand(bench_scores(words, "coreference", 5.0)[2], range(3))
    q = questions(query=2)["temperature"]
    assert q["prompt"].startswith("At T = 5, does “the (word 0)” get more or less")
    assert q["answer"] == ("same" if f"{warm[top]:.3f}" == "1.000" else "less")
    assert f"{warm[top]:.3f}" in q["explanation"]


@pytest.mark.parametrize("temperature", ["1", "2", "5"])
def test_the_sinks_first_word_is_said_to_keep_most_only_when_it_keeps_more_than_half(temperature):
    """A teacher's pass: at T = 2 the explanation said the first word "keeps most of it on
    itself" beside 0.416 on itself and 0.584 on the later words."""
    words = list(bench.DEFAULT_SENTENCE)
    z = bench_scores(words, "sink", float(temperature))[0]
    w = weights_by_hand(z, range(8))
    said = questions(temperature=temperature)["sink-unmasked"]["explanation"]
    assert ("keeps most of it on itself" in said) == (w[0] > 0.5), (w[0], said)
    assert (w[0] > 0.5) or "less than half" in said
