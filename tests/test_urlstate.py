"""Reading a figure's state from a shared address, one parameter at a time."""

import pytest

from attention import bench, bench_view, lab
from attention.protocol import registry


def test_a_lab_address_round_trips():
    view = lab.view(["-0.5", "2"], mask=[True, False, True], temperature="0.3")
    url = registry.to_url("lab", view)
    assert url == {"q": "-0.5,2", "mask": "1,0,1", "t": "0.3"}
    state, notices = registry.from_url("lab", url)
    assert notices == [] and lab.view(**state) == view


def test_a_bench_address_round_trips():
    sentence = "the pilot saw the car and she left"
    view = bench_view.view(sentence, "verb-lookup", query=4, temperature="2.5", shut=[1])
    url = registry.to_url("bench", view)
    assert url == {"sentence": sentence, "head": "verb-lookup", "query": "4", "t": "2.5", "shut": "1"}
    state, notices = registry.from_url("bench", url)
    assert notices == [] and bench_view.view(**state) == view


def test_the_default_sentence_is_left_out_of_the_address():
    assert "sentence" not in registry.to_url("bench", bench_view.view())


@pytest.mark.parametrize(
    "figure, params, kept, notice",
    [
        ("lab", {"t": "abc", "q": "0,0"}, {"query": ["0", "0"]}, "Ignored t=abc: “abc” is not a number."),
        ("lab", {"t": "-1"}, {}, "Ignored t=-1: T must be greater than 0"),
        ("lab", {"q": "1"}, {}, "Ignored q=1: Expected two numbers"),
        ("lab", {"mask": "0,0,0"}, {}, "Ignored mask=0,0,0: No key is allowed"),
        ("lab", {"mask": "1,2,1"}, {}, "Ignored mask=1,2,1: Expected 3 values of 0 or 1"),
        ("bench", {"head": "<script>alert(1)</script>"}, {}, "Ignored head=<script>alert(1)</script>: Choose one"),
        ("bench", {"sentence": "<img src=x onerror=alert(1)>"}, {}, "Ignored sentence=<img src=x onerror=alert(1)>: Not in the lexicon"),
        ("bench", {"sentence": "the " * 2500}, {}, "Ignored sentence: longer than 500 characters."),
        ("bench", {"query": "99"}, {}, "Ignored query=99: The query must be a word position from 0 to 7."),
        ("bench", {"shut": "0,1,2,3,4,5,6"}, {}, "Ignored shut=0,1,2,3,4,5,6: Every key “she” may use is shut"),
        ("bench", {"shut": "a"}, {}, "Ignored shut=a: Expected word positions"),
        ("bench", {"zoom": "2"}, {}, "Ignored unknown parameter zoom."),
        ("fig-002", {"query": "power"}, {}, "Ignored query=power: Choose one of grid, load, rises."),
    ],
)
def test_bad_parameters_are_dropped_one_by_one(figure, params, kept, notice):
    state, notices = registry.from_url(figure, params)
    assert state == kept
    assert any(n.startswith(notice) for n in notices), notices


def test_good_parameters_survive_a_bad_neighbour():
    state, notices = registry.from_url(
        "bench", {"sentence": "the teacher read it", "head": "nope", "query": "1", "t": "0"})
    assert state == {"sentence": "the teacher read it", "query": 1}
    assert len(notices) == 2
    assert bench_view.view(**state)["query"]["word"] == "teacher"


def test_long_notices_quote_a_short_part_of_the_value():
    _, notices = registry.from_url("bench", {"head": "x" * 400})
    assert len(notices[0]) < 200 and "x" * 40 + "…" in notices[0]


def test_every_lexicon_word_is_accepted():
    words = list(bench.LEXICON)[: bench.MAX_WORDS]
    state, notices = registry.from_url("bench", {"sentence": " ".join(words)})
    assert notices == [] and state["sentence"] == " ".join(words)


def test_without_round_trips_in_canonical_order():
    state, notices = registry.from_url("bench", {"without": "shift,mask,scale,shift"})
    assert notices == [] and state == {"without": ["scale", "mask", "shift"]}
    view = bench_view.view(**state)
    assert registry.to_url("bench", view) == {"head": "coreference", "query": "6", "t": "1",
                                              "without": "scale,mask,shift"}
    lab_view = lab.view(without=["shift", "scale"])
    assert registry.to_url("lab", lab_view)["without"] == "scale,shift"
    assert "without" not in registry.to_url("lab", lab.view())


def test_bad_without_values_are_dropped_one_by_one():
    state, notices = registry.from_url("bench", {"without": "zoom,shift,<img src=x>", "t": "2"})
    assert state == {"temperature": "2", "without": ["shift"]}
    assert notices == ["Ignored without=zoom: Choose scale, mask or shift.",
                       "Ignored without=<img src=x>: Choose scale, mask or shift."]
    state, notices = registry.from_url("lab", {"without": "mask,scale"})
    assert state == {"without": ["scale"]}
    assert notices == ["Ignored without=mask: The lab has no causal mask to remove."]
    state, notices = registry.from_url("lab", {"without": ",,,"})
    assert state == {} and notices == []
    _, notices = registry.from_url("bench", {"without": ",".join(f"x{k}" for k in range(50))})
    assert len(notices) == 5  # a flood of bad values gets a few notices, not fifty
