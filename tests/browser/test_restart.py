"""templates/static/js/runtime.js in real Chromium: a start of Python that stops answering is
made once more, in a new worker, before the page says that Python cannot start; a second
silence is said in plain words, naming the step where it stopped."""

from __future__ import annotations

# The page's first N workers are real, but deaf: the page's messages never reach them, so they
# never start (as a start hung in its import of NumPy said nothing more). The page hears the
# silence after 3 s (data-runtime-silence) instead of a minute.
DEAF = """(deaf) => {
  const Real = window.Worker;
  window.__workers = 0;
  window.Worker = class extends Real {
    constructor(...args) {
      super(...args);
      window.__workers += 1;
      // 3 s for a deaf one; a real start's import of NumPy says nothing for longer than that
      // on a busy machine (the test failed so in CI), so it gets the page's own time
      document.body.dataset.runtimeSilence = window.__workers <= deaf ? '3000' : '';
      if (window.__workers <= deaf) this.postMessage = () => {};
    }
  };
}"""


def open_lab(browser, server, deaf: int):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(script=f"({DEAF})({deaf})")
    page = context.new_page()
    page.goto(server + "lab/")
    page.click('#fig-003 .pad')  # a state no table holds: Python starts at once
    return context, page


def test_a_start_that_stops_answering_is_made_once_more_and_python_computes(browser, server):
    context, page = open_lab(browser, server, deaf=1)
    try:
        try:
            page.wait_for_selector('#fig-003 .runtime-status[data-state="ready"]', timeout=90000)
        except Exception as exc:
            raise AssertionError(page.inner_text("#fig-003 .runtime-status")) from exc
        assert page.evaluate("window.__workers") == 2
    finally:
        context.close()


def test_a_second_silence_says_where_the_start_stopped(browser, server):
    context, page = open_lab(browser, server, deaf=2)
    try:
        page.wait_for_selector('#fig-003 .runtime-status[data-state="failed"]', timeout=60000)
        said = page.inner_text("#fig-003 .runtime-status")
        assert "the runtime stopped answering while downloading" in said and "Try again" in page.inner_text("#fig-003")
        assert page.evaluate("window.__workers") == 2
    finally:
        context.close()
