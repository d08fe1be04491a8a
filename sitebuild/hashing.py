"""Give every static file a content-hashed name and rewrite every reference to it.

After the build has written a site into its temporary folder, `fingerprint` renames each file
under a HASHED_DIRS folder (``static/js/page.js`` becomes ``static/js/page.3f2a9c01be.js``, the
first ten hex digits of the sha256 of its final bytes) and rewrites every quoted or ``url()``
reference to it, in pages, modules (``import ... from "./store.js"``, ``import("./bench.js")``),
stylesheets and JSON, wherever the reference resolves to that file. A module's hash is taken
after its own references were rewritten, so a change to ``dom.js`` renames every module that
imports it, up to ``page.js``: names change exactly when what a page would run changes.

So a file the build writes under ``static/`` or ``data/`` needs nothing more than a plain
reference (``data-answers="../static/answers/bench.json"``); `Fingerprints.url` and
`hashed_url` give its final name to code that needs it after the pass.
"""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from .errors import BuildError

HASHED_DIRS = ("static", "data")  # every file below these gets a content-hashed name
HASH_DIGITS = 10
TEXT = (".html", ".js", ".mjs", ".css", ".json", ".svg", ".webmanifest", ".txt")
SKIP_DIRS = ("runtime/", "py/")  # third-party or binary: never scanned for references
NO_REFERENCES = ("static/answers/", "data/")  # Python's answers and data: numbers and words that name no file
MANIFEST = ".attention-bench-assets.json"  # this build's hashed files, for the next build
_REF = re.compile(r"""(?P<q>["'`])(?P<u>[^"'`\s<>\\(){}]+)(?P=q)|url\(\s*(?P<c>[^"')\s]+)\s*\)""")
# a page's list of answer tables, in one attribute: data-answers="../a.json ../b.json" (and
# data-near, and the head's meta that names them for answers.js)
_LIST = re.compile(r'(?:(?<=data-answers=")|(?<=data-near=")|(?<=name="attention-bench-answers" content="))'
                   r'[^"<>]+ [^"<>]+(?=")')
_HASHED = re.compile(rf"\.[0-9a-f]{{{HASH_DIGITS}}}(\.[^./]+)$")


def digest(data: bytes) -> str:
    """Return the content hash that goes into a file's name.

    >>> digest(b"")
    'e3b0c44298'
    """
    return hashlib.sha256(data).hexdigest()[:HASH_DIGITS]


def hashed_name(path: str, data: bytes) -> str:
    """Return path with the content hash of data before its last suffix.

    >>> hashed_name("static/js/page.js", b"")
    'static/js/page.e3b0c44298.js'
    >>> hashed_name("static/answers.fig-002.json", b"")
    'static/answers.fig-002.e3b0c44298.json'
    """
    folder, name = posixpath.split(path)
    stem, dot, ext = name.rpartition(".")
    name = f"{stem}.{digest(data)}.{ext}" if dot and stem else f"{name}.{digest(data)}"
    return posixpath.join(folder, name)


def is_hashed(path: str, data: bytes | None = None) -> bool:
    """Say whether a path carries a content hash (and, given data, the right one).

    >>> is_hashed("static/js/page.e3b0c44298.js"), is_hashed("static/js/page.js")
    (True, False)
    >>> is_hashed("static/js/page.e3b0c44298.js", b"changed")
    False
    """
    m = _HASHED.search(path)
    return bool(m) and (data is None or path == hashed_name(_HASHED.sub(r"\1", path), data))


def _split(url: str) -> tuple[str, str]:
    """Split a URL into its path and its ?query#fragment tail."""
    cut = min((i for i in (url.find("?"), url.find("#")) if i >= 0), default=len(url))
    return url[:cut], url[cut:]


def resolve(url: str, where: str) -> str | None:
    """Return the site path a reference in file `where` names, or None if it leaves the site.

    >>> resolve("./store.js", "static/js/page.js"), resolve("../static/x.css", "roles/index.html")
    ('static/js/store.js', 'static/x.css')
    >>> resolve("/static/x.css", "a/b/404.html"), resolve("https://cdn/x.js", "index.html")
    ('static/x.css', None)
    """
    path, _ = _split(url)
    if not path or re.match(r"^[a-z][a-z0-9+.-]*:|^//", path, re.I):
        return None
    base = "" if path.startswith("/") else posixpath.dirname(where)
    joined = posixpath.normpath(posixpath.join(base, path.lstrip("/")))
    return None if joined.startswith("..") else joined


def references(text: str, where: str, known) -> set[str]:
    """Return the site paths in `known` that text (the file `where`) refers to."""
    found, leaves = set(), _leaves(known)
    for m in _REF.finditer(text):
        url = m.group("u") or m.group("c")
        if _leaf(url) in leaves:  # a quick test first: most quoted strings name no file
            target = resolve(url, where)
            if target in known:
                found.add(target)
    return found


def _leaf(url: str) -> str:
    """The last part of a reference's path: "./a/b.js?x" gives "b.js"."""
    return _split(url)[0].rpartition("/")[2]


def _leaves(paths) -> set[str]:
    return {path.rpartition("/")[2] for path in paths}


def rewrite(text: str, where: str, names: dict[str, str]) -> str:
    """Replace every reference in text to a renamed file by the same reference to its new name.

    >>> rewrite('import "./a.js"; url(../b.css) "./c.js?x"', "static/j/m.js",
    ...         {"static/j/a.js": "static/j/a.1.js", "static/b.css": "static/b.2.css"})
    'import "./a.1.js"; url(../b.2.css) "./c.js?x"'
    >>> rewrite('<body data-answers="../a.json ../b.json">', "x/index.html",
    ...         {"a.json": "a.1.json", "b.json": "b.2.json"})
    '<body data-answers="../a.1.json ../b.2.json">'
    """
    leaves = _leaves(names)

    def swap(m: re.Match) -> str:
        url = m.group("u") or m.group("c")
        if _leaf(url) not in leaves:
            return m.group(0)
        target = resolve(url, where)
        if target not in names:
            return m.group(0)
        path, tail = _split(url)
        new = path[: path.rfind("/") + 1] + posixpath.basename(names[target]) + tail
        return m.group(0).replace(url, new, 1)

    def swap_list(m: re.Match) -> str:
        return " ".join(rewrite(f'"{url}"', where, names)[1:-1] for url in m.group(0).split(" "))
    return _REF.sub(swap, _LIST.sub(swap_list, text))


def _order(graph: dict[str, set[str]]) -> list[str]:
    """Return the files so that each comes after everything it refers to; refuse a cycle."""
    done, visiting, out = set(), [], []

    def visit(node: str) -> None:
        if node in done:
            return
        if node in visiting:
            cycle = visiting[visiting.index(node):] + [node]
            raise BuildError("static files refer to each other in a cycle, so no content hash "
                             "can name them: " + " -> ".join(cycle))
        visiting.append(node)
        for dep in sorted(graph[node]):
            visit(dep)
        visiting.pop()
        done.add(node)
        out.append(node)
    for node in sorted(graph):
        visit(node)
    return out


@dataclass(frozen=True)
class Fingerprints:
    """What the pass renamed: {plain path below the site root: hashed path}."""

    names: dict[str, str]

    def url(self, path: str, root: str = "") -> str:
        """Return the URL of a file by its plain path, from a page at `root` ("../")."""
        return root + self.names.get(path, path)


def _is_text(path: str) -> bool:
    return path.endswith(TEXT)


def fingerprint(site: Path) -> Fingerprints:
    """Hash every file under HASHED_DIRS in site, rename it, and rewrite all references."""
    files = {p.relative_to(site).as_posix(): p for p in sorted(site.rglob("*")) if p.is_file()}
    hashed = {rel for rel in files if rel.split("/", 1)[0] in HASHED_DIRS}
    texts = {rel: files[rel].read_text(encoding="utf-8") for rel in files
             if _is_text(rel) and not rel.startswith(SKIP_DIRS) and not rel.startswith(".")}
    graph = {rel: references(texts[rel], rel, hashed) - {rel}
             if rel in texts and not rel.startswith(NO_REFERENCES) else set() for rel in hashed}
    names: dict[str, str] = {}
    for rel in _order(graph):
        if rel in texts and not rel.startswith(NO_REFERENCES):
            texts[rel] = rewrite(texts[rel], rel, names)
            data = texts[rel].encode("utf-8")
        else:
            data = files[rel].read_bytes()
        names[rel] = hashed_name(rel, data)
        files[rel].rename(site / names[rel])
        if rel in texts:
            (site / names[rel]).write_bytes(data)
    for rel, text in texts.items():
        if rel not in hashed:
            new = rewrite(text, rel, names)
            if new != text:
                files[rel].write_text(new, encoding="utf-8")
    return Fingerprints(names)


def write_manifest(site: Path, build: str, immutable: list[str], previous: list[str]) -> None:
    """Record this build's id, its immutable files, and those kept from the previous build."""
    data = {"build": build, "files": sorted(immutable), "previous": sorted(previous)}
    (site / MANIFEST).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def read_manifest(site: Path) -> dict:
    """Return a built site's manifest ({} for a folder without one)."""
    try:
        return json.loads((site / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def hashed_url(site: Path, path: str) -> str:
    """Return the hashed path of a built site's file from its plain one ("static/style.css")."""
    for name in read_manifest(site).get("files", []):
        if is_hashed(name) and _HASHED.sub(r"\1", name) == path:
            return name
    raise KeyError(f"{path} is not a hashed file of the site in {site}")


def _link(src: Path, dst: Path) -> None:
    """Hard-link src to dst (copy where links cannot be made)."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def keep_previous(old_site: Path, new_site: Path) -> list[str]:
    """Copy into new_site the previous build's immutable files that it no longer has.

    A tab opened on the previous build (or its service worker) may still ask for them: it
    gets the files it was built with, never a newer module under an old page. Only the
    previous build's own files are kept (its manifest's "files"), so at most two builds'
    worth of hashed files are ever on the server. Returns the paths kept.
    """
    kept = []
    for rel in read_manifest(old_site).get("files", []):
        src = old_site / rel
        if (new_site / rel).exists() or not src.is_file() or rel.startswith(("/", "..")):
            continue
        for suffix in ("", ".gz", ".br"):
            if Path(f"{src}{suffix}").is_file():
                _link(Path(f"{src}{suffix}"), Path(f"{new_site / rel}{suffix}"))
        kept.append(rel)
    return kept
