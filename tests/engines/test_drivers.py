"""The engines' drivers themselves: what a test sees when an engine does not answer."""

from __future__ import annotations

import time

import pytest

from tests.engines.conftest import missing
from tests.engines.drivers import Firefox, PageError


def test_a_command_firefox_never_answers_fails_in_its_time_and_says_what_firefox_printed():
    """A BiDi command with no answer (here a promise that never settles) ends at its timeout
    with the command's name and Firefox's last printed lines, not a bare socket timeout, and
    the window still answers the next command. (CI once waited 120 s on a page call after a
    navigation and reported only the socket's "timed out".)"""
    why = missing("firefox")
    if why:
        raise RuntimeError(why)
    firefox = Firefox()
    try:
        started = time.monotonic()
        with pytest.raises(PageError, match=r"script\.callFunction had no answer in 1 s; Firefox last printed:"):
            firefox.send("script.callFunction", {
                "functionDeclaration": "() => new Promise(() => {})", "awaitPromise": True,
                "target": {"context": firefox.context}}, timeout=1)
        assert time.monotonic() - started < 10
        assert firefox.call("() => 6 * 7") == 42
    finally:
        firefox.close()
