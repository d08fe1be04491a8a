"""Firefox and WebKit, driven the same way: open a page, run a function in it, wait for a
condition, click and type as a reader does, and read what the page complained about.

- Firefox ESR (Debian's `firefox-esr`) speaks WebDriver BiDi itself: started with
  `--remote-debugging-port 0`, it says on stderr where its WebSocket listens, and this module
  talks to it over that socket (PyPI `websockets`). Its console messages and uncaught errors
  arrive as `log.entryAdded` events.
- WebKit is WebKitGTK (Debian's `webkit2gtk-driver`), classic WebDriver through Selenium and
  `/usr/bin/WebKitWebDriver`, which runs its MiniBrowser on an X display (Xvfb). It reports no
  console messages, so every page of the test server carries a recorder (`conftest.RECORDER`)
  that keeps errors, unhandled rejections and CSP violations where a test can read them.

Both read the same recorder, so a problem counts in either engine whichever way it surfaced.
"""

from __future__ import annotations

import base64
import collections
import contextlib
import itertools
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import warnings
from pathlib import Path

FIREFOX = shutil.which("firefox-esr") or "/usr/bin/firefox-esr"
WEBKIT_DRIVER = shutil.which("WebKitWebDriver") or "/usr/bin/WebKitWebDriver"

# What the recorder kept (conftest.RECORDER), and clears it.
TAKE_PROBLEMS = "() => { const p = window.__problems || []; window.__problems = []; return p; }"


class PageError(AssertionError):
    """A function run in the page threw, or a wait ran out; says what and where."""


class Unanswered(PageError):
    """The engine lost a function's answer (WebKitWebDriver: "Could not parse script result",
    once in CI at d2d0728, as a page loaded): a wait asks again."""


class Engine:
    """What a test does with a browser (each engine fills in the transport)."""

    name = ""

    def open(self, url: str) -> None:
        raise NotImplementedError

    def call(self, function: str, *args):
        """Run the page function `function` (a JS function's source) with JSON-able args and
        return its JSON-able result; a Promise is awaited."""
        raise NotImplementedError

    def click_at(self, x: float, y: float) -> None:
        """A reader's click at these viewport coordinates (a real pointer, not a DOM event)."""
        raise NotImplementedError

    def type_text(self, text: str) -> None:
        """Keys typed into whatever has focus."""
        raise NotImplementedError

    def back(self) -> None:
        """The browser's Back, as its button gives it (not the page's history.back())."""
        raise NotImplementedError

    def screenshot(self, path: Path) -> None:
        raise NotImplementedError

    def resize(self, width: int, height: int) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    # ---- built on the above ----
    def wait_for(self, condition: str, *args, timeout: float = 60, what: str = ""):
        """Wait until the page function `condition` returns something truthy; return it."""
        end = time.monotonic() + timeout
        while True:
            try:
                value = self.call(condition, *args)
            except Unanswered:  # a condition only reads: ask again
                value = None
            if value:
                return value
            if time.monotonic() > end:
                raise PageError(f"{self.name}: still waiting after {timeout:g} s for "
                                f"{what or ' '.join(condition.split())[:160]}")
            time.sleep(0.1)

    def text(self, selector: str) -> str:
        return self.call("(s) => { const e = document.querySelector(s); return e ? e.textContent : null; }",
                         selector)

    def click(self, selector: str) -> None:
        """Scroll the element into view, then click its middle as a reader would: once it is
        on screen, has stopped moving (a scroll, or the site's header sliding down after a
        scroll up, may still be under way) and is what the pointer would hit there."""
        box = self.wait_for("""(s) => { const e = document.querySelector(s);
            if (!e) return null;
            const r = e.getBoundingClientRect();
            const [x, y] = [r.x + r.width / 2, r.y + r.height / 2];
            const last = window.__clickAim; window.__clickAim = [s, x, y];
            if (r.width > 0 && r.height > 0 && x >= 0 && y >= 0 && x < innerWidth && y < innerHeight) {
              const still = last && last[0] === s && last[1] === x && last[2] === y;
              const hit = document.elementFromPoint(x, y);
              return still && hit && (hit === e || e.contains(hit)) ? {x, y} : null;
            }
            e.scrollIntoView({block: 'center', inline: 'center'});
            return null; }""", selector, what=f"{selector} to be on screen and still")
        self.click_at(box["x"], box["y"])

    def type_into(self, selector: str, text: str, enter: bool = False) -> None:
        """Focus a field, select what it holds, and type text over it (Enter at the end)."""
        self.call("(s) => { const e = document.querySelector(s); e.scrollIntoView({block: 'center'}); "
                  "e.focus(); e.select(); }", selector)
        self.type_text(text + ("\ue007" if enter else ""))  # WebDriver's Enter key

    def problems(self) -> list[str]:
        """Everything the page complained about since the last call."""
        return list(self.call(TAKE_PROBLEMS) or [])


# ---- Firefox: WebDriver BiDi over a WebSocket ---------------------------------------------

def _remote_value(value: dict):
    """A BiDi RemoteValue as plain Python."""
    kind = value.get("type")
    if kind in ("string", "number", "boolean"):
        number = value.get("value")
        if kind == "number" and isinstance(number, str):  # "NaN", "-0", "Infinity"
            return float(number.replace("Infinity", "inf"))
        return number
    if kind in ("null", "undefined"):
        return None
    if kind == "array":
        return [_remote_value(v) for v in value.get("value", [])]
    if kind == "object":
        return {k if isinstance(k, str) else _remote_value(k): _remote_value(v)
                for k, v in value.get("value", [])}
    return f"<{kind}>"


class Firefox(Engine):
    name = "firefox"

    # Firefox's own automation preferences are applied by its remote agent; these keep a
    # fresh profile quiet on a machine without the internet.
    PREFS = {
        "browser.shell.checkDefaultBrowser": False,
        "browser.startup.homepage_override.mstone": "ignore",
        "datareporting.policy.dataSubmissionEnabled": False,
        "toolkit.telemetry.reportingpolicy.firstRun": False,
        "app.update.auto": False,
        "extensions.update.enabled": False,
        "network.captive-portal-service.enabled": False,
        "network.connectivity-service.enabled": False,
        "browser.safebrowsing.malware.enabled": False,
        "browser.safebrowsing.phishing.enabled": False,
    }

    def __init__(self, width: int = 1280, height: int = 900, profile: Path | None = None):
        """A new Firefox on a fresh profile, removed when it closes; or on `profile`, kept
        (a reader's same browser the next day: the benchmark's return visits)."""
        from websockets.sync.client import connect

        self.kept = profile is not None
        self.profile = profile or Path(tempfile.mkdtemp(prefix="attention-bench-firefox-"))
        (self.profile / "user.js").write_text("".join(
            f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in self.PREFS.items()))
        self.process = subprocess.Popen(
            [FIREFOX, "--headless", "--no-remote", "--remote-debugging-port", "0",
             "-profile", str(self.profile), "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        url = None
        end = time.monotonic() + 60
        for line in self.process.stderr:  # "WebDriver BiDi listening on ws://127.0.0.1:46249"
            found = re.search(r"WebDriver BiDi listening on (ws://\S+)", line)
            if found:
                url = found.group(1)
                break
            if time.monotonic() > end:
                break
        if not url:
            self.process.kill()
            self.process.wait(10)
            self.process.stderr.close()
            raise RuntimeError("Firefox did not open its WebDriver BiDi socket")
        # keep reading stderr, or a chatty Firefox blocks on a full pipe; its last lines say
        # why a command had no answer (a content process that crashed, say)
        self.said: collections.deque[str] = collections.deque(maxlen=20)
        self.drain = threading_drain(self.process.stderr, self.said)
        self.stack = contextlib.ExitStack()
        try:
            self.ws = self.stack.enter_context(
                connect(url.rstrip("/") + "/session", max_size=64 * 2**20, open_timeout=30))
            self.ids = itertools.count(1)
            self.log: list[dict] = []
            self.send("session.new", {"capabilities": {}})
            self.send("session.subscribe", {"events": ["log.entryAdded"]})
            self.context = self.send("browsingContext.getTree", {})["contexts"][0]["context"]
            self.resize(width, height)
        except BaseException:
            self._end()
            raise

    def send(self, method: str, params: dict, timeout: float = 120):
        """One BiDi command; events that arrive meanwhile are kept (log entries)."""
        mine = next(self.ids)
        self.ws.send(json.dumps({"id": mine, "method": method, "params": params}))
        end = time.monotonic() + timeout
        while True:
            try:
                text = self.ws.recv(timeout=max(0.1, end - time.monotonic()))
            except TimeoutError:
                said = "".join(self.said).strip() or "(nothing)"
                raise PageError(f"firefox: {method} had no answer in {timeout:g} s; "
                                f"Firefox last printed:\n{said}") from None
            message = json.loads(text)
            if message.get("id") == mine:
                if message.get("type") == "error":
                    raise PageError(f"firefox: {method}: {message.get('error')}: {message.get('message')}")
                return message.get("result", {})
            if message.get("method") == "log.entryAdded":
                self.log.append(message["params"])

    def open(self, url: str) -> None:
        self.send("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})
        self.log = []  # what the page left said (a load it broke off, say) is not this page's

    def call(self, function: str, *args):
        result = self.send("script.callFunction", {  # each argument crosses as JSON text
            "functionDeclaration": f"(...a) => ({function})(...a.map((x) => JSON.parse(x)))",
            "awaitPromise": True,
            "arguments": [{"type": "string", "value": json.dumps(a)} for a in args],
            "target": {"context": self.context}, "resultOwnership": "none",
        })
        if result.get("type") == "exception":
            details = result.get("exceptionDetails", {})
            raise PageError(f"firefox: {details.get('text')} in {' '.join(function.split())[:120]}")
        return _remote_value(result["result"])

    def click_at(self, x: float, y: float) -> None:
        self.send("input.performActions", {"context": self.context, "actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "x": round(x), "y": round(y)},
                        {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}]})

    def type_text(self, text: str) -> None:
        keys = [step for ch in text for step in ({"type": "keyDown", "value": ch}, {"type": "keyUp", "value": ch})]
        self.send("input.performActions", {"context": self.context, "actions": [
            {"type": "key", "id": "keyboard", "actions": keys}]})

    def back(self) -> None:
        self.send("browsingContext.traverseHistory", {"context": self.context, "delta": -1})

    def screenshot(self, path: Path) -> None:
        data = self.send("browsingContext.captureScreenshot", {"context": self.context})["data"]
        Path(path).write_bytes(base64.b64decode(data))

    def resize(self, width: int, height: int) -> None:
        self.send("browsingContext.setViewport", {"context": self.context,
                                                  "viewport": {"width": width, "height": height}})

    def problems(self) -> list[str]:
        found = super().problems()
        for entry in self.log:  # what the page's own recorder cannot see (a worker's errors)
            if entry.get("level") == "error":
                found.append(f"firefox {entry.get('type')}: {entry.get('text')}")
        self.log = []
        return found

    def close(self) -> None:
        with contextlib.suppress(Exception):  # closing anyway
            self.send("session.end", {}, timeout=10)
        self._end()

    def _end(self) -> None:
        """Close the socket, end Firefox, remove its profile (unless it is kept)."""
        try:
            self.stack.close()
        finally:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
            self.drain.join(10)  # the pipe is at its end once Firefox is
            self.process.stderr.close()
            if not self.kept:
                shutil.rmtree(self.profile, ignore_errors=True)


def threading_drain(stream, keep: collections.deque | None = None) -> threading.Thread:
    """Read a stream to its end on a daemon thread (returned, to be joined), keeping its last
    lines in keep."""
    sink = keep if keep is not None else collections.deque(maxlen=0)
    thread = threading.Thread(target=lambda: sink.extend(stream), daemon=True)
    thread.start()
    return thread


# ---- WebKit: WebKitGTK's WebDriver through Selenium, on Xvfb ------------------------------

class Xvfb:
    """A virtual X display of its own (Xvfb picks a free number and tells it on a pipe)."""

    def __init__(self):
        read, write = os.pipe()
        self.process = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", "1400x1000x24", "-nolisten", "tcp"],
            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number:
            self.process.kill()
            raise RuntimeError("Xvfb did not start")
        self.display = f":{number}"

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(10)


class WebKit(Engine):
    name = "webkit"

    def __init__(self, width: int = 1280, height: int = 900):
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        self.xvfb = Xvfb()
        env = {**os.environ, "DISPLAY": self.xvfb.display}
        service = Service(executable_path=WEBKIT_DRIVER, env=env)
        try:
            with warnings.catch_warnings():  # Selenium's own use of its deprecated argument
                warnings.filterwarnings("ignore", "setting remote_server_addr", DeprecationWarning)
                self.driver = webdriver.WebKitGTK(service=service, options=Options())
        except Exception:
            self.xvfb.close()
            raise
        self.driver.set_script_timeout(120)
        self.driver.set_page_load_timeout(120)
        self.resize(width, height)

    def open(self, url: str) -> None:
        self.driver.get(url)

    def call(self, function: str, *args):
        from selenium.common.exceptions import JavascriptException, WebDriverException

        script = ("const done = arguments[arguments.length - 1];"
                  f"Promise.resolve().then(() => ({function})(...JSON.parse(arguments[0])))"
                  ".then((v) => done({ok: v === undefined ? null : v}), (e) => done({error: String(e && e.stack || e)}));")
        try:
            out = self.driver.execute_async_script(script, json.dumps(list(args)))
        except JavascriptException as exc:
            raise PageError(f"webkit: {exc.msg}") from None
        except WebDriverException as exc:
            if "Could not parse script result" in str(exc.msg):  # the page went as it answered
                raise Unanswered(f"webkit: {exc.msg}") from None
            raise
        if out is None:
            return None
        if "error" in out:
            raise PageError(f"webkit: {out['error']} in {' '.join(function.split())[:120]}")
        return out["ok"]

    def click_at(self, x: float, y: float) -> None:
        from selenium.webdriver.common.actions.action_builder import ActionBuilder

        actions = ActionBuilder(self.driver)
        actions.pointer_action.move_to_location(round(x), round(y)).click()
        actions.perform()

    def type_text(self, text: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(self.driver).send_keys(text).perform()

    def back(self) -> None:
        self.driver.back()

    def screenshot(self, path: Path) -> None:
        self.driver.save_screenshot(str(path))

    def resize(self, width: int, height: int) -> None:
        self.driver.set_window_size(width, height)

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            self.xvfb.close()


ENGINES = {"firefox": Firefox, "webkit": WebKit}
