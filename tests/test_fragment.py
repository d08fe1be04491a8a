"""One figure's static HTML for course pages that accept no frames."""

import re
import subprocess
import sys
from html import unescape

import pytest

from attention import bench_view, figures
from attention.catalog import languages, say, speaking
from sitebuild.errors import BuildError
from sitebuild.fragment import WRAPPER, fragment, scope_selector, scoped_css
from sitebuild.site import ROOT, TEMPLATES


def test_fragment_shows_the_state_from_its_parameters():
    html = fragment("fig-002", "query=load")
    for row in figures.fig_002.data("load")["rows"]:
        assert row["weight"]["text"] in html
    assert html.startswith("<!-- Attention Bench:") and f'<div class="{WRAPPER}">' in html
    assert "<style>" in html and "<style>" not in fragment("fig-001", css=False)


def test_fragment_refuses_bad_parameters_and_unknown_figures():
    with pytest.raises(BuildError, match="Ignored query=power"):
        fragment("fig-002", "query=power")
    with pytest.raises(BuildError, match="unknown figure 'fig-999'"):
        fragment("fig-999")
    with pytest.raises(BuildError, match="fig-001 takes no parameters"):
        fragment("fig-001", "query=grid")
    with pytest.raises(BuildError, match="unknown theme"):
        fragment("fig-001", theme="sepia")


def test_build_py_writes_a_fragment_file(tmp_path):
    out = tmp_path / "lab.html"
    subprocess.run([sys.executable, str(ROOT / "build.py"), "fragment", "lab", "--url", "q=0,0",
                    "--output", str(out)], check=True, capture_output=True)
    assert "[0.667, 1.333]" in out.read_text(encoding="utf-8")


def selectors(css: str) -> list[str]:
    """Every selector of a scoped stylesheet, outside and inside @media blocks."""
    found = []
    for prelude in re.findall(r"([^{}]+)\{", css):
        if not prelude.strip().startswith("@"):
            found += [s.strip() for s in re.split(r",(?![^()]*\))", prelude)]  # not in :is(a, b)
    return found


@pytest.mark.parametrize("embed_id", ["fig-001", "fig-002", "fig-003", "fig-004", "fig-006"])
def test_every_style_of_a_fragment_is_scoped_to_its_wrapper(embed_id):
    html = fragment(embed_id)
    css = html[html.index("<style>") + 7:html.index("</style>")]
    found = selectors(css)
    assert found and all(s == f".{WRAPPER}" or s.startswith(f".{WRAPPER} ") for s in found)
    assert ":root" not in css and "prefers-color-scheme" not in css  # the light palette, fixed
    assert "100vw" not in css  # nothing sized by the host's viewport


def test_the_host_keeps_its_background_and_the_dark_theme_is_a_choice():
    css = (TEMPLATES / "static" / "style.css").read_text(encoding="utf-8")
    light, dark = scoped_css(css, "light"), scoped_css(css, "dark")
    wrapper_rules = re.findall(rf"\.{WRAPPER}\{{([^}}]*)\}}", light)
    assert wrapper_rules and not any("background" in r for r in wrapper_rules)
    assert "#16171b" in dark and "#16171b" not in light  # the dark page colour only when asked
    assert "prefers-color-scheme: dark" in scoped_css(css, "auto")


def test_scoping_keeps_the_selector_and_drops_the_site_pages_own():
    assert scope_selector("table") == f".{WRAPPER} table"
    assert scope_selector("body.embed main") is None and scope_selector("html.embedded") is None
    assert scope_selector(".matrix td.masked", {"matrix", "masked"}) == f".{WRAPPER} .matrix td.masked"


def test_bars_carry_their_own_size_and_colours():
    html = fragment("fig-002")
    bar = re.search(r'<svg class="bar"[^>]*>.*?</svg>', html).group(0)
    assert 'width="72"' in bar and 'height="11"' in bar
    assert re.search(r'class="bar-track" fill="#[0-9a-f]{6}"', bar)
    assert re.search(r'class="bar-fill" fill="#[0-9a-f]{6}"', bar)


def test_a_fragment_gives_no_instructions_for_controls_it_lacks():
    # Review 4: FIG-004's fragment said "select any other stopcock…" and "Remove a step and
    # Python recomputes…" beside a drawing nothing can change, and "see “How the bench is
    # built”" pointed at a section the host page does not have.
    html = fragment("fig-004", site_url="https://example.org/ab/")
    text = re.sub(r"<[^>]+>", " ", re.sub(r"<style>.*?</style>", "", html, flags=re.S))
    assert "select any other stopcock" not in text.lower()
    assert "Remove a step and Python recomputes" not in text
    assert 'href="https://example.org/ab/bench/#how-the-bench-is-built"' in html
    assert 'href="#' not in html  # no link to a place on a page the fragment is not on


def test_a_fragment_credits_the_site_and_links_back_to_its_state():
    # Review 4: a pasted fragment carried no credit and no way back to the live figure.
    html = fragment("fig-004", "head=sink&query=3", site_url="https://example.org/ab/")
    credit = re.search(r'<p class="fragment-credit">.*?</p>', html, flags=re.S)
    assert credit and "Attention Bench" in credit.group(0) and "FIG-004" in credit.group(0)
    assert 'href="https://example.org/ab/bench/?head=sink&amp;query=3#fig-004"' in credit.group(0)
    assert html.index(credit.group(0)) < html.index("</div>\n", len(html) - 10)  # in the wrapper


def _visible(html: str) -> str:
    """A fragment's text as a reader reads it: no styles, no tags."""
    return unescape(re.sub(r"<[^>]+>", "", re.sub(r"<style>.*?</style>", "", html, flags=re.S)))


def test_a_chinese_fragment_speaks_chinese_and_links_to_the_chinese_edition():
    html = fragment("fig-002", "query=grid", site_url="https://example.org/ab/", lang="zh")
    assert re.search(r'<div class="attention-bench-fragment" lang="zh-Hans" dir="ltr">', html)
    with speaking("zh"):
        title = say("fig-002-core.title")
        note = bench_view.view(head="sink")["summary"]
    assert title in _visible(html) and title != say("fig-002-core.title")  # the credit's, in Chinese
    assert "From" not in _visible(html) and "Open it there" not in _visible(html)
    assert 'href="https://example.org/ab/zh/mixture/?query=grid#fig-002"' in html
    # a computed note of the core, said in Chinese, and links to the Chinese edition's pages
    bench = fragment("fig-004", "head=sink", site_url="https://example.org/ab/", lang="zh")
    assert note in _visible(bench) and note != bench_view.view(head="sink")["summary"]
    assert 'href="https://example.org/ab/zh/bench/#how-the-bench-is-built"' in bench
    assert 'href="https://example.org/ab/bench/' not in bench


def test_an_arabic_fragment_is_right_to_left_and_its_rules_for_that_apply():
    html = fragment("fig-002", lang="ar")
    assert html.splitlines()[1] == '<div class="attention-bench-fragment" lang="ar" dir="rtl">'
    with speaking("ar"):
        assert say("fig-002-core.title") in _visible(html)
    # the stylesheet's right-to-left rules ask the wrapper, which carries dir="rtl"
    assert '.attention-bench-fragment[dir="rtl"] :is(.num' in html
    assert '<div class="attention-bench-fragment">' in fragment("fig-002")  # English: as it was


def test_an_unknown_language_is_refused_naming_the_catalogs_languages(tmp_path):
    named = ", ".join(languages())
    with pytest.raises(BuildError, match=f"unknown language 'fr'; choose one of {named}"):
        fragment("fig-002", lang="fr")
    done = subprocess.run([sys.executable, str(ROOT / "build.py"), "fragment", "fig-002", "--lang", "fr"],
                          capture_output=True, text=True)
    assert done.returncode != 0 and not done.stdout
    assert "invalid choice: 'fr'" in done.stderr and named in done.stderr
    out = tmp_path / "zh.html"
    subprocess.run([sys.executable, str(ROOT / "build.py"), "fragment", "fig-002", "--lang", "zh",
                    "--output", str(out)], check=True, capture_output=True)
    assert 'lang="zh-Hans"' in out.read_text(encoding="utf-8")


def test_a_link_to_another_chapter_points_at_the_site():
    """FIG-009's link to the bench's word list was "../bench/#bench-lexicon", which leads
    nowhere from the course page a fragment is pasted into."""
    html = fragment("fig-009", site_url="https://example.org/attention/")
    assert 'href="https://example.org/attention/bench/#bench-lexicon"' in html
    assert 'href="../' not in html
