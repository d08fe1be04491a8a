"""The bridge between page and Python: valid answers or structured errors, never a crash or NaN."""

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attention import figures
from attention.protocol import bridge


def ask(request) -> dict:
    text = bridge.handle_json(request if isinstance(request, str) else json.dumps(request))
    return json.loads(text)  # the answer must always be valid JSON


def test_fig_002_answers_match_the_figure_builder():
    for token in ("grid", "load", "rises"):
        answer = ask({"figure": "fig-002", "query": token})
        assert answer == {"ok": True, "figure": "fig-002", "data": figures.fig_002.data(token),
                          "url": {"query": token}, "notices": []}


def test_lab_answers_carry_every_stage():
    data = ask({"figure": "lab", "query": ["0", "0"], "temperature": "1"})["data"]
    assert set(data["trace"]) == {"scores", "scaled", "tempered", "shifted", "exp", "weights",
                                  "output"}
    assert data["output"]["text"] == "[0.667, 1.333]"


@pytest.mark.parametrize(
    "request_, field, words",
    [
        ('{"figure": "lab", "temperature": NaN}', None, "NaN is not allowed in a request."),
        ('{"figure": "lab", "query": [Infinity, 1]}', None, "Infinity is not allowed"),
        ("[1, 2]", None, "A request must be a JSON object."),
        ("{not json", None, "A request must be valid JSON."),
        ('{"figure": "fig-999"}', "figure", "Unknown figure"),
        ('{"figure": "lab", "colour": "red"}', "colour", "Unknown field 'colour' for lab."),
        ('{"figure": "fig-002", "query": 3}', "query", "The query must be a token name."),
        ('{"figure": "fig-002", "query": "power"}', None, "unknown query 'power'"),
        ('{"figure": "lab", "query": [1e400, 0]}', None, "The number 1e400 is too large."),
        ('{"figure": "bench", "query": 1e999}', None, "The number 1e999 is too large."),
        ("[" * 5000 + "]" * 5000, None, "at most 20 levels deep"),
        ('{"figure": "lab", "query": ' + "[" * 21 + "]" * 21 + "}", None, "at most 20 levels"),
        ('{"figure": "lab", "query": "' + "[" * 50 + '"}', "query", "The query needs exactly two"),
        ('{"figure": "lab", "query": ["' + "9" * 30_000 + '", 0]}', None, "at most 20000"),
    ],
)
def test_bad_requests_get_structured_errors(request_, field, words):
    answer = ask(request_)
    assert answer["ok"] is False
    assert any(e["field"] == field and words in e["message"] for e in answer["errors"])


def test_non_text_request_is_refused():
    assert json.loads(bridge.handle_json(None))["errors"][0]["message"] == "A request must be JSON text."


# ---- fuzzing: random and hostile JSON must give a valid answer or a structured error ----

json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-10**30, 10**30),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=30),
    st.sampled_from(["NaN", "nan", "Infinity", "-inf", "1e308", "-1e309", "0", "", " ", "1_0"]),
)
json_values = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=10), inner, max_size=6),
    max_leaves=30,
)
fields = st.sampled_from(["figure", "query", "mask", "temperature", "move", "pad", "slider"])
requests = st.one_of(
    json_values,
    st.dictionaries(fields, json_values, max_size=7),
    st.fixed_dictionaries(
        {"figure": st.sampled_from(["bench", "export"])},
        optional={
            "sentence": st.one_of(json_leaf, st.lists(st.sampled_from(["the", "she", "it", "read", "zorp", "<b>"]),
                                                       max_size=45).map(" ".join)),
            "head": st.one_of(json_leaf, st.sampled_from(["sink", "coreference", "verb-lookup"])),
            "query": json_leaf,
            "temperature": json_leaf,
            "slider": json_leaf,
            "shut": st.one_of(st.lists(st.one_of(json_leaf, st.integers(-3, 50)), max_size=50), json_leaf),
            "of": st.sampled_from(["fig-001", "fig-002", "lab", "bench", "bench-matrix", "nope"]),
            "url": st.one_of(json_leaf, st.dictionaries(st.sampled_from(["q", "t", "mask", "head",
                                                                          "sentence", "query", "shut"]),
                                                        json_leaf, max_size=5)),
        },
    ),
    st.fixed_dictionaries(
        {"figure": st.sampled_from(["lab", "fig-002"])},
        optional={
            "query": st.one_of(st.lists(json_leaf, max_size=3), json_leaf),
            "mask": st.one_of(st.lists(st.booleans(), min_size=0, max_size=4), json_leaf),
            "temperature": json_leaf,
            "move": json_leaf,
            "pad": st.one_of(st.lists(json_leaf, max_size=3), json_leaf),
            "slider": json_leaf,
        },
    ),
)


def assert_no_nan(value):
    """Walk an answer: no NaN or infinity anywhere, and no 'nan' in any display text."""
    if isinstance(value, float):
        assert math.isfinite(value)
    elif isinstance(value, dict):
        for v in value.values():
            assert_no_nan(v)
    elif isinstance(value, list):
        for v in value:
            assert_no_nan(v)
    elif isinstance(value, str):  # a display text: tokens, numbers, "−∞"
        assert "nan" not in value.lower() and "inf" not in value.lower(), value


def check_answer(text: str):
    answer = json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} in an answer"))
    assert isinstance(answer, dict) and isinstance(answer["ok"], bool)
    if answer["ok"]:
        assert_no_nan(answer["data"])
        assert "rows" in answer["data"] or "csv" in answer["data"]
    else:
        assert answer["errors"], "an error answer names at least one problem"
        for error in answer["errors"]:
            assert set(error) == {"field", "message"}
            assert isinstance(error["message"], str) and error["message"]
            assert not error["message"].startswith("Internal error")


@settings(max_examples=2500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests)
def test_fuzzed_requests_never_crash_or_show_nan(request_):
    check_answer(bridge.handle_json(json.dumps(request_)))


@settings(max_examples=1000, deadline=None)
@given(st.text(max_size=200))
def test_fuzzed_text_never_crashes(text):
    check_answer(bridge.handle_json(text))


def test_url_state_and_exports_through_the_bridge():
    answer = ask({"figure": "bench", "url": {"head": "sink", "t": "abc"}})
    assert answer["ok"] and answer["data"]["head"]["name"] == "sink"
    assert answer["notices"] == ["Ignored t=abc: “abc” is not a number."]
    assert answer["url"]["head"] == "sink" and answer["url"]["t"] == "1"
    assert ask({"figure": "bench", "url": {}, "head": "sink"})["errors"][0]["field"] == "url"
    download = ask({"figure": "export", "of": "bench-matrix", "url": {"head": "sink"}})["data"]
    assert download["json"]["head"] == "sink" and "query_j,query_word" in download["csv"].splitlines()[0]
    assert ask({"figure": "export", "of": "fig-001", "url": {"x": "1"}})["ok"]


@settings(max_examples=500, deadline=None)
@given(st.from_regex(r'\{"figure": "(lab|bench|fig-002)", "(query|temperature|slider|shut|pad)": '
                     r'\[?-?[0-9]{1,3}(\.[0-9]+)?[eE][+-]?[0-9]{2,4}(, -?[0-9]e[0-9]{3})?\]?\}', fullmatch=True))
def test_fuzzed_huge_numbers_in_raw_json(text):
    check_answer(bridge.handle_json(text))
