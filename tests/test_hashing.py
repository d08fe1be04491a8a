"""Content-hashed names: every static URL a page loads names its content, and only it."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

from sitebuild import hashing
from sitebuild.errors import BuildError
from sitebuild.site import TEMPLATES, build

NAMED = re.compile(r"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{10})(?P<ext>\.[^./]+)$")
IMPORTS = re.compile(r'(?:\bfrom\s*|\bimport\s*\(?\s*)"(\.{1,2}/[^"]+)"')


class _Urls(HTMLParser):
    """Every URL-valued attribute of a page: src, href and data-* values that look like paths."""

    def __init__(self):
        super().__init__()
        self.urls = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if not value:
                continue
            if name in ("src", "href") and tag in ("link", "script", "img", "iframe", "source"):
                self.urls.append(value)
            elif (name.startswith("data-") or tag == "meta" and name == "content") \
                    and re.match(r"^(\.\.?/|/)", value):
                self.urls.extend(value.split())  # data-answers lists a page's tables


def _site_path(site: Path, page: Path, url: str) -> str | None:
    """Resolve a URL found in page to a path below the site, or None if it leaves the site."""
    base = "http://site/" + page.relative_to(site).as_posix()
    parts = urlsplit(urljoin(base, url))
    return parts.path.lstrip("/") if parts.netloc == "site" else None


def _check_named_by_content(site: Path, rel: str) -> None:
    """A loaded file is content-hashed (sha256 of its bytes), or lives under a versioned path."""
    if rel.startswith("runtime/0.27.7/"):
        return  # the pinned runtime: versioned, every file verified by its own sha256
    data = (site / rel).read_bytes()
    if rel.startswith("py/"):
        folder = rel.split("/")[1]
        assert folder == hashlib.sha256(data).hexdigest()[:16], rel
        return
    m = NAMED.match(rel.rsplit("/", 1)[-1])
    assert m, f"{rel} has no content hash in its name"
    assert m["hash"] == hashlib.sha256(data).hexdigest()[:10], f"{rel} does not name its content"


def test_every_static_url_in_every_page_names_its_content(built_site):
    checked = set()
    pages = list(built_site.rglob("*.html"))
    assert len(pages) >= 14
    for page in pages:
        refs = _Urls()
        refs.feed(page.read_text(encoding="utf-8"))
        for url in refs.urls:
            rel = _site_path(built_site, page, url)
            if rel is None or rel == "" or rel.endswith("/") and not rel.startswith("runtime/"):
                continue  # another page (navigation), or another origin
            if rel.endswith(".html"):
                continue
            if rel.endswith("/"):  # the runtime's folder
                assert rel == "runtime/0.27.7/", (page, url)
                continue
            assert (built_site / rel).is_file(), f"{page}: {url} is missing"
            _check_named_by_content(built_site, rel)
            checked.add(rel)
    worker = [r for r in checked if r.startswith("static/js/worker.")]
    assert worker and any(r.startswith("py/") for r in checked) and any(r.endswith(".css") for r in checked)


def test_every_module_import_names_its_content(built_site):
    modules = list((built_site / "static" / "js").rglob("*.js"))
    specifiers = 0
    for module in modules:
        _check_named_by_content(built_site, module.relative_to(built_site).as_posix())
        for spec in IMPORTS.findall(module.read_text(encoding="utf-8")):
            target = (module.parent / spec).resolve().relative_to(built_site.resolve()).as_posix()
            _check_named_by_content(built_site, target)
            specifiers += 1
    assert specifiers >= 10  # static imports and the widget table's dynamic import("./figures/fig-004….js")
    page = next(m for m in modules if m.name.startswith("page."))
    assert re.search(r'from "\./widgets\.[0-9a-f]{10}\.js"', page.read_text(encoding="utf-8"))
    table = next(m for m in modules if m.name.startswith("widgets."))  # written by the build
    assert re.search(r'import\("\./figures/fig-004\.[0-9a-f]{10}\.js"\)', table.read_text(encoding="utf-8"))


def test_no_plain_static_name_is_left(built_site):
    for path in (built_site / "static").rglob("*"):
        if path.is_file():
            assert NAMED.match(path.name.removesuffix(".gz").removesuffix(".br")), path
    for page in built_site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert not re.search(r'static/(js/)?[\w-]+\.(js|css|svg)"', html), page


def test_the_service_worker_precaches_this_builds_hashed_files(built_site):
    sw = (built_site / "sw.js").read_text(encoding="utf-8")
    files = json.loads(re.search(r"const SITE_FILES = (\[.*?\]);", sw).group(1))
    statics = [f for f in files if f.startswith("static/")]
    assert statics and all(NAMED.match(f.rsplit("/", 1)[-1]) for f in statics)
    assert {"./", "roles/", "bench/", "embed/fig-002/"} <= set(files)


def test_every_page_carries_the_build_id(built_site):
    build_id = json.loads((built_site / ".attention-bench-assets.json").read_text())["build"]
    assert re.fullmatch(r"[0-9a-f]{16}", build_id)
    for page in built_site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert f'<meta name="attention-bench-build" content="{build_id}">' in html, page
        assert f'data-build="{build_id}"' in html, page
    assert f'const BUILD = "{build_id}";' in (built_site / "sw.js").read_text(encoding="utf-8")


@pytest.fixture
def templates(tmp_path) -> Path:
    copy = tmp_path / "templates"
    shutil.copytree(TEMPLATES, copy)
    return copy


def _names(site: Path) -> dict[str, str]:
    """{plain name: hashed name} of the build's own hashed files."""
    out = {}
    for rel in json.loads((site / ".attention-bench-assets.json").read_text())["files"]:
        m = NAMED.match(rel)
        if m:
            out[m["stem"] + m["ext"]] = rel
    return out


def test_a_changed_module_renames_it_and_every_module_that_imports_it(templates, tmp_path):
    build(tmp_path / "a", templates)
    dom = templates / "static" / "js" / "dom.js"
    dom.write_text(dom.read_text(encoding="utf-8") + "\nexport const changed = true;\n", encoding="utf-8")
    build(tmp_path / "b", templates)
    a, b = _names(tmp_path / "a"), _names(tmp_path / "b")
    changed = {name.rsplit("/", 1)[-1] for name in a if a[name] != b[name]}
    # dom.js is imported by every module that renders (bench-parts, bench-walk, bench-notes,
    # near, bench, the figures' modules, lab, quiz, share, trained, whatif, bench-whatif, whatif-matrix, predict, status, guide,
    # page, swap, header, scrolling, anchor, place); bench-parts and bench by the bench's figures; bench-whatif by whatif.js; the
    # widgets by the build's widget table (widgets.js, dynamically) and it and status by page.js;
    # page.js by swap.js, and swap.js and place.js by nav.js:
    # exactly these change, and the modules that import none of them (store, answers,
    # runtime, address...) keep their names.
    assert changed == {"dom.js", "bench-notes.js", "bench-parts.js", "bench-walk.js", "near.js", "bench.js", "lab.js", "quiz.js",
                       "fig-004.js", "fig-005.js", "fig-006.js", "fig-007.js",
                       "share.js", "trained.js", "whatif.js", "bench-whatif.js", "handout.js",
                       "whatif-matrix.js", "page.js", "swap.js", "nav.js", "fig-002.js", "fig-009.js", "fig-010.js", "png.js", "builder.js",
                       "predict.js", "status.js", "guide.js", "header.js", "scrolling.js", "anchor.js",
                       "place.js", "widgets.js"}
    a_pages, b_pages = ((tmp_path / s / "mixture" / "index.html").read_text() for s in "ab")
    assert a_pages != b_pages  # the page names the new page.js (and a new build id)


def test_a_rebuild_keeps_the_previous_builds_files_for_one_build(templates, tmp_path):
    site = tmp_path / "site"
    dom = templates / "static" / "js" / "dom.js"
    names = []
    for n in range(3):
        dom.write_text(dom.read_text(encoding="utf-8") + f"\nexport const build{n} = {n};\n", encoding="utf-8")
        build(site, templates)
        names.append(_names(site)["static/js/dom.js"])
    assert len(set(names)) == 3
    assert not (site / names[0]).exists()  # two builds ago: gone
    assert (site / names[1]).is_file()  # the previous build's: kept for a tab still open on it
    assert (site / names[2]).is_file()
    manifest = json.loads((site / ".attention-bench-assets.json").read_text())
    assert names[1] in manifest["previous"] and names[1] not in manifest["files"]
    sw = (site / "sw.js").read_text(encoding="utf-8")
    assert names[2] in sw and names[1] not in sw  # the worker precaches one build


def test_data_files_are_hashed_and_their_references_rewritten(tmp_path):
    site = tmp_path / "site"
    (site / "data").mkdir(parents=True)
    (site / "static" / "js").mkdir(parents=True)
    (site / "data" / "answers.json").write_text('{"a": 1}')
    (site / "static" / "js" / "a.js").write_text('import "./b.js";\nfetch("../../data/answers.json");\n')
    (site / "static" / "js" / "b.js").write_text("export const b = 1;\n")
    (site / "static" / "x.css").write_text("a{background:url(icon.svg)}")
    (site / "static" / "icon.svg").write_text("<svg/>")
    (site / "index.html").write_text('<main data-answers="data/answers.json?v=1#k">'
                                     '<script type="module" src="static/js/a.js"></script>'
                                     '<a href="https://example.org/static/js/a.js">x</a></main>')
    prints = hashing.fingerprint(site)
    h = lambda text: hashlib.sha256(text.encode()).hexdigest()[:10]  # noqa: E731
    answers = "data/answers." + h('{"a": 1}') + ".json"
    assert prints.names["data/answers.json"] == answers
    b = "static/js/b." + h("export const b = 1;\n") + ".js"
    a_text = f'import "./{b.rsplit("/", 1)[1]}";\nfetch("../../{answers}");\n'
    assert (site / f"static/js/a.{h(a_text)}.js").read_text() == a_text
    icon = f"static/icon.{h('<svg/>')}.svg"
    css = f"a{{background:url({icon.rsplit('/', 1)[1]})}}"
    assert (site / f"static/x.{h(css)}.css").read_text() == css
    page = (site / "index.html").read_text()
    assert f'data-answers="{answers}?v=1#k"' in page and f'src="static/js/a.{h(a_text)}.js"' in page
    assert 'href="https://example.org/static/js/a.js"' in page  # another origin: untouched
    assert prints.url("data/answers.json", "../") == "../" + answers


def test_modules_that_import_each_other_in_a_cycle_fail_the_build(tmp_path):
    (tmp_path / "static").mkdir()
    (tmp_path / "static" / "a.js").write_text('import "./b.js";')
    (tmp_path / "static" / "b.js").write_text('import "./a.js";')
    with pytest.raises(BuildError, match=r"cycle.*static/a\.js -> static/b\.js -> static/a\.js"):
        hashing.fingerprint(tmp_path)
