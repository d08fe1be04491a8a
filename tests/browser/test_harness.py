"""The browser tests' own harness: a wait in the page that never ends fails, and says so."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import within


def test_a_wait_in_the_page_that_never_ends_fails_and_says_what_it_waited_for(desktop):
    page = desktop.page
    page.goto(desktop.base)
    with pytest.raises(PlaywrightError, match=r"still waiting after 0\.5 s: \(\) => new Promise"):
        page.evaluate(within(0.5, "() => new Promise(() => {})"))
    assert page.evaluate(within(5, "async (x) => x * 2"), 21) == 42  # an answer passes through
    with pytest.raises(PlaywrightError, match="refused"):  # and so does a failure of its own
        page.evaluate(within(5, "async () => { throw new Error('refused'); }"))
