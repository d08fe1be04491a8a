"""The whole built site passes the Nu HTML Checker, and every internal link and anchor resolves."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from sitebuild.site import ROOT

VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
IMPORT = re.compile(r'^\s*(?:import|export)\s[^;]*?from\s+"(\.{1,2}/[^"]+)"', re.M)


class _Refs(HTMLParser):
    """Collect every id and every URL an HTML page refers to."""

    def __init__(self):
        super().__init__()
        self.ids, self.urls = set(), []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        for name in ("href", "src"):
            if attrs.get(name) and tag in ("a", "link", "script", "img", "iframe"):
                self.urls.append(attrs[name])


def test_every_page_passes_the_nu_html_checker(built_site):
    java = shutil.which("java")
    assert java and VNU.is_file(), "the test command installs Java's vnu.jar with npm ci"
    result = subprocess.run([java, "-jar", str(VNU), "--format", "json", "--errors-only",
                             "--skip-non-html", str(built_site)], capture_output=True, text=True)
    messages = json.loads(result.stderr)["messages"]
    pages = list(built_site.rglob("*.html"))
    assert len(pages) >= 14
    assert [(m.get("url", "").rsplit("/site/", 1)[-1], m.get("lastLine"), m["message"])
            for m in messages] == []


def _target(site: Path, page: Path, url: str) -> tuple[Path, str]:
    """Resolve a page's relative URL to a file in the site and a fragment."""
    base = "http://site/" + page.relative_to(site).as_posix()
    parts = urlsplit(urljoin(base, url))
    path = parts.path.lstrip("/")
    if path == "" or path.endswith("/"):
        path += "index.html"
    return site / path, parts.fragment


def test_every_internal_link_anchor_and_asset_resolves(built_site):
    parsed = {}
    for page in built_site.rglob("*.html"):
        refs = _Refs()
        refs.feed(page.read_text(encoding="utf-8"))
        parsed[page] = refs
    checked = 0
    for page, refs in parsed.items():
        for url in refs.urls:
            if urlsplit(url).scheme in ("http", "https", "data", "mailto"):
                continue
            file, fragment = _target(built_site, page, url)
            assert file.is_file(), f"{page.relative_to(built_site)}: {url} is missing"
            if fragment and file.suffix == ".html":
                assert fragment in parsed[file].ids, f"{page.relative_to(built_site)}: no #{fragment}"
            checked += 1
    assert checked > 250


def test_every_module_import_and_cached_file_exists(built_site):
    for module in (built_site / "static" / "js").rglob("*.js"):
        for target in IMPORT.findall(module.read_text(encoding="utf-8")):
            assert (module.parent / target).resolve().is_file(), f"{module.name} imports {target}"
    sw = (built_site / "sw.js").read_text(encoding="utf-8")
    for name in ("SITE_FILES", "RUNTIME_FILES"):
        files = json.loads(re.search(rf"const {name} = (\[.*?\]);", sw).group(1))
        assert files
        for file in files:
            path = built_site / (file if not file.endswith("/") and file != "./" else file + "index.html")
            assert path.resolve().is_file(), f"sw.js precaches a missing {file}"
