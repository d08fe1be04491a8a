"""The Chinese and Arabic editions (/zh/…, /ar/…): every chapter in its language and script,
right to left where the language is, linked to English by hreflang and a language switch, its
sections at English's addresses, its figures' answers in its language."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest

from attention import catalog
from attention.protocol import bridge
from sitebuild.editions import CHAPTERS, languages as edition_languages

EDITIONS = {"zh": ("zh-Hans", "ltr", re.compile(r"[\u3400-\u9fff]")),  # Han
            "ar": ("ar", "rtl", re.compile(r"[\u0600-\u06ff\u0750-\u077f]"))}  # Arabic
LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")
PAGES = ["", *CHAPTERS]


def page(site: Path, url: str) -> str:
    return (site / url / "index.html").read_text(encoding="utf-8")


def main_text(html: str) -> str:
    """The words of a page's main content as a reader reads them: tables and the figures' words
    included; mathematics, scripts, styles and templates (markup a script clones) left out."""
    main = html[html.index("<main"):html.index("</main>")]
    main = re.sub(r"<(script|style|template|math)\b.*?</\1>", " ", main, flags=re.S)
    main = re.sub(r"<(var|code|kbd|samp)\b[^>]*>.*?</\1>", " ", main, flags=re.S)  # notation, code
    return unescape(re.sub(r"<[^>]+>", " ", main))


def test_the_editions_are_the_catalogs_with_chapters():
    assert edition_languages() == ["ar", "zh"]


@pytest.mark.parametrize("lang", EDITIONS)
@pytest.mark.parametrize("slug", PAGES)
def test_every_chapter_is_in_its_language_and_direction(built_site, lang, slug):
    tag, direction, _ = EDITIONS[lang]
    html = page(built_site, f"{lang}/{slug}")
    assert f'<html lang="{tag}" dir="{direction}">' in html


@pytest.mark.parametrize("lang", EDITIONS)
@pytest.mark.parametrize("slug", PAGES)
def test_most_letters_of_a_chapter_are_in_its_script(built_site, lang, slug):
    """At least half the letters of each chapter's main text, its tables and the bench's words
    among them, are the edition's script (the English chapter scores none, the check's control)."""
    script = EDITIONS[lang][2]
    text = main_text(page(built_site, f"{lang}/{slug}"))
    own, latin = len(script.findall(text)), len(LATIN.findall(text))
    assert own / (own + latin) >= 0.5, f"{lang}/{slug}: {own} letters of its script, {latin} Latin"
    english = main_text(page(built_site, slug))
    assert not script.findall(english)


@pytest.mark.parametrize("slug", [*PAGES, "claims", "embed"])
def test_every_page_links_its_editions_by_hreflang_and_the_switch(built_site, slug):
    for folder in ["", "zh/", "ar/"]:
        html = page(built_site, folder + slug)
        root = "../" * (folder + (f"{slug}/" if slug else "")).count("/")
        at = {e: (root + e + (f"{slug}/" if slug else "")) or "./" for e in ("", "zh/", "ar/")}
        alternates = dict(re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', html))
        assert alternates == {"en": at[""], "zh-Hans": at["zh/"], "ar": at["ar/"], "x-default": at[""]}
        for href in alternates.values():  # each names a page that is there
            assert (built_site / (folder + slug) / href / "index.html").resolve().is_file(), href
        switch = re.search(r'<nav class="languages"[^>]*>(.*?)</nav>', html, re.S).group(1)
        names = re.findall(r'hreflang="([^"]+)" lang="\1" dir="(?:ltr|rtl)" data-keeps-state'
                           r'(?: aria-current="true")?>([^<]+)</a>', switch)
        assert names == [("en", "English"), ("ar", "العربية"), ("zh-Hans", "简体中文")]
        current = re.findall(r'hreflang="([^"]+)"[^>]*aria-current="true"', switch)
        assert current == [{"": "en", "zh/": "zh-Hans", "ar/": "ar"}[folder]]


@pytest.mark.parametrize("lang", EDITIONS)
def test_a_translated_chapter_keeps_englishs_section_addresses(built_site, lang):
    """A figure's link to a section (#how-the-bench-is-built), a course page's and the language
    switch's #… land in every edition."""
    for slug in CHAPTERS:
        ids = lambda html: re.findall(r'<h[23] id="([^"]+)">', html)  # noqa: E731
        english, translated = ids(page(built_site, slug)), ids(page(built_site, f"{lang}/{slug}"))
        assert translated == english and english
    assert 'id="how-the-bench-is-built"' in page(built_site, f"{lang}/bench")


@pytest.mark.parametrize("lang", EDITIONS)
def test_an_editions_links_stay_in_it(built_site, lang):
    """Its header, pager, citations, embeds and handouts lead to its own pages."""
    html = page(built_site, f"{lang}/bench")
    header = html[html.index('<header class="site-header">'):html.index('<nav class="languages"')]
    home = f"../../{lang}/"
    assert re.findall(r'href="([^"]+)"', header) == [
        home, home, *(f"{home}{s}/" for s in CHAPTERS), f"{home}embed/", f"{home}claims/"]
    assert f'href="../../{lang}/claims/#CL-' in html
    embed = page(built_site, f"{lang}/embed/fig-005")
    assert f'<a href="../../../{lang}/bench/#fig-005" rel="noopener">' in embed
    assert (built_site / lang / "handout" / "fig-002" / "index.html").is_file()


@pytest.mark.parametrize("lang", EDITIONS)
def test_an_editions_figures_answer_in_its_language(built_site, lang):
    """Its pages read answer tables of their own, computed in its language, and its worker's
    Python answers as those tables do (bridge.speak: the page's language, said once)."""
    html = page(built_site, f"{lang}/bench")
    assert re.search(rf'data-answers="\.\./\.\./static/answers/{lang}/bench\.[0-9a-f]{{10}}\.json"', html)
    request = '{"figure": "bench", "head": "sink"}'
    in_request = bridge.handle_json(json.dumps({**json.loads(request), "lang": lang}))
    try:
        bridge.speak(lang)
        spoken = bridge.handle_json(request)
    finally:
        bridge.speak("en")
    assert spoken == in_request != bridge.handle_json(request)
    assert EDITIONS[lang][2].search(json.loads(spoken)["data"]["summary"])


def test_every_catalog_translates_every_key():
    english = catalog.load("en").messages.keys()
    for lang in EDITIONS:
        assert catalog.load(lang).messages.keys() == english


@pytest.mark.parametrize("lang", list(EDITIONS))
def test_an_editions_bench_chapter_counts_its_own_lexicon(built_site, lang):
    from attention.lexicon import LEXICONS
    text = main_text(page(built_site, f"{lang}/bench"))
    note = text[:text.index("FIG-004")]  # the edition's note, before the bench
    assert str(len(LEXICONS[lang])) in note and str(len(LEXICONS["en"])) not in note
