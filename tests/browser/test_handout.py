"""A class handout (handout/<figure id>/?<state>) in real Chromium: its numbers and questions
are the state's its address sets, as CPython computes them (attention.protocol.handout), follow a state
the teacher sets in the figure, and print as a PDF of at most three A4 pages with the state's
numbers, the answers on a page of their own, and no controls."""

from __future__ import annotations

import io
import unicodedata

import pypdf
import pytest

from attention.protocol import handout

# What the handout shows: its setting, its table and its questions and answers, as text.
SHOWN = """() => { const h = document.querySelector('.handout');
  return { state: h.dataset.state,
           setting: [...h.querySelectorAll('.handout-setting > div')].map((d) => ({name: d.querySelector('dt').textContent, text: d.querySelector('dd').textContent})),
           columns: [...h.querySelectorAll('thead th')].map((th) => th.textContent),
           rows: [...h.querySelectorAll('tbody tr')].map((tr) => [...tr.cells].map((td) => td.textContent)),
           prompts: [...h.querySelectorAll('.handout-prompt')].map((p) => p.textContent),
           choices: [...h.querySelectorAll('.handout-choices')].map((ul) => [...ul.children].map((li) => li.textContent)),
           why: [...h.querySelectorAll('.handout-why')].map((p) => p.textContent) }; }"""


def expected(of: str, url: dict) -> dict:
    h = handout.view(of, url)
    return {"state": "current", "setting": h["setting"], "columns": h["columns"], "rows": h["rows"],
            "prompts": [q["prompt"] for q in h["questions"]],
            "choices": [[c["label"] for c in q["choices"]] for q in h["questions"]],
            "why": [q["explanation"] for q in h["questions"]]}


def settled(page, of: str, url: dict):
    """Wait until the handout shows the state of url, as Python computed it."""
    first = handout.view(of, url)["setting"][0]["text"]
    page.wait_for_function(f"""() => {{ const h = document.querySelector('.handout');
      return h.dataset.state === 'current' && h.querySelector('.handout-setting dd').textContent === {first!r}; }}""",
                           timeout=90000)


@pytest.fixture
def fresh(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


def test_the_address_state_is_computed_and_follows_the_teachers_click(fresh, server):
    page = fresh
    errors = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(server + "handout/fig-002/?query=load")
    settled(page, "fig-002", {"query": "load"})
    assert page.evaluate(SHOWN) == expected("fig-002", {"query": "load"})
    page.click('#fig-002 tr[data-query="grid"] button')  # the teacher sets another state
    settled(page, "fig-002", {"query": "grid"})
    assert page.evaluate(SHOWN) == expected("fig-002", {"query": "grid"})
    # the printed link to the chapter opens that state there
    assert page.get_attribute(".handout-from a", "data-href") == f"{server}mixture/?query=grid#fig-002"
    assert errors == []


@pytest.mark.parametrize(("of", "url"), [
    ("fig-003", {"q": "0.5,-1", "mask": "1,0,1", "t": "0.5"}),
    ("fig-004", {"sentence": "the farmer saw the doctor and he left", "query": "6", "head": "previous"}),
    ("fig-006", {}),
    ("fig-009", {"word": "3", "off": "mlp"}),  # the layer's compact form
])
def test_the_printed_handout_has_the_states_numbers_in_three_pages_without_controls(fresh, server, of, url):
    page = fresh
    page.emulate_media(color_scheme="dark")  # a teacher's laptop in dark mode: paper is light
    query = "&".join(f"{k}={v}" for k, v in url.items())
    page.goto(server + f"handout/{of}/" + (f"?{query}" if query else ""))
    if url:
        settled(page, of, url)
    page.wait_for_selector('.handout[data-state="current"]')
    h = handout.view(of, url)
    pdf = pypdf.PdfReader(io.BytesIO(page.pdf(format="A4")))
    assert len(pdf.pages) <= 3, len(pdf.pages)
    # (NFKC: the PDF's ligatures, "ﬁ", read as their letters)
    text = [" ".join(unicodedata.normalize("NFKC", p.extract_text()).split()) for p in pdf.pages]
    paper = " ".join(text)
    for row in h["rows"][:3] + h["rows"][-2:]:
        assert " ".join(row) in paper, row  # the state's numbers, row by row
    assert all(s["text"] in paper for s in h["setting"] if len(s["text"]) < 40)
    answers = next(k for k, t in enumerate(text) if "Answers" in t)
    assert answers == len(text) - 1 and "Answers" not in " ".join(text[:answers])  # a page of their own
    assert h["questions"][0]["explanation"][:40] in " ".join(text[answers].split())
    assert f"To the handout of {h['number']}" in text[answers]  # the answers say which state they answer
    assert h["state_text"][:30] in text[answers]
    page.emulate_media(media="print")
    light = page.evaluate("""() => { const s = getComputedStyle(document.documentElement);
      return [s.getPropertyValue('--bar-track').trim(), s.getPropertyValue('--query').trim(), s.colorScheme]; }""")
    assert light == ["#e4e0d4", "#fff1c2", "light"], light  # the light palette's, not the dark one's
    assert "Print this handout" not in paper and "Try again" not in paper and "Load Python" not in paper
    assert "Remove" not in paper or of != "fig-003"  # the what-if panel's switches


def test_without_python_a_links_state_is_never_shown_as_the_build_numbers(fresh, server):
    """The runtime's files refused: the link's state (no table holds it) cannot be computed,
    and the handout says its numbers are another state's, in plain words."""
    page = fresh
    page.route("**/runtime/**", lambda route: route.abort())
    page.goto(server + "handout/fig-003/?q=0.5,-1&mask=1,0,1&t=0.5")
    said = page.locator(".handout .handout-status")
    page.wait_for_function("() => document.querySelector('.handout').dataset.state === 'failed'", timeout=90000)
    assert "another state’s" in said.inner_text() and "Python" in said.inner_text()
    assert page.get_attribute(".handout", "class").split().count("is-stale") == 1
    assert page.get_attribute('[data-bind="print"]', "aria-disabled") == "true"
    page.emulate_media(media="print")  # on paper: the warning alone, no numbers of another state
    assert page.is_visible(".handout-status") and page.is_hidden(".handout-table") and page.is_hidden(".handout-answers")


def test_without_javascript_each_guide_entry_leads_to_a_complete_handout(no_js, server):
    """The guide links every figure that has a handout; with JavaScript off a handout is whole
    at the figure's opening state, says so, and offers no button that would do nothing."""
    page = no_js
    page.goto(server + "embed/")
    linked = page.eval_on_selector_all("a", "as => as.filter(a => a.textContent.startsWith('Print a handout')).map(a => a.href)")
    assert linked == [f"{server}handout/{f.id}/" for f in handout.figures()]
    for url, figure in zip(linked, handout.figures()):
        page.goto(url)
        h = handout.view(figure.id)
        shown = page.evaluate(SHOWN)
        assert shown["rows"] == h["rows"] and shown["prompts"] == [q["prompt"] for q in h["questions"]]
        assert page.is_visible("text=Without JavaScript this handout shows the figure’s opening state")
        assert page.is_hidden(".handout-tools")
