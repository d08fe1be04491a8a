"""Deploying in real Chromium: the worker's own policy, compressed runtime, one build per tab."""

from __future__ import annotations

import json
from pathlib import Path

from sitebuild.browser_transfer import transfer_until_ready
from sitebuild.site import build, csp
from tests.browser.conftest import WORKER_READY, serving, watch
from tests.browser.test_trust import CACHED, READY, VIOLATIONS, until

WORKER_VIOLATIONS = """() => { self.__violations = [];
  self.addEventListener('securitypolicyviolation',
    (e) => self.__violations.push(e.violatedDirective + ' ' + e.blockedURI)); }"""
CARRIAGE = "() => document.querySelector('#fig-004 [data-bind=\"carriage-word\"]').textContent"


def test_the_worker_runs_python_and_the_bench_under_its_own_header_policy(browser, server, built_site):
    with serving(built_site) as other:  # another origin, for a request the policy must stop
        _worker_under_policy(browser, server, other)


def _worker_under_policy(browser, server, other):
    context = browser.new_context()
    context.add_init_script(VIOLATIONS)
    w = watch(context, server)
    responses, workers = {}, []
    w.page.on("response", lambda r: responses.__setitem__(r.url, r))
    w.page.on("worker", lambda wk: workers.append(wk))
    w.page.goto(server + "bench/")
    w.page.wait_for_selector(READY, timeout=60000)
    worker_url = w.page.evaluate("new URL(document.body.dataset.worker, document.baseURI).href")
    assert [wk.url for wk in workers] == [worker_url]
    assert responses[worker_url].headers["content-security-policy"] == csp(False)
    assert responses[worker_url].headers["content-type"] == "text/javascript; charset=utf-8"
    wasm = responses[server + "runtime/0.27.7/pyodide.asm.wasm"]
    assert wasm.headers["content-encoding"] in ("gzip", "br")  # and Python started from it
    # The bench works: Python in the worker answers a click.
    w.page.click('#fig-005 tr[data-index="1"]')
    w.page.wait_for_function(f"() => ({CARRIAGE})() === 'engineer'")
    # The header policy governs the worker itself (a <meta> policy would not): a request
    # from the worker to another origin is refused, and reported there.
    worker = workers[0]
    worker.evaluate(WORKER_VIOLATIONS)
    outcome = worker.evaluate(f"() => fetch({other!r} + 'probe').then(() => 'reached', () => 'refused')")
    assert outcome == "refused"
    worker.evaluate("() => new Promise((r) => setTimeout(r, 200))")
    assert worker.evaluate("() => self.__violations") == [f"connect-src {other}probe"]
    assert w.page.evaluate("window.__violations") == []
    w.assert_clean()  # no console error from the page or the worker, nothing from elsewhere
    context.close()


def test_a_first_visit_to_the_bench_transfers_at_most_9_mb(browser, built_site):
    with serving(built_site) as base, serving(built_site, encodings=False) as plain_base:
        packed = transfer_until_ready(browser, base, "bench/")
        raw = transfer_until_ready(browser, plain_base, "bench/")
    runtime_bytes = sum((built_site / "runtime" / "0.27.7" / n).stat().st_size
                        for n in ("pyodide.asm.wasm", "pyodide.asm.js", "python_stdlib.zip"))
    assert raw["bytes"] > runtime_bytes  # the worker's downloads are counted too
    assert packed["bytes"] <= 9_000_000, packed
    assert packed["paths"] == raw["paths"]  # the same files, only smaller


def _manifest(site: Path) -> tuple[str, set[str]]:
    data = json.loads((site / ".attention-bench-assets.json").read_text(encoding="utf-8"))
    return data["build"], set(data["files"])


class _Tab:
    """A tab that records the hashed files (static/, py/) each document in it loads."""

    def __init__(self, context, base: str):
        self.w = watch(context, base)
        self.page, self.base, self.loaded = self.w.page, base, []
        self.page.on("request", lambda r: r.url.startswith((base + "static/", base + "py/"))
                     and self.loaded.append(r.url.removeprefix(base)))

    def open(self, path: str, reload: bool = False) -> None:
        self.loaded = []
        self.page.reload() if reload else self.page.goto(self.base + path)
        self.page.wait_for_selector(READY, timeout=60000)

    def build(self) -> str:
        return self.page.evaluate("document.body.dataset.build")

    def click_row(self, index: int, word: str) -> None:
        self.page.click(f'#fig-005 tr[data-index="{index}"]')
        self.page.wait_for_function(f"() => ({CARRIAGE})() === {word!r}")


def test_a_tab_on_the_old_build_keeps_its_files_and_never_mixes_them_with_the_new(browser, own_build):
    templates, site = own_build
    with serving(site) as base:
        _old_and_new_build(browser, templates, site, base)


def _old_and_new_build(browser, templates, site, base):
    a_id, a_files = _manifest(site)
    context = browser.new_context()
    one = _Tab(context, base)
    one.open("bench/")
    one.page.evaluate(WORKER_READY)
    until(one.page, CACHED, ["-runtime-", 6], timeout_s=60)
    until(one.page, CACHED, [f"-site-{a_id}", 20], timeout_s=60)

    # Build B into the same folder, changing one module every bench module depends on.
    for name in ("dom.js", "worker.js"):
        js = templates / "static" / "js" / name
        js.write_text(js.read_text(encoding="utf-8") + "\nexport const rebuilt = true;\n", encoding="utf-8")
    build(site, templates)
    b_id, b_files = _manifest(site)
    changed = {f for f in a_files - b_files if "/dom." in f or "/page." in f or "/worker." in f}
    assert len(changed) == 3

    one.click_row(6, "she")  # the old tab still works, on what it loaded
    two = _Tab(context, base)
    two.open("bench/")  # a new tab gets the new build, whole
    two.click_row(1, "engineer")
    assert (one.build(), two.build()) == (a_id, b_id)
    assert one.loaded and set(one.loaded) <= a_files
    assert two.loaded and set(two.loaded) <= b_files and not set(two.loaded) <= a_files

    # Offline, the old worker (still in charge: a tab shows its build) serves whole builds.
    context.set_offline(True)
    for tab in (one, two):
        tab.open("", reload=True)
        assert tab.loaded and any(set(tab.loaded) <= files for files in (a_files, b_files))
        assert set(tab.loaded) <= (a_files if tab.build() == a_id else b_files)
        tab.click_row(4, "bridge")
    context.set_offline(False)

    # Once no tab shows build A, A's cache goes (the new worker drops it while it waits).
    one.page.close()
    two.open("", reload=True)
    assert two.build() == b_id and set(two.loaded) <= b_files
    until(two.page, "async () => { const k = (await caches.keys()).filter(k => k.includes('-site-'));"
                    f" return k.length === 1 && k[0].endsWith({b_id!r}); }}", timeout_s=60)
    two.click_row(5, "before")
    context.set_offline(True)  # and build B, whole, is what works offline now
    two.open("", reload=True)
    assert two.build() == b_id and set(two.loaded) <= b_files
    two.click_row(6, "she")
    one.w.assert_clean()
    two.w.assert_clean()
    context.close()
