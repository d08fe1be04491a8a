"""The precomputed answer tables: what the build writes, what pages load, and their keys."""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from attention.protocol import neighbours
from sitebuild import answers
from sitebuild.benchmark import PAGE_TARGET_BYTES, page_weights
from sitebuild.site import TEMPLATES, build

ROOT = Path(__file__).resolve().parent.parent
ANSWERS_JS = ROOT / "templates" / "static" / "js" / "answers.js"


def tables(site: Path) -> dict[str, dict]:
    """Return every answer table by its plain name (the build adds a content hash to each)."""
    return {re.sub(r"\.[0-9a-f]{10}$", "", p.stem): json.loads(p.read_text(encoding="utf-8"))
            for p in sorted((site / "static" / "answers").glob("*.json"))}


def answer(table: dict, request: dict) -> dict:
    return table["answers"][table["keys"][neighbours.key(request)]]


def test_every_table_is_written_and_computed_in_pyodide(built_site):
    found = tables(built_site)
    assert sorted(found) == ["bench", "fig-001", "fig-002", "fig-010", "lab", "layer"]
    for name, table in found.items():
        assert table["schema"] == 1 and table["figure"] == name
        assert table["generator"]["runtime"] == "pyodide 0.27.7", "the browser's own runtime"
        assert sorted(set(table["keys"].values())) == list(range(len(table["answers"])))


def test_grid_is_answered_with_the_weights_worked_by_hand(built_site):
    # q(grid) = [1, 0]; the keys are [1, 1], [0, 1], [1, 2]: scores 1, 0, 1, each ÷ √2.
    e = [math.exp(s / math.sqrt(2)) for s in (1, 0, 1)]
    by_hand = [f"{x / sum(e):.3f}" for x in e]
    data = answer(tables(built_site)["fig-002"], {"figure": "fig-002", "query": "grid"})["data"]
    assert [r["weight"]["text"] for r in data["rows"]] == by_hand == ["0.401", "0.198", "0.401"]


def test_the_bench_table_holds_each_row_head_and_stopcock(built_site):
    table = tables(built_site)["bench"]
    state = {"figure": "bench", "sentence": "the engineer fixed the bridge before she left",
             "head": "coreference", "query": 6, "temperature": "1", "shut": [], "trained": None}
    words = state["sentence"].split()
    for j, word in enumerate(words):
        assert answer(table, {**state, "query": j})["data"]["query"]["word"] == word
    for head in ("previous-token", "sink", "coreference", "verb-lookup"):
        assert answer(table, {**state, "head": head})["data"]["head"]["name"] == head
    for j in range(7):
        assert answer(table, {**state, "shut": [j]})["data"]["shut"] == [j]
    csv = answer(table, {"figure": "export", "of": "fig-004", "url": {}})["data"]["csv"]
    assert csv.splitlines()[0] == ("sentence,head,query_j,query_word,T,j,word,causal_masked,shut,"
                                   "q_dot_k,scaled,tempered,exp,weight")


def test_fig_001_numbers_are_precomputed_for_its_download(built_site):
    data = answer(tables(built_site)["fig-001"], {"figure": "export", "of": "fig-001", "url": {}})
    assert data["data"]["csv"].splitlines()[1] == "grid,1.0,0.0,1.0,0.0,1.0,1.0,1.0,0.0"


def test_each_page_loads_the_tables_of_its_figures(built_site):
    wanted = {"mixture": ["fig-002"], "lab": ["lab"], "bench": ["bench"], "roles": ["fig-001"],
              "embed/fig-006": ["bench"], "embed/fig-003": ["lab"], "claims": [], "embed": [],
              "embed/bench-matrix": []}  # an old address, which sends its reader to embed/fig-006/
    for page, names in wanted.items():
        html = (built_site / page / "index.html").read_text(encoding="utf-8")
        found = re.search(r'<body[^>]* data-answers="([^"]+)"', html)
        urls = found.group(1).split() if found else []
        assert [re.sub(r"\.[0-9a-f]{10}$", "", Path(u).stem) for u in urls] == names, page
        for url in urls:
            assert (built_site / page / url).resolve().is_file()


def test_pages_stay_under_the_weight_target_before_the_runtime(built_site):
    # What a reader downloads: each file's gzip copy, as the site's headers serve it.
    for page, _, _, downloaded in page_weights(built_site):
        assert downloaded < PAGE_TARGET_BYTES, (page, downloaded)
    assert re.search(r"js/nav\.[0-9a-f]{10}\.js",
                     (built_site / "roles" / "index.html").read_text(encoding="utf-8"))


def test_javascript_writes_the_same_key_as_python_for_every_entry(built_site):
    requests = [json.loads(k) for t in tables(built_site).values() for k in t["keys"]]
    # The page's widgets build requests in their own field order: shuffle it the same way.
    shuffled = [json.dumps(dict(reversed(list(r.items()))), ensure_ascii=False) for r in requests]
    script = ("const { canonical } = await import(process.argv[1]);"
              "const texts = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
              "process.stdout.write(JSON.stringify(texts.map((t) => canonical(JSON.parse(t)))));")
    node = shutil.which("node")
    assert node, "the key test needs Node.js"
    proc = subprocess.run([node, "--input-type=module", "-e",
                           script.replace("require('fs')", "(await import('node:fs'))"),
                           ANSWERS_JS.as_uri()], input=json.dumps(shuffled), capture_output=True,
                          text=True, timeout=60, check=True)
    assert json.loads(proc.stdout) == [neighbours.key(r) for r in requests]
    assert len(requests) > 40


def test_a_site_link_with_a_state_gets_that_state_and_its_neighbours(tmp_path):
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    chapter = templates / "chapters" / "lab.md"
    chapter.write_text(chapter.read_text(encoding="utf-8") +
                       "\nSee [the sink head](../bench/?head=sink&amp;query=2#fig-004).\n",
                       encoding="utf-8")
    build(tmp_path / "site", templates)
    table = tables(tmp_path / "site")["bench"]
    linked = answer(table, {"figure": "bench", "url": {"head": "sink", "query": "2"}})
    assert linked["data"]["head"]["name"] == "sink" and linked["data"]["query"]["index"] == 2
    state = {"figure": "bench", **linked["data"]["state"]}
    assert answer(table, {**state, "query": 5})["data"]["query"]["index"] == 5
    assert answer(table, {**state, "head": "coreference"})["data"]["head"]["name"] == "coreference"
    export = answer(table, {"figure": "export", "of": "fig-006",
                            "url": {"head": "sink", "query": "2"}})
    assert export["data"]["json"]["head"] == "sink"


def test_link_states_reads_only_links_to_live_figures():
    bodies = {"roles/": '<a href="../lab/?q=0,0&amp;t=2">a</a> <a href="../claims/?x=1">b</a>'
                        ' <a href="../embed/bench/?head=sink">c</a> <a href="../lab/">d</a>'}
    assert answers.link_states(bodies) == {"lab": [{"q": "0,0", "t": "2"}],
                                           "bench": [{"head": "sink"}]}


@pytest.mark.parametrize("body, names", [
    ('<figure data-embed="fig-001" data-embed-height="600" data-export>', ["answers/fig-001.json"]),
    ('<figure data-embed="bench-heads" data-embed-height="1">', []),
    ('<div data-widget="predict"></div><figure data-widget="lab">', ["answers/lab.json"]),
])
def test_for_page_names_the_tables_of_a_body(body, names):
    assert answers.for_page(body) == names


def _texts(value) -> list[str]:
    """Every "text" a reader sees in an answer, in order."""
    if isinstance(value, dict):
        return [value["text"]] if isinstance(value.get("text"), str) else \
            [t for v in value.values() for t in _texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return []


def test_a_state_one_click_away_is_also_found_by_its_address(built_site):
    """Back to a page left just after a click, or a link copied from it, asks for the state at
    its address ({"figure", "url"}): the table answers that at once too."""
    found = tables(built_site)
    e = [math.exp(s / math.sqrt(2)) for s in (1, 0, 1)]  # FIG-002's grid, as worked by hand above
    grid = answer(found["fig-002"], {"figure": "fig-002", "url": {"query": "grid"}})["data"]
    assert [r["weight"]["text"] for r in grid["rows"]] == [f"{x / sum(e):.3f}" for x in e]
    bridge_row = answer(found["bench"], {"figure": "bench",
                                         "url": {"head": "coreference", "query": "4", "t": "1"}})
    assert bridge_row["data"]["query"]["word"] == "bridge"
    # every address key holds the answer the bridge gives for that address, read by a reader
    from attention.protocol import bridge
    addressed = 0
    for name in ("fig-002", "lab", "bench"):
        for key in found[name]["keys"]:
            request = json.loads(key)
            if "url" not in request or request["figure"] == "export":
                continue
            held = answer(found[name], request)
            direct = json.loads(bridge.handle_json(key))
            assert held["url"] == direct["url"], key  # the address the state writes back
            assert _texts(held["data"]) == _texts(direct["data"]), key
            addressed += 1
    assert addressed >= 30


def test_a_teachers_shorter_address_is_found_too(built_site):
    """A teacher types ?query=3 where a click writes ?head=coreference&query=3&t=1: parameters
    that are the default's may be left out, and the table still answers at once."""
    found = tables(built_site)
    short = answer(found["bench"], {"figure": "bench", "url": {"query": "3"}})
    assert short["data"]["query"]["index"] == 3 and short["url"] == {
        "head": "coreference", "query": "3", "t": "1"}
    assert answer(found["bench"], {"figure": "bench", "url": {"query": "3", "t": "1"}}) == short
    assert answer(found["fig-002"], {"figure": "fig-002", "url": {"query": "load"}})[
        "data"]["query"]["token"] == "load"


def test_the_quiz_of_every_bench_state_in_the_table_is_in_it_too(built_site):
    """quiz.js asks for the questions of each state the bench draws: for every state the table
    answers, they are there, as the bridge writes them, before Python has loaded."""
    from attention import quiz
    from attention.protocol import bridge
    table = tables(built_site)["bench"]
    states = {json.dumps({k: v for k, v in a["data"]["state"].items() if k != "trained"},
                         sort_keys=True)
              for a in table["answers"] if a.get("ok") and "state" in a.get("data", {})
              and "rows" in a["data"]}
    assert len(states) >= 20
    for text in states:
        state = json.loads(text)
        held = answer(table, {"figure": "quiz", **state})
        assert held == json.loads(bridge.handle_json(json.dumps({"figure": "quiz", **state})))
        assert held["data"]["questions"] == quiz.view(**state)["questions"]


def test_each_state_one_click_away_brings_its_own_neighbours(built_site):
    """For every bench state a link can open from the table, a table of the states one click
    from it (those the main table lacks), each key holding the bridge's own answer; the map
    names each by the state's address; the service worker does not fetch them ahead."""
    from attention.protocol import bridge
    main = tables(built_site)["bench"]
    pairs = json.loads(next((built_site / "static" / "near").glob("bench.*.json")).read_text(encoding="utf-8"))
    assert len(pairs) >= 20
    checked = 0
    for table_name, address in pairs:
        near = json.loads((built_site / "static" / "near" / table_name).resolve().read_text(encoding="utf-8"))
        assert near["generator"]["runtime"] == "pyodide 0.27.7"
        assert not set(near["keys"]) & set(main["keys"])  # only what the main table lacks
        opened = json.loads(bridge.handle_json(address))["data"]
        for key in list(near["keys"])[:3]:  # a sample of each: the bridge's answer, as the page reads it
            held = answer(near, json.loads(key))
            assert _texts(held) == _texts(json.loads(bridge.handle_json(key))), key
            checked += 1
        row = {**{"figure": "bench"}, **opened["state"], "query": (opened["query"]["index"] + 1) % 8}
        assert neighbours.key(row) in near["keys"] or neighbours.key(row) in main["keys"]
    assert checked >= 60
    worker = (built_site / "sw.js").read_text(encoding="utf-8")
    assert "static/answers/near/" not in worker and "static/near/bench." in worker
