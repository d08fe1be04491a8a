"""The built site: every page, the seeds' numbers, MathML, claim links, and failing builds."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from sitebuild.errors import BuildError
from sitebuild.site import TEMPLATES, build

from tests.assets import asset
from tests.pagetext import PAGES, parse, squeezed


def read(site: Path, page: str) -> str:
    return (site / page).read_text(encoding="utf-8")


def test_every_page_exists(built_site):
    for page in PAGES:
        assert (built_site / page).is_file(), page
    assert asset(built_site, "static/style.css").is_file()


# The numbers exactly as the seeds print them (three decimals, or whole numbers).
SEED_ROLES = ["[1, 0]", "[0, 1]", "[1, 1]", "[1, 2]", "[0, 2]"]
SEED_MIXTURE_TABLE = ["0.284", "0.140", "0.576", "[0.284, 0.000]", "[0.000, 0.280]",
                      "[0.576, 1.152]", "[0.860, 1.432]", "1.414", "0.707", "2.121"]
SEED_MIXTURE_MATH = ["qk1𝖳=2", "qk2𝖳=1", "qk3𝖳=3", "1·1+1·2=3", "dk=2",
                     "[1.414,0.707,2.121]", "a≈[0.284,0.140,0.576]",
                     "o≈0.284[1,0]+0.140[0,2]+0.576[1,2]", "[0.860,1.432]"]
SEED_ROLES_MATH = ["1·1+1·0=1", "1·1+1·1=2", "[1,2]", "n=m=3"]


def test_chapter_one_shows_the_seed_numbers(built_site):
    html = read(built_site, "roles/index.html")
    fig = html[html.index('id="fig-001"'):html.index("</figure>", html.index('id="fig-001"'))]
    rows = re.findall(r"<tr><th scope=\"row\">(\w+)<span[^>]*>row (\d)</span></th>(.*?)</tr>", fig)
    cells = {t: re.findall(r'<td class="num[^"]*">([^<]+)</td>', rest) for t, _, rest in rows}
    assert cells == {  # three decimals, as the footer promises
        "grid": ["[1.000, 0.000]", "[1.000, 0.000]", "[1.000, 1.000]", "[1.000, 0.000]"],
        "load": ["[0.000, 1.000]", "[0.000, 1.000]", "[0.000, 1.000]", "[0.000, 2.000]"],
        "rises": ["[1.000, 1.000]", "[1.000, 1.000]", "[1.000, 2.000]", "[1.000, 2.000]"],
    }
    assert [n for _, n, _ in rows] == ["1", "2", "3"]  # rows count from 1, like k₁, k₂, k₃ (C9)
    text = squeezed(html)
    for snippet in SEED_ROLES_MATH:
        assert snippet in text, snippet


def test_chapter_two_shows_the_seed_numbers(built_site):
    html = read(built_site, "mixture/index.html")
    text = "".join(parse(html).parts)
    for number in SEED_MIXTURE_TABLE:
        assert number in text, number
    squeezed_text = squeezed(html)
    for snippet in SEED_MIXTURE_MATH:
        assert snippet in squeezed_text, snippet
    assert "Sum of contributions" in text and "Query: rises" in text


@pytest.mark.parametrize("page", PAGES)
def test_no_unrendered_source_remains(built_site, page):
    html = read(built_site, page)
    for marker in ("{{", "}}", "{%", "%}", "{#"):
        assert marker not in html, marker
    text = "".join(parse(html).parts)
    assert "$" not in text
    assert "\\" not in text, "LaTeX left outside MathML"


@pytest.mark.parametrize("page", ["roles/index.html", "mixture/index.html"])
def test_every_equation_is_mathml(built_site, page):
    html = read(built_site, page)
    blocks = re.findall(r'<div class="equation">(.*?)</div>', html, re.S)
    assert len(blocks) >= 4
    for block in blocks:
        assert block.startswith('<math display="block">') and block.endswith("</math>")
        assert "mathvariant=\"sans-serif\"" not in block and "mathspace" not in block


def test_chapters_have_the_expected_equations(built_site):
    roles, mixture = read(built_site, "roles/index.html"), read(built_site, "mixture/index.html")
    assert roles.count("&#x23DF;") + roles.count("\u23df") == 6  # six underbraces
    assert "<mi>softmax</mi>" in mixture and "<msqrt>" in mixture and "<mfrac>" in mixture
    assert "<munderover><mo>&#x02211;</mo>" in mixture or "<munderover><mo>∑</mo>" in mixture


def test_claims_page_links_back_to_every_citation(built_site):
    claims = read(built_site, "claims/index.html")
    for claim in ["CL-001", "CL-002", "CL-003", "CL-004", "CL-005", "CL-006", "CL-008",
                  "CL-018", "CL-020", "CL-022", "CL-025"]:
        assert f'id="{claim}"' in claims
    roles = read(built_site, "roles/index.html")
    # CL-003 is cited twice in chapter 1: both places are listed under it.
    cl3 = claims[claims.index('id="CL-003"'):claims.index('id="CL-004"')]
    anchors = re.findall(r'href="\.\./roles/#(cite-\d+)"', cl3)
    assert len(anchors) == 2
    for anchor in anchors:
        assert f'id="{anchor}"' in roles
    assert "One state, three roles › Compare with keys; carry values" in cl3
    assert "Vaswani" in claims and "arXiv:1706.03762" in claims


# ---- builds that must fail, with file and line, leaving the previous site alone ----

@pytest.fixture
def templates(tmp_path) -> Path:
    """A private copy of the templates to break."""
    copy = tmp_path / "templates"
    shutil.copytree(TEMPLATES, copy)
    return copy


def insert_line(path: Path, after: str, line: str) -> int:
    """Insert a line after the first line containing `after`; return its 1-based number."""
    lines = path.read_text(encoding="utf-8").split("\n")
    i = next(n for n, text in enumerate(lines) if after in text) + 1
    lines.insert(i, line)
    path.write_text("\n".join(lines), encoding="utf-8")
    return i + 1


@pytest.mark.parametrize(
    "chapter, line, words",
    [
        ("mixture.md", "The weights are about 0.284 here.", "the number 0.284 is typed"),
        ("mixture.md", "Scores: $[1.414, 0.707]$.", "the number 1.414 is typed"),
        ("roles.md", "The key is $[1,2]$.", "the number 1 is typed"),
        ("roles.md", "See {{ cite(\"CL-999\") }}.", "unknown claim ID 'CL-999'"),
        ("mixture.md", "{{ figure(\"FIG-404\") }}", "unknown figure ID 'FIG-404'"),
        ("roles.md", "{% if %}", "template syntax error"),
        ("roles.md", "{{ no_such_value.text }}", "'no_such_value' is undefined"),
    ],
)
def test_bad_source_fails_with_file_and_line(templates, tmp_path, chapter, line, words):
    path = templates / "chapters" / chapter
    n = insert_line(path, "## ", line)
    with pytest.raises(BuildError) as err:
        build(tmp_path / "site", templates)
    assert Path(err.value.file).name == chapter
    assert err.value.line == n
    assert f"{chapter}:{n}: " in str(err.value)
    assert words in str(err.value)


def test_uncited_claim_fails_at_its_ledger_line(templates, tmp_path):
    ledger = templates / "claims.toml"
    text = ledger.read_text(encoding="utf-8")
    ledger.write_text(text + '\n[claims.CL-777]\nkind = "toy"\nstatement = "Nobody cites me."\n')
    line = text.count("\n") + 2
    with pytest.raises(BuildError, match=rf"claims.toml:{line}: CL-777 is cited by no page"):
        build(tmp_path / "site", templates)


def test_malformed_ledger_fails_with_line(templates, tmp_path):
    ledger = templates / "claims.toml"
    ledger.write_text(ledger.read_text(encoding="utf-8").replace('kind = "toy"', 'kind = toy', 1))
    with pytest.raises(BuildError, match=r"claims.toml:\d+: malformed claims ledger"):
        build(tmp_path / "site", templates)


def test_failed_build_leaves_the_previous_site_untouched(templates, tmp_path):
    out = tmp_path / "site"
    build(out, templates)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    insert_line(templates / "chapters" / "roles.md", "## ", "{{ figure(\"FIG-404\") }}")
    with pytest.raises(BuildError):
        build(out, templates)
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site", "templates"]


def test_successful_rebuild_replaces_the_site(templates, tmp_path):
    out = tmp_path / "site"
    build(out, templates)
    (out / "stale.html").write_text("old")
    build(out, templates)
    assert not (out / "stale.html").exists()
    assert (out / "mixture" / "index.html").is_file()


def test_the_guide_lists_every_embed_page_and_nothing_else(built_site):
    guide = read(built_site, "embed/index.html")
    listed = set(re.findall(r'data-embed-entry="([^"]+)"', guide))
    pages = {p.parent.name for p in (built_site / "embed").glob("*/index.html")
             if "data-moved-to=" not in p.read_text(encoding="utf-8")}  # not an old address
    assert listed == pages
    assert listed >= {"fig-001", "fig-002", "fig-003", "fig-004", "fig-006"}
    for embed_id in listed:
        page = read(built_site, f"embed/{embed_id}/index.html")
        assert f'data-embed="{embed_id}"' in page  # the figure itself
        assert "embed-source" in page and 'target="_blank"' in page  # a way back to the chapter


def test_embed_pages_show_the_same_numbers_as_the_chapters(built_site):
    embedded = "".join(parse(read(built_site, "embed/fig-002/index.html")).parts)
    for number in SEED_MIXTURE_TABLE[:7]:
        assert number in embedded


def _assert_fails_cleanly(templates, tmp_path, words, where):
    """Build once, break something, and check the message and the untouched previous site."""
    out = tmp_path / "site"
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    with pytest.raises(BuildError) as err:
        build(out, templates)
    assert words in str(err.value) and re.search(where, str(err.value)), str(err.value)
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("cache")) == ["site", "templates"]
    return err.value


def test_a_missing_figure_template_fails_at_the_chapter_line(templates, tmp_path):
    build(tmp_path / "site", templates)
    (templates / "figures" / "fig-002.html").unlink()
    _assert_fails_cleanly(templates, tmp_path, "template not found: figures/fig-002.html",
                          r"mixture\.md:\d+: ")


def test_a_syntax_error_in_a_layout_names_the_layout_and_line(templates, tmp_path):
    build(tmp_path / "site", templates)
    layout = templates / "layout.html"
    lines = layout.read_text(encoding="utf-8").split("\n")
    lines.insert(4, "{% if %}")
    layout.write_text("\n".join(lines), encoding="utf-8")
    _assert_fails_cleanly(templates, tmp_path, "template syntax error", r"layout\.html:5: ")


def test_an_undefined_value_in_a_figure_names_the_figure_template(templates, tmp_path):
    build(tmp_path / "site", templates)
    fig = templates / "figures" / "fig-001.html"
    fig.write_text(fig.read_text(encoding="utf-8") + "{{ fig.no_such_thing.text }}\n", encoding="utf-8")
    _assert_fails_cleanly(templates, tmp_path, "no_such_thing", r"fig-001\.html:\d+: ")


def test_an_unreadable_runtime_cache_fails_with_its_path(templates, tmp_path, monkeypatch):
    build(tmp_path / "site", templates)
    blocker = tmp_path / "cache-is-a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("ATTENTION_BENCH_CACHE", str(blocker))
    error = _assert_fails_cleanly(templates, tmp_path, "cannot get the Python runtime", r"cache-is-a-file")
    assert error.file == blocker


def test_a_cdn_build_ships_no_runtime_and_allows_only_the_cdn(templates, tmp_path):
    out = tmp_path / "site"
    build(out, templates, cdn=True)
    assert not (out / "runtime").exists()
    assert list((out / "py").glob("*/attention_bench-*.whl"))  # the package itself is still ours
    page = read(out, "lab/index.html")
    assert 'data-runtime-index="https://cdn.jsdelivr.net/pyodide/v0.27.7/full/"' in page
    assert "connect-src &#39;self&#39; https://cdn.jsdelivr.net;" in page
    assert "RUNTIME_FILES = []" in (out / "sw.js").read_text(encoding="utf-8")


def test_a_local_build_ships_the_verified_runtime_under_a_versioned_path(built_site):
    from sitebuild.runtime import FILES, _sha256

    folder = built_site / "runtime" / "0.27.7"
    shipped = [p.name for p in folder.iterdir() if not p.name.endswith((".gz", ".br"))]
    assert sorted(shipped) == sorted(FILES)  # beside their precompressed copies
    for name, digest in FILES.items():
        assert _sha256(folder / name) == digest


def test_the_build_will_not_replace_a_folder_that_is_not_a_site(templates, tmp_path):
    precious = tmp_path / "notes"
    precious.mkdir()
    (precious / "lecture.txt").write_text("week 3")
    with pytest.raises(BuildError, match="will not replace a folder that is not an earlier build"):
        build(precious, templates)
    assert (precious / "lecture.txt").read_text() == "week 3"
    build(tmp_path / "empty", templates)  # a new folder is fine, and so is a rebuild
    build(tmp_path / "empty", templates)


def test_the_reservoir_has_one_name_everywhere_a_reader_meets_it(built_site):
    """The seed calls it the reservoir; no page, label or summary says tank."""
    seed_word = "reservoir"
    pages = sorted(built_site.rglob("*.html"))
    assert len(pages) > len(PAGES)  # the embeds too
    for path in pages:
        html = path.read_text(encoding="utf-8")
        readable = " ".join(parse(html).parts) + " " + " ".join(
            re.findall(r'(?:aria-label|title|alt|content|aria-valuetext)="([^"]*)"', html))
        assert not re.search(r"\btanks?\b", readable, re.I), path
    bench_page = read(built_site, "bench/index.html")
    lede = re.search(r'<meta name="description" content="([^"]*)"', bench_page).group(1)
    assert f"sealed {seed_word}" in lede
    assert f"<strong>The {seed_word}</strong> is sealed" in bench_page  # FIG-004's caption 4


def test_the_bench_says_why_its_j_counts_from_zero_where_j_first_appears(built_site):
    """FIG-001 counts rows from 1; the bench's j is a position from 0, and says so."""
    from attention import bench

    sin1 = bench.encode(list(bench.DEFAULT_SENTENCE))[0, list(bench.FEATURES).index("sin1")]
    first_position = round(float(np.arcsin(sin1)) / bench.OMEGA1)  # the first word's position in its features
    for page in ("bench/index.html", "embed/fig-005/index.html"):
        html = read(built_site, page)
        table = html.index('<table class="working bench-working"')
        caption = html[html.index('id="fig-005-caption"'):table]
        first = html.find("<var>j</var>")  # where j first appears, it says it counts from 0
        assert first >= html.index('id="fig-005"') or re.search(
            rf"<var>j</var> is the word’s position, counted from {first_position}",
            html[first:first + 300]), html[first - 200:first + 300]
        note = " ".join(parse(caption).parts)
        assert re.search(rf"j\s+is the word’s position, counted from {first_position}:", note), note
        assert "count rows from 1" in note  # and how that differs from the chapters' tables
        first_j = re.search(r'<tbody data-bind="rows"><tr data-index="(\d+)"[^>]*><td class="num">(\d+)</td>',
                            html[table:])
        assert first_j.groups() == (str(first_position), str(first_position))


@pytest.mark.parametrize("base", ["../up/", "/a b/", "/x/?q"])
def test_a_base_that_is_not_a_url_path_fails_before_anything_is_built(tmp_path, base):
    with pytest.raises(BuildError, match="--base must be a URL path"):
        build(tmp_path / "site", base=base)
    assert not (tmp_path / "site").exists()


FOOTERS = {  # page: what its footer says of the page's numbers (None: nothing, it has none)
    "roles/index.html": "Every number on this page comes from the attention package",
    "lab/index.html": "Every number on this page comes from the attention package",
    "bench/index.html": "FIG-008's trained-model weights were computed ahead of time by attention.trained",
    "claims/index.html": "Each number on this page is what its claim says it is: quoted from a source, derived",
    "index.html": "Every number in the chapters comes from the attention package",
    "404.html": None,
    "embed/index.html": None,
}


@pytest.mark.parametrize("page", FOOTERS)
def test_the_footer_says_what_is_true_of_each_pages_numbers(built_site, page):
    """The claims page quotes papers, the 404 page has no numbers, and FIG-008's weights come
    from a file computed ahead of time: "computed by the attention package" said of every page
    was not true of these."""
    footer = " ".join(re.sub(r"<[^>]+>", "", re.search(r"<footer.*?</footer>", read(built_site, page),
                                                           re.S).group(0)).split())
    said = FOOTERS[page]
    if said is None:
        assert "number" not in footer, footer
    else:
        assert said in footer
    computed = "Every number on this page comes from the attention package"
    assert (computed in footer) == (said is not None and page not in ("claims/index.html", "index.html"))


def test_each_head_is_glossed_where_a_reader_picks_it(built_site):
    """A reader met "sink" and "verb-lookup" as bare names at the radios: each choice says in a
    few words what its head looks for (the head's record, attention.bench.HEADS)."""
    from attention import bench

    html = read(built_site, "bench/index.html")
    labels = re.findall(r'<label><input type="radio" name="head" value="([^"]+)"[^>]*> \1 '
                        r'<span class="head-gloss">\(([^)]+)\)</span></label>', html)
    assert labels == [(name, head.gloss) for name, head in bench.HEADS.items()]
    assert all(len(head.gloss.split()) <= 5 for head in bench.HEADS.values())


def test_every_apostrophe_a_reader_sees_is_typographic(built_site):
    # Review 4 (Ugly 8) counted 168 straight apostrophes and 25 curly ones across the pages: the
    # chapters' Markdown curled its own, the figures' templates and the core's sentences did not.
    straight = re.compile(r"[A-Za-z]'[a-z]|[a-z]s'(?=[\s,.;:)])")
    found = {}
    for page in sorted(built_site.rglob("*.html")):
        text = " ".join(parse(page.read_text(encoding="utf-8")).parts)
        hits = [text[max(0, m.start() - 25):m.end() + 10] for m in straight.finditer(text)]
        if hits:
            found[str(page.relative_to(built_site))] = hits
    assert not found, found
