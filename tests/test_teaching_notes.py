"""The teaching notes at each chapter's end (sitebuild.markdown's ``::: teaching``): folded,
with what a student can do after it, two misconceptions each pointing at a figure of that
chapter, and a ten-minute activity."""

from __future__ import annotations

import re

import pytest

from sitebuild.editions import CHAPTERS


@pytest.fixture(scope="module")
def pages(built_site):
    return {slug: (built_site / slug / "index.html").read_text(encoding="utf-8") for slug in CHAPTERS}


@pytest.mark.parametrize("slug", CHAPTERS)
def test_each_chapter_ends_with_folded_teaching_notes_that_point_at_its_own_figures(pages, slug):
    html = pages[slug]
    notes = re.findall(r'<details class="teaching">(.*?)</details>', html, re.S)
    assert len(notes) == 1
    note = notes[0]
    assert "<summary>Teaching notes</summary>" in note and " open" not in note.split(">", 1)[0]
    for label in ("After this chapter", "Misconceptions it addresses", "A ten-minute activity"):
        assert f"<strong>{label}" in note, (slug, label)
    misconceptions = re.search(r"<ul>(.*?)</ul>", note, re.S).group(1)
    assert misconceptions.count("<li>") == 2
    targets = re.findall(r'href="#(fig-\d{3})"', misconceptions)
    assert targets and all(f'id="{t}"' in html for t in targets), (slug, targets)  # on this page
    assert html.index('<details class="teaching">') > html.rindex('<figure ')  # after its figures
