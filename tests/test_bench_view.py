"""The bench page's data: the working table, the matrix and the drawing's geometry."""

import json
import math
import re

import numpy as np
import pytest

from attention import bench, bench_drawing, bench_view, bench_whatif


def test_default_view_is_the_pronoun_under_coreference():
    v = bench_view.view()
    assert v["sentence"]["words"] == list(bench.DEFAULT_SENTENCE)
    assert v["query"]["word"] == "she" and v["head"]["name"] == "coreference"
    assert v["state"] == {"sentence": " ".join(bench.DEFAULT_SENTENCE), "head": "coreference",
                          "query": 6, "temperature": "1", "shut": []}
    json.dumps(v, allow_nan=False)  # plain, JSON-safe data


def test_rows_match_the_model_trace():
    words = ["the", "pilot", "saw", "the", "car", "and", "he", "drove", "it"]
    v = bench_view.view(" ".join(words), "verb-lookup", query=4, temperature="0.7")
    tr = bench.trace(words, "verb-lookup", 0.7)
    for j, row in enumerate(v["rows"]):
        assert row["dot"]["value"] == tr.scores[4, j]
        assert row["tempered"]["value"] == tr.tempered[4, j]
        assert row["weight"]["value"] == tr.weights[4, j]
        assert row["future"] == (j > 4) and row["allowed"] == (j <= 4)
    assert v["rows"][2]["weight"]["value"] == tr.weights[4].max()  # car -> saw


@pytest.mark.parametrize(("kwargs", "open_keys"), [
    ({}, range(7)),  # "she" sees the words up to itself
    ({"query": 4, "shut": [1, 2], "temperature": "0.4"}, [0, 3, 4]),
])
def test_the_total_row_is_the_sum_each_weight_divides(kwargs, open_keys):
    # FIG-005's last row, by hand from the raw scores: e^(z − max) over the keys that get
    # weight, z = q·k / √8 / T; each weight is its e^(z − max) over that sum, and they sum to 1.
    v = bench_view.view(**kwargs)
    i, t = v["query"]["index"], float(v["temperature"]["text"])
    z = [v["rows"][j]["dot"]["value"] / math.sqrt(8) / t for j in open_keys]
    e = [math.exp(x - max(z)) for x in z]
    assert v["total"]["exp"]["value"] == pytest.approx(sum(e), rel=1e-12)
    assert v["total"]["exp"]["text"] == f"{sum(e):.3f}"
    for j, ej in zip(open_keys, e):
        assert v["rows"][j]["weight"]["value"] == pytest.approx(ej / sum(e), rel=1e-12)
    assert v["total"]["weight"]["text"] == "1.000" and i in open_keys


def test_matrix_hides_the_future_and_shows_each_weight():
    v = bench_view.view()
    tr = bench.trace(list(bench.DEFAULT_SENTENCE), "coreference")
    n = len(bench.DEFAULT_SENTENCE)
    for r in range(n):
        for c in range(n):
            cell = v["matrix"][r][c]
            if c > r:
                assert cell is None
            else:
                assert list(cell) == [f"{tr.weights[r, c]:.3f}", int(round(tr.weights[r, c] * 10))]


def test_a_shut_key_is_shut_for_every_query():
    v = bench_view.view(shut=[1])
    assert v["shut"] == [1] and v["rows"][1]["shut"] and not v["rows"][1]["allowed"]
    assert all(row[1] is None for row in v["matrix"])
    assert v["rows"][1]["weight"]["value"] == 0.0
    assert v["drawing"]["valves"][1]["open"] is False
    # Row 1 ("engineer") still sees "the"; row 0 would be empty only if "the" were shut.
    empty_first = bench_view.view(shut=[0], query=6)
    assert list(empty_first["matrix"][0]) == [None] * len(bench.DEFAULT_SENTENCE)


def test_drawing_geometry():
    v = bench_view.view(temperature="3")
    d = v["drawing"]
    tray = d["tray_y"]
    assert sum(s["height"] for s in d["strata"]) == pytest.approx(bench_drawing.TRAY_HEIGHT, abs=0.01)
    assert d["strata"][0]["y"] + d["strata"][0]["height"] == pytest.approx(tray + 4 + 150, abs=0.01)
    assert [dial["state"] for dial in d["dials"]][7] == "dead"  # "left" comes after "she"
    assert d["plate"] == "÷ √8 ÷ T (3)"
    assert bench_view.view()["drawing"]["plate"] == "÷ √8"
    assert d["viewbox"] == "0 0 800 600"


SENTENCES = [None, "the farmer saw the doctor and he left", "the pilot read the map then it moved",
             "a nurse and a chef cleaned the car"]


@pytest.mark.parametrize("sentence", SENTENCES)
@pytest.mark.parametrize("head", sorted(bench.HEADS))
def test_dials_read_the_raw_score_and_the_winner_stands_upright(sentence, head):
    words = list(bench.DEFAULT_SENTENCE) if sentence is None else sentence.split()
    tr = bench.trace(words, head)
    for i in range(1, len(words)):
        dials = bench_view.view(sentence, head, query=i)["drawing"]["dials"]
        scores = tr.scores[i, : i + 1] / math.sqrt(8)  # z at T = 1: the keys word i may use
        best = int(np.argmax(scores))
        assert dials[best]["angle"] == 0 and dials[best]["best"]
        for j, dial in enumerate(dials[: i + 1]):
            gap = scores[best] - scores[j]
            # the number is the raw q·k; the needle is upright for the best, flat at DIAL_SPAN
            # below, after the plate (z), as caption 2 says
            assert dial["angle"] == pytest.approx(-90 * min(gap / bench_drawing.DIAL_SPAN, 1), abs=0.01)
            assert dial["reading"] == f"{tr.scores[i, j]:.3f}".replace("-", "−")
            if j != best and gap > 1e-9:
                assert dial["angle"] < 0 and not dial["best"]
        assert all(dial["state"] == "dead" for dial in dials[i + 1:])


def test_the_needles_are_read_after_the_plate_so_temperature_moves_them():
    """A needle stands for z = q·k ÷ √8 ÷ T against the best: halving T doubles every gap."""
    angles = lambda **kw: [d["angle"] for d in bench_view.view(**kw)["drawing"]["dials"]]  # noqa: E731
    z = bench.trace(list(bench.DEFAULT_SENTENCE), "coreference").tempered[6, :7]
    for t in (0.5, 1, 2):
        gaps = (z.max() - z) / t
        assert angles(temperature=str(t))[:7] == pytest.approx(
            [-90 * min(g / bench_drawing.DIAL_SPAN, 1) for g in gaps], abs=0.01)
    assert angles(temperature="0.5") != angles(temperature="2")


def test_each_dial_shows_the_tables_q_dot_k():
    v = bench_view.view(head="previous-token", query=5, shut=[2])
    for dial, row in zip(v["drawing"]["dials"], v["rows"]):
        assert dial["reading"] == row["dot"]["text"]
        assert row["dot"]["text"] in dial["label"] and f"{row['word']}, word {row['index']}" in dial["label"]
    assert v["drawing"]["dials"][2]["state"] == "shut" and "shut" in v["drawing"]["dials"][2]["label"]


def test_repeated_words_are_told_apart_by_their_position():
    # Review 4: at 40 words "engineer" showed five times in the drawing and the matrix, with
    # nothing to tell which was which. A repeated word is named with its position, as a
    # subscript, wherever the drawing and the matrix name words; a word said once is not.
    sentence = ("the engineer saw the teacher and the engineer read the book " * 4).split()[:40]
    v = bench_view.view(" ".join(sentence))
    named = v["sentence"]["names"]
    assert named[:4] == ["the₀", "engineer₁", "saw₂", "the₃"] and named[-1] == "the₃₉"
    assert len(set(named)) == len(sentence)  # every word told apart
    assert [d["word"] for d in v["drawing"]["dials"]] == named
    assert v["drawing"]["carriage"]["word"] == named[v["query"]["index"]]
    assert v["sentence"]["words"] == sentence and v["query"]["word"] in sentence  # the words stay
    once = bench_view.view("she wrote the report")
    assert once["sentence"]["names"] == once["sentence"]["words"] == ["she", "wrote", "the", "report"]


def test_forty_words_wrap_into_rows_that_do_not_overlap():
    sentence = " ".join(["the", "engineer", "fixed", "the", "bridge"] * 8)
    d = bench_view.view(sentence)["drawing"]
    dials = d["dials"]
    rows = sorted({dial["y"] for dial in dials})
    assert len(rows) == 5 and min(b - a for a, b in zip(rows, rows[1:])) >= 150
    for y in rows:
        xs = sorted(dial["x"] for dial in dials if dial["y"] == y)
        assert len(xs) == bench_drawing.COLUMNS and min(b - a for a, b in zip(xs, xs[1:])) >= 90
    assert d["plate_box"]["y"] > max(rows) + 100  # the labels of the last row fit above it
    valves = d["valves"]
    assert len({(v["x"], v["y"]) for v in valves}) == 40
    assert d["tray_y"] > max(v["y"] for v in valves) + 30
    assert d["viewbox"] == f"0 0 800 {d['tray_y'] + 166}"
    # 40 words, 40 looks: colour and texture together tell every word apart
    assert len({(s["colour"], s["pattern"]) for s in d["strata"]}) == 40


def test_stopcock_handles_are_drawn_with_attributes():
    valves = bench_view.view(shut=[1])["drawing"]["valves"]
    for v in valves:
        x1, y1, x2, y2 = v["handle"]
        assert (x1 == x2) == v["open"] and (y1 == y2) == (not v["open"])  # open: upright
    assert valves[1]["state"] == "shut" and valves[0]["state"] == "open"
    assert valves[7]["state"] == "shut (it comes after the query)" and not valves[7]["can_turn"]


def test_matrix_masks_tell_the_causal_mask_from_shut_keys():
    v = bench_view.view(head="sink", shut=[0], query=3)
    assert v["masks"][0] == "s" + "f" * 7  # row "the": its only key is shut
    assert v["masks"][3] == "saaa" + "f" * 4
    assert v["empty"][0] is True and not any(v["empty"][1:])
    assert list(v["matrix"][0]) == [None] * 8


def test_typed_text_says_how_it_was_read():
    v = bench_view.view("The Engineer fixed the bridge, before she left!")
    assert v["sentence"]["note"] == ("Read as “the engineer fixed the bridge before she left”: "
                                     "lower-cased, punctuation dropped.")
    assert bench_view.view("the engineer fixed it")["sentence"]["note"] == ""
    assert bench_view.view()["sentence"]["note"] == ""


def test_unknown_words_come_with_a_way_forward():
    # Review 4: "the cat sat on the mat because it was tired" was refused, naming the words
    # but saying nothing of what to do. The message says how many words the bench knows (as
    # many as its list under the drawing shows), and what to swap.
    with pytest.raises(bench_view.BenchInputError) as refused:
        bench_view.view("the cat sat on the mat because it was tired")
    message = str(refused.value)
    assert message.startswith("Not in the lexicon: “cat”, “sat”, “mat”, “was”, “tired”.")
    listed = sum(len(group["words"]) for group in bench_view.lexicon())
    assert f"knows only its {listed} words:" in message
    assert "a noun for a noun, a verb for a verb." in message


def test_the_lexicon_is_grouped_by_class():
    groups = bench_view.lexicon()
    assert [g["class"] for g in groups] == list(bench.CLASSES)
    assert sorted(w for g in groups for w in g["words"]) == sorted(bench.LEXICON)
    for g in groups:
        assert all(bench.LEXICON[w].word_class == g["class"] for w in g["words"])
    words = {w for g in groups for w in g["words"]}
    assert "grid" in words and "load" not in words and "rises" not in words


def test_summary_names_the_heaviest_words_first():
    assert bench_view.view()["summary"] == "query she: engineer 0.835, she 0.165"


@pytest.mark.parametrize(
    "kwargs, field, words",
    [
        ({"sentence": "the zorp read the blorp"}, "sentence", "Not in the lexicon: “zorp”, “blorp”"),
        ({"sentence": "the techer read it"}, "sentence", "“techer” (try teacher"),
        ({"sentence": "   "}, "sentence", "Type a sentence of at least one word."),
        ({"sentence": " ".join(["the"] * 41)}, "sentence", "Use at most 40 words; this sentence has 41."),
        ({"sentence": 42}, "sentence", "The sentence must be text."),
        ({"head": "induction"}, "head", "Choose one of the heads: previous-token, sink, coreference, verb-lookup."),
        ({"query": 8}, "query", "from 0 to 7"),
        ({"query": "x"}, "query", "must be a word position"),
        ({"query": 1.5}, "query", "from 0 to 7"),
        ({"query": True}, "query", "must be a word position"),
        ({"shut": [0, 1, 2, 3, 4, 5, 6]}, "shut", "Every key “she” may use is shut: nothing to pour."),
        ({"shut": "all"}, "shut", "must be a list of word positions"),
        ({"shut": [99]}, "shut", "from 0 to 7"),
        ({"temperature": "0"}, "temperature", "T must be greater than 0"),
        ({"slider": -1}, "temperature", "keep the slider between 0 and 1000"),
    ],
)
def test_bad_input_names_its_field(kwargs, field, words):
    with pytest.raises(bench_view.BenchInputError) as err:
        bench_view.view(**kwargs)
    assert err.value.field == field and words in str(err.value)


def test_forty_words_are_fine():
    sentence = " ".join(["the", "engineer", "fixed", "the", "bridge"] * 8)
    v = bench_view.view(sentence)
    assert len(v["rows"]) == 40 and len(v["matrix"]) == 40
    assert all(dial["word"] for dial in v["drawing"]["dials"])  # every dial keeps its label


def test_heads_tables_show_every_weight_that_is_not_zero():
    for h in bench_view.heads():
        head = bench.HEADS[h["name"]]
        for name in ("W_Q", "W_K"):
            W = getattr(head, name)
            assert [row["feature"] for row in h[name]] == list(bench.FEATURES)
            for row, values in zip(h[name], W):
                assert [float(c.replace("−", "-")) for c in row["cells"]] == values[h["channels"]].tolist()
            hidden = [c for c in range(W.shape[1]) if c not in h["channels"]]
            assert not W[:, hidden].any() and len(hidden) == h["unused"]


# ---- What if a step were missing: the counterfactual on the drawing ----

def _raw_scores(head, words=None):
    """q·k for every pair, rebuilt here by sums from the encoding and the head's W_Q, W_K."""
    words = list(bench.DEFAULT_SENTENCE) if words is None else words
    X = bench.encode(words)
    h = bench.HEADS[head]
    n, f, d = len(words), X.shape[1], h.W_Q.shape[1]
    Q = [[sum(X[i, a] * h.W_Q[a, c] for a in range(f)) for c in range(d)] for i in range(n)]
    K = [[sum(X[j, a] * h.W_K[a, c] for a in range(f)) for c in range(d)] for j in range(n)]
    return [[sum(Q[i][c] * K[j][c] for c in range(d)) for j in range(n)] for i in range(n)]


def test_with_no_step_removed_the_drawing_has_no_whatif_layer():
    d = bench_view.view()["drawing"]
    assert d["whatif"] is None and d["viewbox"] == "0 0 800 600"


@pytest.mark.parametrize("head, query, shut", [("previous-token", 5, []), ("coreference", 6, [0]),
                                               ("verb-lookup", 7, [2, 3])])
def test_without_scaling_ghost_needles_lean_root_eight_times_as_far(head, query, shut):
    S = _raw_scores(head)[query]
    open_keys = [j for j in range(query + 1) if j not in shut]
    best = max(S[j] for j in open_keys)
    v = bench_view.view(head=head, query=query, shut=shut, without=["scale"])
    w = v["drawing"]["whatif"]
    assert [g["index"] for g in w["ghosts"]] == open_keys  # one ghost per open key, no more
    for g in w["ghosts"]:
        gap = (best - S[g["index"]]) / math.sqrt(8)  # z below the best; flat at DIAL_SPAN
        span = bench_drawing.DIAL_SPAN
        real = -90 * min(gap / span, 1)
        ghost = -90 * min(gap * math.sqrt(8) / span, 1)  # its softmax input is √8 times as far
        assert v["drawing"]["dials"][g["index"]]["angle"] == pytest.approx(real, abs=0.01)
        assert g["angle"] == pytest.approx(ghost, abs=0.01)
        assert g["off"] == (gap * math.sqrt(8) >= span)
        dial = v["drawing"]["dials"][g["index"]]
        assert (g["x"], g["y"]) == (dial["x"], dial["y"])  # on its own dial
        # an upright needle's tip: at the needle's length, past the rim when off the scale
        assert g["end"] == -(v["drawing"]["needle"] + (bench_whatif.GHOST_PAST if g["off"] else 0))


def test_ghosts_that_fall_off_the_scale_are_counted_in_the_note():
    # previous-token, query "before" (5): q·k of its keys, by hand, below the best ("bridge")
    S = _raw_scores("previous-token")[5]
    gaps = [(max(S[:6]) - s) / math.sqrt(8) for s in S[:6]]  # z below the best
    span = bench_drawing.DIAL_SPAN
    newly = sum(g < span and g * math.sqrt(8) >= span for g in gaps)  # on the scale, flat now
    flat = sum(g * math.sqrt(8) >= span for g in gaps)  # every dashed needle drawn flat
    assert (newly, flat) == (5, 5)  # every flat one is flat only without the division
    w = bench_view.view(head="previous-token", query=5, without=["scale"])["drawing"]["whatif"]
    note = [line["text"] for line in w["note"]]
    assert note == ["Dashed: this row without ÷√8.",  # a sentence a line, in plain words
                    "Dashed needles: its scores.", "Dashed tray on the left: its weights.",
                    "5 dashed needles lie flat (red tip):", "those keys would get almost nothing."]


def test_the_note_counts_every_dashed_needle_drawn_flat():
    """A reader saw "No dashed needle lies flat." beside five flat dashed needles: those whose
    real needle lay flat too were not counted. (Coreference, "she", without ÷√8.)"""
    S = _raw_scores("coreference")[6]
    gaps = [(max(S[:7]) - s) / math.sqrt(8) for s in S[:7]]  # z below the best, by hand
    span = bench_drawing.DIAL_SPAN
    flat = sum(g * math.sqrt(8) >= span for g in gaps)
    assert flat == 5 and all(g >= span for g in gaps if g * math.sqrt(8) >= span)
    note = " ".join(line["text"] for line in bench_view.view(
        head="coreference", query=6, without=["scale"])["drawing"]["whatif"]["note"])
    assert "No dashed needle" not in note
    assert ("5 dashed needles lie flat (red tip), as the real ones do: those keys get almost "
            "nothing either way.") in note


def test_without_the_max_shift_the_ghosts_stand_on_the_real_needles():
    v = bench_view.view(head="verb-lookup", query=4, without=["shift"])
    dials = v["drawing"]["dials"]
    for g in v["drawing"]["whatif"]["ghosts"]:
        assert g["angle"] == dials[g["index"]]["angle"]  # the same softmax inputs: the same angle


def test_the_second_core_sample_holds_the_counterfactual_weights():
    S = _raw_scores("coreference")[6]
    e = [math.exp(s - max(S[:7])) for s in S[:7]]  # without ÷√8: softmax of the raw q·k
    weights = [x / sum(e) for x in e] + [0.0]
    v = bench_view.view(without=["scale"])
    d = v["drawing"]
    sample = d["whatif"]["sample"]
    assert [s["height"] for s in sample["strata"]] == pytest.approx([150 * x for x in weights], abs=1e-3)
    bottom = sample["tray"]["y"] + 4 + 150  # the first word at the bottom, as in the real tray
    tops = [bottom - 150 * sum(weights[: j + 1]) for j in range(8)]
    assert [s["y"] for s in sample["strata"]] == pytest.approx(tops, abs=1e-3)
    assert sample["strata"][1]["word"] == "engineer" and sample["strata"][1]["number"] == f"{weights[1]:.3f}"
    # beside the tray, not on it: the sample's tray ends left of the real one (x = 336)
    assert sample["tray"]["x"] + sample["tray"]["width"] < 336 and sample["label_x"] < sample["x"]
    assert sample["tray"]["height"] == d["tray_height"]  # the same scale: one unit, 150 high


def _below_every_stream(drawing: dict, box: dict) -> list[str]:
    """The streams (each a stroke ``flow`` wide along its path from its stopcock) that cross
    the top of ``box``: each stream drops from its stopcock, then runs straight to the tray."""
    crossing = []
    for v in drawing["valves"]:
        half = v["flow"] / 2
        if not half:
            continue
        _, _, _, _, _, drop, _, dx, dy = v["stream"].split()  # M 0 16 L 0 30 L dx dy
        (x1, y1), (x2, y2) = (v["x"], v["y"] + float(drop)), (v["x"] + float(dx), v["y"] + float(dy))
        left, right = max(box["x"], min(x1, x2)), min(box["x"] + box["width"], max(x1, x2))
        for k in range(11):  # along the part of the run above the box
            x = left + (right - left) * k / 10
            y = y1 + (y2 - y1) * (x - x1) / (x2 - x1)
            slope = math.hypot(1, (y2 - y1) / (x2 - x1))  # a slanted stroke is deeper than wide
            if left <= right and y + half * slope >= box["y"]:
                crossing.append(f"{v['word']} at x = {x:.0f}")
        if box["x"] - half <= x1 <= box["x"] + box["width"] + half and y1 + half >= box["y"]:
            crossing.append(f"{v['word']}'s drop")
    return crossing


@pytest.mark.parametrize("sentence", [None, " ".join(["the engineer fixed the bridge"] * 8)])
@pytest.mark.parametrize("head", list(bench.HEADS))
def test_no_stream_crosses_the_counterfactual_sample(sentence, head):
    """The streams run to the top of the tray; the sample beside it sits below them (the
    stream from “engineer” crossed its top edge)."""
    n = len((sentence or " ".join(bench.DEFAULT_SENTENCE)).split())
    for query in range(0, n, 3):
        for without in (["scale"], ["shift"]):
            d = bench_view.view(sentence=sentence, head=head, query=query, temperature="0.05",
                                without=without)["drawing"]
            assert _below_every_stream(d, d["whatif"]["sample"]["tray"]) == [], (query, without)


@pytest.mark.parametrize("without", [["scale"], ["mask"], ["scale", "mask", "shift"]])
def test_the_note_keeps_the_left_tray_on_one_line(without):
    """“the left / sample” broke a phrase in two; the note now says what each dashed part is."""
    for t in ("1", "0.05"):
        w = bench_view.view(temperature=t, without=without)["drawing"]["whatif"]
        lines = [line["text"] for line in w["note"]]
        assert lines[0].startswith("Dashed: this row without")
        assert {"Dashed needles: its scores.", "Dashed tray on the left: its weights."} <= set(lines)


@pytest.mark.parametrize("t", ["1", "0.05"])
def test_without_the_max_shift_alone_the_note_names_no_dashed_needle(t):
    """Each dashed needle lies on its real one (the previous test): “Dashed needles” pointed a
    reader at needles they cannot tell apart, and, when the sample is empty, at nothing."""
    w = bench_view.view(temperature=t, without=["shift"])["drawing"]["whatif"]
    said = [line["text"] for line in w["note"] if not line["failure"]]
    assert said[:2] == ["Dashed: this row without the max-shift.",
                        "Dashed tray on the left: its weights."]
    assert not any("needles:" in line for line in said)
    if w["failure"]:  # T = 0.05: eᶻ overflows, and the note says that instead
        assert len(said) == 2
    else:
        assert " ".join(said[2:]) == "The needles stay put: the max-shift lowers every score alike."
def test_without_the_mask_later_stopcocks_get_open_handles():
    v = bench_view.view(head="sink", query=0, without=["mask"])
    w = v["drawing"]["whatif"]
    assert [g["index"] for g in w["ghosts"]] == list(range(8))  # dead dials get ghosts too
    assert [x["index"] for x in w["valves"]] == list(range(1, 8))
    for x in w["valves"]:
        x1, y1, x2, y2 = x["handle"]
        assert x1 == x2 and y1 < y2  # along the pipe: open, as a real open stopcock is drawn
        valve = v["drawing"]["valves"][x["index"]]
        assert (x["x"], x["y"]) == (valve["x"], valve["y"]) and not valve["open"]
    note = " ".join(line["text"] for line in w["note"])
    assert "Dashed handles: 7 later stopcocks open." in note
    # the first word keeps most of the unit, but no later word falls off the scale: the sink's
    # scores stay within 6.2 of each other, under the dials' span after the division
    assert not any(g["off"] for g in w["ghosts"])
    assert "No dashed needle lies flat." in note


def test_an_overflowing_naive_softmax_draws_no_weights_and_says_so():
    d = bench_view.view(temperature="0.05", without=["shift"])["drawing"]
    w = d["whatif"]
    assert w["failure"] == "overflow" and w["sample"]["strata"] == []
    said = [line["text"] for line in w["note"] if line["failure"]]
    assert " ".join(said[:2]) == ("eᶻ overflows: 1.8×10³⁰⁸ is the largest double; the naive "
                                  "weights are undefined.")
    assert said[2:] == ["no", "weights"]  # inside the empty sample
    assert not any(re.search(r"\d\.\d{3}", line["text"]) for line in w["note"])  # no weight shown
    json.dumps(d, allow_nan=False)


@pytest.mark.parametrize("kwargs", [{"without": ["scale"]}, {"without": ["scale", "mask", "shift"]},
                                    {"without": ["shift"], "temperature": "0.05"},
                                    {"sentence": " ".join(["the", "engineer", "fixed", "the", "bridge"] * 8),
                                     "without": ["mask"]}])
def test_the_whatif_layer_fits_in_the_taller_drawing(kwargs):
    d = bench_view.view(**kwargs)["drawing"]
    height = float(d["viewbox"].split()[3])
    w = d["whatif"]
    lines = [line for line in w["note"] if line["x"] == 400]
    assert lines[0]["y"] == d["tray_y"] + 166 + 34  # the note starts below the old bottom
    assert height == lines[-1]["y"] + 16
    assert all(len(line["text"]) <= bench_whatif.NOTE_CHARS for line in w["note"])
    assert all(0 < line["y"] < height for line in w["note"])


@pytest.mark.parametrize("words", [8, 40])
def test_the_carriage_stays_on_the_rail_clear_of_the_step_badges(words):
    """The badges are circles of radius 11 at x = 20 (fig-004.html), the rail runs from 40 to
    760 and the carriage is 124 wide: at any query its box must start right of 31 and end
    by 800."""
    sentence = " ".join((["the", "pilot", "saw", "it", "and", "she", "left", "the"] * 5)[:words])
    for i in range(words):
        x = bench_view.view(sentence=sentence, query=i)["drawing"]["carriage"]["x"]
        assert 31 < x - 62 and x + 62 <= 800, (i, x)


TWENTY = " ".join((["the", "pilot", "saw", "it", "and", "she", "left", "the", "car"] * 3)[:20])
# Sixteen words the sink head shares almost evenly at T = 100: sixteen labels, 0.053 to 0.072.
SIXTEEN = "a nurse and a chef cleaned the car then she left the map and it moved"
CROWDS = [{}, {"temperature": "3"}, {"temperature": "100"}, {"head": "sink", "query": 3},
          {"sentence": TWENTY, "temperature": "100", "query": 19},
          {"sentence": TWENTY, "temperature": "40", "query": 19},
          {"sentence": " ".join(["the", "engineer", "fixed", "the", "bridge"] * 8), "temperature": "100"},
          {"temperature": "100", "without": ["mask"]},
          {"sentence": SIXTEEN, "head": "sink", "temperature": "100", "query": 15},
          {"sentence": SIXTEEN, "head": "sink", "temperature": "100", "query": 15, "without": ["scale"]}]


@pytest.mark.parametrize("kwargs", CROWDS)
def test_every_stratum_with_a_visible_share_is_labelled_at_every_width_without_overlap(kwargs):
    """A stratum taking 0.05 of the unit or more (7.5 units thick: a band a phone shows) is
    labelled on wide screens and on phones alike; at each width's line pitch no two labels
    overlap, they keep the strata's order, and all of them fit in the drawing."""
    v = bench_view.view(**kwargs)
    d = v["drawing"]
    weights = [r["weight"]["value"] for r in v["rows"]]
    height = float(d["viewbox"].split()[3])
    samples = [d["strata"]] + ([d["whatif"]["sample"]["strata"]] if d.get("whatif") else [])
    for strata in samples:
        shown = [s for s in strata if s["label"]]
        if strata is d["strata"]:
            assert [s["index"] for s in shown] == [j for j, w in enumerate(weights) if w >= 0.05]
        for key, size in (("label_y", "wide"), ("phone_y", "phone")):
            line = bench_drawing.LABEL_LINE[size]
            ys = [s[key] for s in sorted(shown, key=lambda s: -s["index"])]  # top to bottom
            assert all(b - a >= line - 1e-6 for a, b in zip(ys, ys[1:])), (size, ys)
            assert all(y - bench_drawing.LABEL_MID[size] + line / 2 <= height for y in ys), (size, ys)
            for s in shown:  # a leader runs from the stratum's middle to its label's
                mid = s["y"] + s["height"] / 2
                leader = s["leader" if size == "wide" else "phone_leader"].split()
                assert float(leader[2]) == pytest.approx(mid, abs=2e-3)
                assert float(leader[5]) == pytest.approx(s[key] - bench_drawing.LABEL_MID[size], abs=1e-3)


def test_the_default_states_labels_sit_by_their_strata_on_phones_too():
    """The coreference head's "she": 0.835 to "engineer", 0.165 to itself. A 0.165 stratum (25
    units) was labelled on wide screens only; both labels now show everywhere, each at the
    middle of its stratum (there is room), and the drawing keeps its height."""
    d = bench_view.view()["drawing"]
    shown = {s["text"]: s for s in d["strata"] if s["label"]}
    assert sorted(shown) == ["engineer 0.835", "she 0.165"]
    for s in shown.values():
        mid = s["y"] + s["height"] / 2
        assert s["label_y"] == pytest.approx(mid + bench_drawing.LABEL_MID["wide"], abs=1e-3)
        assert s["phone_y"] == pytest.approx(mid + bench_drawing.LABEL_MID["phone"], abs=1e-3)
    assert d["viewbox"] == "0 0 800 600"


def test_a_row_that_comes_out_the_same_says_so_in_the_note():
    """Review 4: without the causal mask, "she" keeps its weights to three decimals, yet the
    note under two identical trays ran to seven lines counting flat dashed needles."""
    w = bench_view.view(without=["mask"])["drawing"]["whatif"]
    lines = [line["text"] for line in w["note"]]
    assert lines[-1] == "They come out the same, to three decimals."
    assert not any("flat" in line for line in lines) and len(lines) <= 5
    # a row that changes still counts its flat needles
    changed = bench_view.view(without=["scale"])["drawing"]["whatif"]
    assert any("lie flat" in line["text"] for line in changed["note"])


def test_the_what_if_table_tells_repeated_words_apart_as_the_drawing_does():
    # Its Key column said "the" twice for the default sentence, beside a drawing and matrix
    # that say the₀ and the₃.
    v = bench_view.view(without="scale")
    keys = [k["word"] for k in v["whatif"]["keys"]]
    assert keys[0] == "the₀" and keys[3] == "the₃" and keys == v["sentence"]["names"]


@pytest.mark.parametrize("n, per_row", [(9, [5, 4]), (10, [5, 5]), (17, [6, 6, 5]), (40, [8] * 5)])
def test_a_sentence_that_wraps_shares_its_dials_evenly_between_rows(n, per_row):
    # Review 4 (Ugly 5): a 10-word sentence put 8 dials in a row and 2 alone under a wide gap.
    words = (["the", "engineer", "fixed", "the", "bridge"] * 8)[:n]
    dials = bench_view.view(" ".join(words))["drawing"]["dials"]
    rows = sorted({d["y"] for d in dials})
    assert [sum(d["y"] == y for d in dials) for y in rows] == per_row
    for y in rows:
        xs = sorted(d["x"] for d in dials if d["y"] == y)
        assert min(b - a for a, b in zip(xs, xs[1:])) >= 90


def test_the_drawing_reads_right_to_left_in_arabic():
    """In Arabic the first word's dial, stopcock and carriage start on the right; the what-if
    drawing's ghost needles sit on the same dials; English is unchanged."""
    from attention import catalog

    def xs(view):
        d = view["drawing"]
        return [dial["x"] for dial in d["dials"]], [v["x"] for v in d["valves"]]

    english = bench_view.view(sentence="the engineer fixed the bridge", query=0, without=["scale"])
    with catalog.speaking("ar"):
        arabic = bench_view.view(sentence="the engineer fixed the bridge", query=0, without=["scale"])
    (en_dials, en_valves), (ar_dials, ar_valves) = xs(english), xs(arabic)
    assert en_dials == sorted(en_dials) and ar_dials == sorted(ar_dials, reverse=True)
    assert ar_valves == [bench_view.WIDTH - x for x in en_valves]
    assert arabic["drawing"]["carriage"]["x"] > bench_view.WIDTH / 2 > english["drawing"]["carriage"]["x"]
    ghost = arabic["drawing"]["whatif"]
    assert ghost and [n["x"] for n in ghost["ghosts"]] == ar_dials[:1]
