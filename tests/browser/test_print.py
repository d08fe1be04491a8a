"""Every chapter printed, in real Chromium's print media: no control, share panel or offer of
Python on paper, links written out as their addresses, figures kept whole where they fit, and
a PDF that Chromium makes."""

from __future__ import annotations

import pytest

from sitebuild.editions import CHAPTERS

# What is on paper: controls and panels shown, links whose address is not printed after them.
ON_PAPER = """() => {
  const shown = (el) => getComputedStyle(el).display !== 'none' && el.getClientRects().length > 0;
  const controls = [...document.querySelectorAll(
    'main form, main .share, main .figure-notice, main .runtime-action, main [class$="-controls"], ' +
    'main .whatif-toggles, main .predict-choices, main .quiz-choices, main .use-head, main .switch, ' +
    'main .scroll-cue')]
    .filter(shown).map((el) => el.className || el.tagName);
  const links = [...document.querySelectorAll('main a[href]')]
    .filter((a) => shown(a) && !a.classList.contains('anchor') && !a.getAttribute('href').startsWith('#')
                   && !a.closest('.cites'))
    // written out in full: a relative address ("../lab/") is no address on paper
    .filter((a) => !getComputedStyle(a, '::after').content.includes(a.href))
    .map((a) => a.getAttribute('href'));
  const split = [...document.querySelectorAll('main .figure')].filter((f) => getComputedStyle(f).breakInside !== 'avoid')
    .map((f) => f.id);
  const notes = [...document.querySelectorAll('main details.teaching p')].filter((p) => p.checkVisibility()).length;
  // every folded text read open: each <details>'s first child after its summary is shown
  const folded = [...document.querySelectorAll('main details')].filter((d) => shown(d))
    .filter((d) => { const c = d.querySelector(':scope > :not(summary)'); return c && !c.checkVisibility(); })
    .map((d) => d.className || d.querySelector('summary')?.textContent);
  return { controls, links, split, notes, folded, figures: document.querySelectorAll('main .figure').length };
}"""


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_a_printed_chapter_has_no_controls_and_writes_its_links_out(browser, server, chapter):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server + f"{chapter}/")
    page.wait_for_selector(".share", state="attached", timeout=30000)  # the panels are in the page
    page.wait_for_selector("main a[data-href]", state="attached")  # page.js wrote the addresses out
    page.emulate_media(media="print")
    seen = page.evaluate(ON_PAPER)
    assert seen["figures"] > 0
    assert seen["controls"] == [] and seen["links"] == [] and seen["split"] == [] and seen["folded"] == []
    assert seen["notes"] >= 3  # the teaching notes print open: what a student can do, the activity...
    page.emulate_media(media="screen")  # on screen, the controls are there, the notes folded
    on_screen = page.evaluate(ON_PAPER)
    assert on_screen["controls"] != [] and on_screen["notes"] == 0
    pdf = page.pdf(format="A4")
    assert pdf[:5] == b"%PDF-"
    context.close()
