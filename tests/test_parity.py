"""Parity: the attention package gives the same answers in Pyodide (under Node) as in CPython.

One Node process (tests/parity.mjs) loads the pinned Pyodide runtime, its numpy wheel and the
attention wheel, all from local files, and answers a grid of a few thousand bridge requests;
CPython answers the same requests. Every answer must have the same structure and the same
display texts, every number must agree to 1e-12 (relative for large magnitudes), and every
error answer must be byte-identical. A missing node or runtime fails the test: it never skips.
"""

from __future__ import annotations

import itertools
import json
import re
import math
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from attention import bench, trained_layer
from attention.protocol import bridge
from sitebuild.answers import in_language
from sitebuild.runtime import ensure_runtime
from sitebuild.wheel import ensure_wheel

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "parity.mjs"
TOL = 1e-12
STAGES = ("scores", "scaled", "tempered", "shifted", "exp", "weights", "output")
NODE_TIMEOUT = 180  # seconds; booting takes a few, the grid a few more

COORDS = ["-1000", "-3", "-1.5", "-0.2", "0", "0.333", "0.7", "2.5", "999.9", "1000"]
TEMPERATURES = ["0.01", "0.05", "0.3", "1", "3.7", "20", "100"]
MASKS = [list(m) for m in itertools.product([True, False], repeat=3) if any(m)]  # 7 masks
SLIDER_STEPS = sorted({*range(0, 1001, 25), 1, 333, 499, 501, 667, 999})
PAD_COORDS = [-7, -3.5, -3, -1.234, -0.005, 0, 0.004, 0.5, 1.255, 2.999, 3.01]
MOVES = ["left", "right", "up", "down"]
TOKENS = ["grid", "load", "rises"]


def _lab(**fields) -> dict:
    return {"figure": "lab", **fields}


def good_requests() -> list[dict]:
    """The grid of valid states: lab queries × masks × temperatures, sliders, pads, moves."""
    out = [{"figure": "fig-002"}] + [{"figure": "fig-002", "query": t} for t in TOKENS]
    out.append(_lab())  # every default
    for q1, q2, mask, t in itertools.product(COORDS, COORDS, MASKS, TEMPERATURES):
        out.append(_lab(query=[q1, q2], mask=mask, temperature=t))
    for q1, q2 in itertools.product(COORDS, COORDS):  # JSON numbers instead of typed text
        out.append(_lab(query=[float(q1), float(q2)], temperature=0.7))
    queries = [["1", "0.5"], ["-3", "2.5"], ["0", "0"], ["999.9", "-1000"], ["0.7", "-0.2"]]
    for step, q, mask in itertools.product(SLIDER_STEPS, queries, [MASKS[0], MASKS[5]]):
        out.append(_lab(query=q, mask=mask, slider=step))
    for x, y in itertools.product(PAD_COORDS, PAD_COORDS):
        out.append(_lab(pad=[x, y], temperature="1"))
        out.append(_lab(pad=[str(x), str(y)], mask=[True, False, True], temperature="0.3"))
    for q1, q2, move in itertools.product(COORDS, COORDS, MOVES):
        out.append(_lab(query=[q1, q2], move=move, temperature="3.7", mask=[False, True, True]))
    for without in (["scale"], ["shift"], ["scale", "shift"]):  # the what-if panel, overflow included
        out.append(_lab(query=["400", "400"], without=without, temperature="0.5"))
        out.append(_lab(query=["1", "1"], without=without))
    for head, t, without in itertools.product(("coreference", "sink"), ("1", "0.05"),
                                              (["scale"], ["mask"], ["shift"], ["scale", "mask", "shift"])):
        out.append({"figure": "bench", "head": head, "temperature": t, "without": without, "shut": [2]})
    out += [{"figure": "quiz"}, {"figure": "quiz", "head": "sink", "query": 0, "temperature": "0.1"}]
    # a class handout of each figure that has one, at a state its address sets (handout.js asks so)
    out += [{"figure": "handout", "of": of, "url": url} for of, url in [
        ("fig-002", {"query": "load"}), ("fig-003", {"q": "0.5,-1", "mask": "1,0,1", "t": "0.5"}),
        ("fig-004", {"query": "3", "head": "sink"}), ("fig-005", {}), ("fig-006", {"t": "0.1"}),
        ("fig-009", {"word": "3", "off": "mlp"}), ("fig-009", {"off": "layer_norm", "silent": "coreference"})]]
    out += [{"figure": "fig-010"}, {"figure": "fig-010", "sentence": "the pilot saw the car before he left"},
            {"figure": "fig-010", "sentence": " ".join(sorted(bench.LEXICON)[:bench.MAX_WORDS])}]
    return out


BAD_REQUESTS = [
    _lab(temperature="0"),
    _lab(temperature="-1"),
    _lab(temperature="1000"),
    _lab(temperature="abc"),
    _lab(temperature="NaN"),
    _lab(temperature="inf"),
    _lab(temperature=""),
    _lab(temperature=True),
    _lab(mask=[False, False, False]),
    _lab(mask=[True, True]),
    _lab(mask=[1, 0, 1]),
    _lab(query=["abc", "1"]),
    _lab(query=["1"]),
    _lab(query="1, 1"),
    _lab(query=["1e9", "1"]),
    _lab(query=["nan", "-inf"]),
    _lab(query=["abc", "1"], temperature="0", mask=[False, False, False]),  # three fields at once
    _lab(slider=1001),
    _lab(slider=-1),
    _lab(slider="x"),
    _lab(pad=[1]),
    _lab(pad=["a", "1"]),
    _lab(pad=[1e7, 0]),
    _lab(query=["1", "1"], move="diagonal"),
    _lab(colour="red"),
    {"figure": "fig-003"},
    {"figure": "FIG-002"},
    {"figure": 2},
    {"query": "grid"},
    {"figure": "fig-002", "query": "cat"},
    {"figure": "fig-002", "query": 5},
    {"figure": "fig-002", "mask": [True, True, True]},
]
# Request texts that are not JSON objects, or carry constants JSON does not have.
BAD_TEXTS = [
    '{"figure": "lab", "temperature": NaN}',
    '{"figure": "lab", "query": [Infinity, 1]}',
    '{"figure": "lab", "query": [-Infinity, 1]}',
    "not json",
    "",
    "[1, 2, 3]",
    "null",
    '"lab"',
    '{"figure": "lab"',
    json.dumps(_lab(query=["1" * 30_000, "1"])),
]


def node_binary() -> str:
    node = shutil.which("node") or ("/usr/bin/node" if Path("/usr/bin/node").exists() else None)
    if node is None:
        pytest.fail("node is not installed: the parity test needs Node.js to run Pyodide")
    return node


def run_pyodide(texts: list[str], files: bool = True) -> dict:
    """Answer every request text in one Pyodide process; return the script's JSON envelope.
    files: give Python the data files it asks for (the trained layer's weights), as the
    site's worker fetches them."""
    runtime = ensure_runtime(log=lambda line: print(line, file=sys.stderr))
    wheel = ensure_wheel()
    check_wheel_matches_loaded_modules(wheel)
    proc = subprocess.run(
        [node_binary(), str(SCRIPT), str(runtime), str(wheel),
         json.dumps({trained_layer.weights_name(): str(trained_layer.WEIGHTS)} if files else {})],
        input=json.dumps(texts), capture_output=True, text=True, timeout=NODE_TIMEOUT,
    )
    if proc.returncode != 0:
        pytest.fail(f"parity.mjs exited with {proc.returncode}:\n{proc.stderr[-4000:]}")
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError:
        pytest.fail(f"parity.mjs wrote more than one JSON document to stdout:\n"
                    f"{proc.stdout[:2000]}\n--- stderr ---\n{proc.stderr[-2000:]}")


def check_wheel_matches_loaded_modules(wheel: Path) -> None:
    """The wheel Pyodide runs holds exactly the sources CPython imported for the bridge."""
    loaded = {name: mod for name, mod in sys.modules.items()
              if name == "attention" or name.startswith("attention.")}
    assert "attention.protocol.bridge" in loaded
    with zipfile.ZipFile(wheel) as zf:
        for _name, mod in sorted(loaded.items()):
            source = Path(mod.__file__)
            member = source.relative_to(HERE.parent).as_posix()  # attention/figures/fig_002.py
            assert zf.read(member) == source.read_bytes(), (
                f"{member} in {wheel.name} differs from {source}: was it edited mid-test?")


class Mismatch(AssertionError):
    pass


class Comparison:
    """Walk two decoded answers in step, counting what was compared and listing differences."""

    def __init__(self):
        self.numbers = 0
        self.trace_numbers = dict.fromkeys(STAGES, 0)
        self.strings = 0
        self.diffs: list[str] = []
        self.max_diff = (0.0, "")

    def leaf_numbers(self, a, b, where: str, stage: str | None) -> None:
        self.numbers += 1
        if stage:
            self.trace_numbers[stage] += 1
        if not (math.isfinite(a) and math.isfinite(b)):
            self.diffs.append(f"{where}: non-finite {a!r} vs {b!r}")
            return
        diff = abs(a - b)
        if diff > self.max_diff[0]:
            self.max_diff = (diff, f"{where}: {a!r} vs {b!r}")
        if diff > TOL * max(1.0, abs(a), abs(b)):
            self.diffs.append(f"{where}: CPython {a!r} vs Pyodide {b!r} (|diff| = {diff:.3g})")

    def walk(self, a, b, where: str, stage: str | None = None) -> None:
        if type(a) is not type(b):
            self.diffs.append(f"{where}: type {type(a).__name__} vs {type(b).__name__}")
        elif isinstance(a, dict):
            if list(a) != list(b):
                self.diffs.append(f"{where}: keys {list(a)} vs {list(b)}")
                return
            for key in a:
                inner = key if where.endswith(".trace") else stage
                self.walk(a[key], b[key], f"{where}.{key}", inner)
        elif isinstance(a, list):
            if len(a) != len(b):
                self.diffs.append(f"{where}: length {len(a)} vs {len(b)}")
                return
            for i, (x, y) in enumerate(zip(a, b)):
                self.walk(x, y, f"{where}[{i}]", stage)
        elif isinstance(a, bool) or a is None:
            if a is not b:
                self.diffs.append(f"{where}: {a!r} vs {b!r}")
        elif isinstance(a, (int, float)):
            self.leaf_numbers(a, b, where, stage)
        elif isinstance(a, str):
            self.strings += 1
            if a != b:
                self.diffs.append(f"{where}: text {a!r} vs {b!r}")
        else:
            self.diffs.append(f"{where}: unexpected leaf {a!r}")


def test_pyodide_answers_match_cpython():
    good = [json.dumps(r) for r in good_requests()]
    bad = [json.dumps(r) for r in BAD_REQUESTS] + BAD_TEXTS
    texts = good + bad
    assert len(set(texts)) == len(texts), "the grid repeats a request"

    expected = [bridge.handle_json(t) for t in texts]
    envelope = run_pyodide(texts)
    assert not envelope["failures"], f"handle_json threw in Pyodide: {envelope['failures'][:5]}"

    # The runtime really is the pinned one, and nothing came from the network.
    assert envelope["pyodide"] == "0.27.7"
    assert envelope["numpy"] == "2.0.2"
    assert envelope["python"][:2] == [3, 12]
    assert envelope["attention_file"].startswith("/lib/python3.12/site-packages/attention/")
    assert envelope["network"] == [], f"Pyodide tried the network: {envelope['network']}"
    answers = envelope["answers"]
    assert len(answers) == len(texts)

    cmp = Comparison()
    ok_lab = identical = 0
    for i, (request, mine, theirs) in enumerate(zip(texts, expected, answers)):
        identical += mine == theirs
        a, b = json.loads(mine), json.loads(theirs)  # both must parse
        before = len(cmp.diffs)
        if a["ok"] != b["ok"]:
            cmp.diffs.append(f"ok: {a['ok']} vs {b['ok']}")
        elif not a["ok"]:
            if mine != theirs:  # error answers: byte-identical, messages and fields alike
                cmp.diffs.append(f"errors: {a['errors']} vs {b['errors']}")
        else:
            if a.get("figure") == "lab":
                ok_lab += 1
                assert list(a["data"]["trace"]) == list(STAGES), a["data"]["trace"].keys()
            cmp.walk(a, b, "answer")
        if len(cmp.diffs) > before:
            shown = request if len(request) < 300 else request[:300] + "…"
            cmp.diffs[before:] = [f"request #{i} {shown}: {d}" for d in cmp.diffs[before:]]

    summary = (f"{len(texts)} requests ({len(good)} valid states, {len(bad)} bad), "
               f"{ok_lab} lab answers, {cmp.numbers} numbers and {cmp.strings} texts compared, "
               f"trace numbers per stage {cmp.trace_numbers}, "
               f"{identical} answers byte-identical, largest |diff| {cmp.max_diff[0]:.3g} "
               f"at {cmp.max_diff[1]}")
    print(summary)
    assert not cmp.diffs, f"{len(cmp.diffs)} differences; first ones:\n" + "\n".join(
        cmp.diffs[:30]) + "\n" + summary

    # The grid was meaningful: the bad requests failed, the states succeeded, stages compared.
    assert all(not json.loads(e)["ok"] for e in expected[len(good):])
    assert all(json.loads(e)["ok"] for e in expected[:len(good)])
    assert ok_lab >= 5000
    assert all(n >= 5000 for n in cmp.trace_numbers.values()), cmp.trace_numbers
    assert cmp.numbers >= 100_000


# JSON nesting within MAX_REQUEST characters: CPython 3.11's json stops at its recursion limit
# (about 1000 levels) with a RecursionError, which the bridge turns into "valid JSON" errors;
# Pyodide's Python 3.12 parses thousands of levels, then (about 5000 levels under Node 20)
# overflows the JavaScript stack: handle_json throws a RangeError and Pyodide reports "Pyodide
# has suffered a fatal error" (later calls still answered in Node, but Pyodide gives no
# guarantee for an interpreter in that state).
DEEP_TEXTS = [
    "[" * 100 + "]" * 100,  # shallow: both answer "must be a JSON object"
    "[" * 2000 + "]" * 2000,
    '{"figure": "lab", "query": ' + "[" * 2000 + "]" * 2000 + "}",
    "[" * 9000 + "]" * 9000,
    json.dumps({"figure": "fig-002", "query": "grid"}),  # an ordinary request after that
]


def test_deeply_nested_requests_answered_alike():
    envelope = run_pyodide(DEEP_TEXTS)
    expected = [bridge.handle_json(t) for t in DEEP_TEXTS]
    assert len(DEEP_TEXTS[3]) < bridge.MAX_REQUEST  # the page could send it
    problems = [f"request #{f['index']}: Pyodide threw {f['message'][:200]!r}"
                for f in envelope["failures"]]
    problems += [f"request #{i} ({len(t)} chars): CPython {a} vs Pyodide {b}"
                 for i, (t, a, b) in enumerate(zip(DEEP_TEXTS, expected, envelope["answers"]))
                 if b is not None and a != b]
    assert not problems, "\n".join(problems)


def test_without_the_weights_pyodide_asks_for_them_by_the_name_the_site_serves():
    """Given no data file, Pyodide's answer names the file beside the wheel and the path in
    its own file system where the worker writes it."""
    request = json.dumps({"figure": "fig-010", "sentence": "the engineer left"})
    answer = run_pyodide([request], files=False)["answers"][0]
    assert answer.startswith(bridge.NEEDS)
    assert json.loads(answer)["needs"] == {
        "file": trained_layer.weights_name(),
        "path": "/lib/python3.12/site-packages/attention/data/minilm_first_layer.npz"}


def test_every_precomputed_answer_is_what_pyodide_answers_byte_for_byte(built_site):
    """The tables the page answers clicks from (site/static/answers/, an edition's below its
    language's folder) hold, for each request key, exactly the text the browser's Python
    returns for that request in that language."""
    entries = []
    answers_dir = built_site / "static" / "answers"
    for lang, folder in [("en", answers_dir), *((d.name, d) for d in sorted(answers_dir.iterdir())
                                                 if d.is_dir() and d.name != "near")]:
        for path in sorted(folder.glob("*.json")):
            table = json.loads(path.read_text(encoding="utf-8"))
            name = ("" if lang == "en" else f"{lang}/") + re.sub(r"\.[0-9a-f]{10}\.json$", ".json", path.name)
            entries += [(name, in_language(key, lang), table["answers"][i]) for key, i in table["keys"].items()]
    envelope = run_pyodide([key for _, key, _ in entries])
    assert not envelope["failures"] and envelope["network"] == []
    differ = [f"{name} {key[:120]}" for (name, key, entry), theirs in zip(entries, envelope["answers"])
              if json.dumps(entry) != theirs]
    assert not differ, f"{len(differ)} of {len(entries)} entries differ:\n" + "\n".join(differ[:20])
    tables = {"bench.json", "fig-001.json", "fig-002.json", "fig-010.json", "lab.json", "layer.json"}
    assert len(entries) >= 120 and {name for name, _, _ in entries} == {
        *tables, *(f"zh/{t}" for t in tables), *(f"ar/{t}" for t in tables)}
