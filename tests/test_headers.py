"""The header rules: _headers, the nginx snippet and `build.py serve` say the same thing."""

from __future__ import annotations

import re
import urllib.request
from html import unescape
from pathlib import Path

import pytest

from sitebuild import headers
from sitebuild.site import csp
from tests.assets import asset
from tests.browser.conftest import serving

YEAR = "public, max-age=31536000, immutable"
TRANSPORT = {"server", "date", "content-length", "content-encoding", "vary", "etag",
             "accept-ranges", "content-range", "connection", "keep-alive"}


@pytest.fixture(scope="module")
def served(built_site):
    with serving(built_site) as base:
        yield base.rstrip("/")


def get_headers(base: str, path: str) -> dict[str, str]:
    """GET path and return its response headers (lower-case names) but the transport ones."""
    with urllib.request.urlopen(base + path) as resp:
        resp.read()
        return {k.lower(): v for k, v in resp.headers.items() if k.lower() not in TRANSPORT}


def kinds(site: Path) -> dict[str, str]:
    """One request path of each kind of file, found in the built site."""
    return {
        "page": "/roles/",
        "home": "/",
        "embed page": "/embed/fig-002/",
        "stylesheet": "/" + asset(site, "static/style.css").relative_to(site).as_posix(),
        "module": "/" + asset(site, "static/js/page.js").relative_to(site).as_posix(),
        "worker": "/" + asset(site, "static/js/worker.js").relative_to(site).as_posix(),
        "wheel": "/" + next(site.glob("py/*/attention_bench-*.whl")).relative_to(site).as_posix(),
        "runtime wasm": "/runtime/0.27.7/pyodide.asm.wasm",
        "runtime module": "/runtime/0.27.7/pyodide.mjs",
        "runtime lock": "/runtime/0.27.7/pyodide-lock.json",
        "service worker": "/sw.js",
    }


# What each kind must carry, written out by hand from the issue: pages and fixed names are
# revalidated on every use, content-hashed and versioned files are kept for a year.
EXPECTED = {
    "page": ("no-cache", "text/html; charset=utf-8"),
    "home": ("no-cache", "text/html; charset=utf-8"),
    "embed page": ("no-cache", "text/html; charset=utf-8"),
    "stylesheet": (YEAR, "text/css; charset=utf-8"),
    "module": (YEAR, "text/javascript; charset=utf-8"),
    "worker": (YEAR, "text/javascript; charset=utf-8"),
    "wheel": (YEAR, "application/zip"),
    "runtime wasm": (YEAR, "application/wasm"),
    "runtime module": (YEAR, "text/javascript; charset=utf-8"),
    "runtime lock": (YEAR, "application/json"),
    "service worker": ("no-cache", "text/javascript; charset=utf-8"),
}


def test_serve_sends_the_policy_and_the_cache_headers_of_each_kind(built_site, served):
    policy = csp(False)
    for kind, path in kinds(built_site).items():
        got = get_headers(served, path)
        cache, ctype = EXPECTED[kind]
        assert got["cache-control"] == cache, kind
        assert got["content-type"] == ctype, kind
        assert got["content-security-policy"] == policy, kind
        assert got["x-content-type-options"] == "nosniff", kind
        assert got["referrer-policy"] == "strict-origin-when-cross-origin", kind
    assert "immutable" not in get_headers(served, "/sw.js")["cache-control"]


def test_serve_sends_exactly_what_the_headers_file_says(built_site, served):
    rules = headers.parse((built_site / "_headers").read_text(encoding="utf-8"))
    for kind, path in kinds(built_site).items():
        said = {k.lower(): v for k, v in headers.match(rules, path).items()}
        got = get_headers(served, path)
        assert {k: got.get(k) for k in said} == said, kind
        assert set(got) - set(said) <= {"content-type"}, kind  # the host's own type otherwise
        assert got == {k.lower(): v for k, v in headers.headers_for(path.lstrip("/"), csp(False)).items()}


def test_every_file_gets_each_header_from_exactly_one_rule(built_site):
    """Netlify lets a later rule win, Cloudflare joins values: so no header may be set twice."""
    rules = headers.parse((built_site / "_headers").read_text(encoding="utf-8"))
    files = [p.relative_to(built_site).as_posix() for p in built_site.rglob("*") if p.is_file()]
    files = [f for f in files if not f.startswith((".", "_")) and not f.endswith((".gz", ".br"))]
    assert len(files) > 30
    for rel in files:
        paths = [f"/{rel}"] + ([f"/{rel.removesuffix('index.html')}"] if rel.endswith("index.html") else [])
        for path in paths:
            names = [n for r in rules if r.matches(path) for n, _ in r.headers]
            assert len(names) == len(set(names)), (path, names)
            assert "Cache-Control" in names and "Content-Security-Policy" in names, path


def test_the_headers_file_fits_cloudflare_limits(built_site):
    text = (built_site / "_headers").read_text(encoding="utf-8")
    assert len(headers.parse(text)) <= 100  # Cloudflare Pages reads at most 100 rules
    assert max(len(line) for line in text.splitlines()) <= 2000


def test_the_page_meta_policy_is_the_header_policy(built_site, served):
    html = (built_site / "lab" / "index.html").read_text(encoding="utf-8")
    meta = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', html).group(1)
    assert unescape(meta) == get_headers(served, "/lab/")["content-security-policy"]


def test_a_cdn_build_allows_the_cdn_in_its_headers(tmp_path):
    from sitebuild.site import build

    build(tmp_path / "site", cdn=True)
    rules = headers.parse((tmp_path / "site" / "_headers").read_text(encoding="utf-8"))
    policy = headers.match(rules, "/lab/")["Content-Security-Policy"]
    assert "connect-src 'self' https://cdn.jsdelivr.net;" in policy
    assert not any(r.pattern.startswith("/runtime/") for r in rules)  # nothing of it shipped


def _locations(conf: str) -> dict[str, str]:
    return dict(re.findall(r"^location ([^{]+?) \{\n(.*?)^\}", conf, re.S | re.M))


def test_the_nginx_snippet_repeats_every_header_in_every_location(built_site):
    conf = (built_site / "_nginx.conf").read_text(encoding="utf-8")
    blocks = _locations(conf)
    assert set(blocks) >= {"/", "^~ /static/", "^~ /py/", "^~ /runtime/"}
    policy = csp(False)
    for location, body in blocks.items():
        if "return 404" in body:
            continue
        added = dict(re.findall(r'^\s+add_header (\S+) "([^"]*)" always;$', body, re.M))
        cache = "no-cache" if location == "/" else YEAR
        assert added == {"Content-Security-Policy": policy, "X-Content-Type-Options": "nosniff",
                         "Referrer-Policy": "strict-origin-when-cross-origin",
                         "Cache-Control": cache}, location
    assert re.search(r"^gzip_static on;$", conf, re.M) and re.search(r"^gzip_vary on;$", conf, re.M)
    types = re.search(r"^types \{\n(.*?)^\}", conf, re.S | re.M).group(1)
    assert re.search(r"^\s+application/wasm wasm;$", types, re.M)
    assert re.search(r"^\s+text/javascript js mjs;$", types, re.M)
    assert "return 404" in blocks["~ ^/(_headers|_nginx\\.conf|\\.)"]


def test_parse_reads_back_what_render_writes():
    rules = [headers.Rule("/*", (("A", "x; y"), ("B", "1"))), headers.Rule("/sw.js", (("C", "z"),))]
    assert headers.parse(headers.render(rules)) == rules
    assert headers.match(rules, "/sw.js") == {"A": "x; y", "B": "1", "C": "z"}
    assert headers.match(rules, "/sw.jsx") == {"A": "x; y", "B": "1"}
