"""attention.protocol.registry: one record per figure, and everything that lists figures derived from it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys

from attention import bench
from attention.protocol import bridge, registry
from sitebuild import answers, embeds, widgets
from sitebuild.editions import CHAPTERS
from sitebuild.site import ROOT, TEMPLATES

JS = TEMPLATES / "static" / "js"


def widget_modules() -> dict[str, str]:
    """The widgets the templates write (sitebuild.widgets), each with its module's text."""
    return {name: (JS / module).read_text(encoding="utf-8") for name, module in widgets.widgets(TEMPLATES).items()}


def test_the_record_lists_the_figures_in_the_order_a_reader_meets_them():
    """The embed guide lists them in this order: FIG-007 before FIG-008, as in the chapter."""
    met = [n for slug in CHAPTERS for n in re.findall(
        r'figure\("(FIG-\d+)"', (TEMPLATES / "chapters" / f"{slug}.md").read_text(encoding="utf-8"))]
    assert [f.number for f in registry.FIGURES] == met == sorted(met)


def test_every_figure_has_one_record_with_its_own_number_embed_and_template():
    numbers = [f.number for f in registry.FIGURES]
    assert sorted(numbers) == [f"FIG-{n:03}" for n in range(1, 11)]
    assert len({f.embed for f in registry.FIGURES}) == len(numbers)
    for f in registry.FIGURES:
        first = (TEMPLATES / "figures" / f"{f.id}.html").read_text(encoding="utf-8")
        assert f'id="{f.id}" data-embed="{f.embed}"' in first, f.number
        assert f.state is None or f.state in registry.STATES


def test_a_figure_has_one_name_in_addresses_and_its_old_embed_ids_lead_to_it():
    """Embed, download and element id are the figure's id; the embed ids FIG-003 … FIG-008 had
    before (lab, bench, bench-table, ...) still find their figure, so no course page breaks."""
    old = {"lab": "FIG-003", "bench": "FIG-004", "bench-table": "FIG-005", "bench-matrix": "FIG-006",
           "bench-heads": "FIG-007", "trained": "FIG-008"}
    for f in registry.FIGURES:
        assert f.embed == f.id == f.number.lower()
        assert registry.embed(f.id) is f
    assert {alias: registry.embed(alias).number for alias in registry.ALIASES} == old
    assert not set(registry.ALIASES) & {f.id for f in registry.FIGURES}
    assert registry.export("bench-matrix", {"head": "sink"}) == registry.export("fig-006", {"head": "sink"})
    assert registry.embed("fig-011") is None


def test_each_live_widget_says_which_state_it_shows_as_its_figures_record_does():
    """page.js opens a link's state by the name its widget module exports (STATE): the same
    name as the figure's record, for every figure a widget mounts."""
    modules = widget_modules()
    shown = {f.widget: f.state for f in registry.FIGURES if f.widget and f.state}
    # a widget that shows no state of its own follows its group's (page.js: it never speaks)
    assert [f.widget for f in registry.FIGURES if f.widget and not f.state] == ["fig-010"]
    assert "export const STATE" not in modules["fig-010"]
    assert shown == {"fig-002": "fig-002", "lab": "lab", "fig-004": "bench", "fig-005": "bench",
                     "fig-006": "bench", "trained": "bench", "fig-009": "layer"}
    bench = (JS / "figures" / "bench.js").read_text(encoding="utf-8")
    for widget, state in shown.items():
        text = modules[widget]
        if re.search(r'^export \{ STATE \};$', text, re.M):  # the bench's figures: bench.js's STATE
            assert re.search(r'^import \{[^}]*\bSTATE\b[^}]*\} from "\./bench\.js";$', text, re.M)
            text = bench
        assert re.findall(r'^export const STATE = "([\w-]+)";$', text, re.M) == [state]
        assert f'figure: "{state}"' not in modules[widget]  # sent by its one name


def test_the_bridge_the_downloads_and_the_answers_tables_follow_the_records():
    assert set(registry.STATES) <= set(bridge.FIGURES)
    # a figure's own request (no state): by its id, with the fields its record names
    assert {name: fields for name, (_, fields) in bridge.FIGURES.items() if name.startswith("fig-")
            and name not in registry.STATES} == {"fig-010": {"sentence"}}
    assert {name: fields for name, (_, fields) in bridge.FIGURES.items() if name in registry.STATES} \
        == {name: s.fields for name, s in registry.STATES.items()}
    assert set(registry.EXPORTS) == {"fig-001", "fig-002", "fig-003", "fig-004", "fig-005", "fig-006",
                                     "fig-009", "fig-010"}
    assert answers.widgets() == {"fig-002": "fig-002", "lab": "lab", "fig-004": "bench", "fig-005": "bench",
                                 "fig-006": "bench", "fig-009": "layer"}
    assert answers.table_names() == ["bench", "fig-001", "fig-002", "fig-010", "lab", "layer"]
    assert [e.id for e in embeds.registry()] == [f.embed for f in registry.FIGURES]


SCRATCH_MODULE = '''"""FIG-011, a figure made up for a test."""

from ..protocol.records import Figure


def data() -> dict:
    return {"words": ["one", "two"]}


def export(state: dict) -> dict:
    return {"columns": ["word"], "rows": [["one"], ["two"]]}


FIGURE = Figure(number="FIG-011", chapter="roles", title="A figure made up for a test",
                data=data, export=export, live=False)
'''
SCRATCH_TEMPLATE = (
    '<figure class="figure" id="fig-011" data-embed="fig-011"{{ " data-export" if "fig-011" in exports }}'
    ' aria-labelledby="fig-011-title"><p class="fig-title" id="fig-011-title"><span class="fig-id">'
    'FIG-011</span> Made up</p><ul>{% for w in fig.words %}<li>{{ w }}</li>{% endfor %}</ul></figure>')
# What a build sees of a scratch package: its own attention/ first on the path.
SCRATCH_BUILD = """
import json, sys
sys.path.insert(0, sys.argv[1])
from attention.protocol import registry
from sitebuild import embeds
from sitebuild.site import build
assert registry.__file__.startswith(sys.argv[1]), registry.__file__
build(__import__("pathlib").Path(sys.argv[2]), __import__("pathlib").Path(sys.argv[3]))
print(json.dumps(embeds.unmeasured()))
print(json.dumps(registry.export("fig-011")))
"""


def test_a_new_figure_is_its_module_its_template_and_one_line_in_its_chapter(tmp_path):
    """Adding a figure, as ARCHITECTURE.md tells it: a made-up FIG-011 is a module in
    attention/figures (its record, data builder and download), its template, and the one line
    of its chapter that draws it. Nothing else in the package or the templates is edited: the
    build draws it in its chapter and on an embed page of its own, lists it in the guide (its
    snippet as tall as the tallest figure until tools/measure-embed-heights measures it), and
    offers its download."""
    package = tmp_path / "package"
    shutil.copytree(ROOT / "attention", package / "attention",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (package / "attention" / "figures" / "fig_011.py").write_text(SCRATCH_MODULE, encoding="utf-8")
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    (templates / "figures" / "fig-011.html").write_text(SCRATCH_TEMPLATE, encoding="utf-8")
    chapter = templates / "chapters" / "roles.md"
    chapter.write_text(chapter.read_text(encoding="utf-8") + '\n{{ figure("FIG-011") }}\n', encoding="utf-8")
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-c", SCRATCH_BUILD, str(package), str(site), str(templates)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.splitlines()[-2]) == ["fig-011"]
    assert json.loads(done.stdout.splitlines()[-1]) == {
        "figure": "fig-011", "columns": ["word"], "rows": [["one"], ["two"]]}
    for page in ("roles/index.html", "embed/fig-011/index.html"):
        html = (site / page).read_text(encoding="utf-8")
        opening = re.search(r'<figure [^>]*id="fig-011"[^>]*>', html)[0]
        assert "<li>one</li><li>two</li>" in html and " data-export" in opening, page
    assert "A figure made up for a test" in (site / "embed" / "fig-011" / "index.html").read_text(encoding="utf-8")
    guide = (site / "embed" / "index.html").read_text(encoding="utf-8")
    tallest = max(h["column"] for h in embeds.heights().values())
    assert "fig-011/" in guide and f'height="{tallest}"' in guide
    # its download, precomputed by the same bridge in Pyodide from the wheel of that package
    [table] = (site / "static" / "answers").glob("fig-011.*.json")
    [answer] = json.loads(table.read_text(encoding="utf-8"))["answers"]
    assert answer["ok"] and answer["data"]["csv"] == "word\none\ntwo\n", answer


def test_each_parameters_default_in_the_guide_opens_the_state_a_page_opens_on():
    """The embed guide's Default column: a link that spells each default out reopens the same
    state as a link without it, with nothing ignored; a default of "none" is a parameter
    the opening state does not set."""
    for name, state in registry.STATES.items():
        opening = state.answer({})
        for param, default in state.defaults().items():
            if not default:
                assert param not in state.url(opening), (name, param)
                continue
            read, notices = registry.from_url(name, {param: default})
            assert notices == [], (name, param)
            assert state.answer(read) == opening, (name, param, default)
    layer = registry.STATES["layer"].defaults()
    assert layer["sentence"] == " ".join(bench.DEFAULT_SENTENCE) and layer["off"] == ""
