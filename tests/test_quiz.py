"""Predict, then reveal: each question's right answer, worked out here from the scores."""

import json
import math

import pytest

from attention import bench, bridge, quiz


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


def test_a_colder_bench_gives_the_top_key_more():
    words = list(bench.DEFAULT_SENTENCE)
    warm = weights_by_hand(bench_scores(words, "coreference", 1.0)[6], range(7))
    cold = weights_by_hand(bench_scores(words, "coreference", 0.2)[6], range(7))
    q = questions()["temperature"]
    assert q["prompt"].startswith("At T = 0.2, does “engineer” get more or less")
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
