"""The site's folder: the static files copied smaller, the URL path it is served under, and
the swap that replaces the last build in one step (a reader never sees half a site)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from .errors import BuildError
from .stylesheet import stylesheet

__all__ = ["MARKER", "check_out", "copy_static", "minify_css", "reroot", "site_base", "swap",
           "trim_js"]


def minify_css(css: str) -> str:
    """Drop comments and needless whitespace from the stylesheet (readers download it).

    >>> minify_css("a:hover, b  {  color : red; } /* note */ .x :is(p) { }")
    'a:hover,b{color :red;}.x :is(p){}'
    """
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    css = re.sub(r"\s+", " ", css)
    css = re.sub(r"\s*([{};,])\s*", r"\1", css)
    return re.sub(r":\s+", ":", css).strip()


def trim_js(js: str) -> str:
    r"""Drop indentation, blank lines and whole-line comments from a module (never code); a
    magic comment ("//#", read by the engine, such as V8's compile hint) stays.

    >>> trim_js("//# allFunctionsCalledOnLoad\n// note\nconst a = 1;\n\n  /** doc */\n  return `x`;\n")
    '//# allFunctionsCalledOnLoad\nconst a = 1;\nreturn `x`;\n'
    """
    lines = js.split("\n")
    if any(line.count("`") % 2 for line in lines):  # a template literal spans lines: keep all
        return js
    if any(line.rstrip().endswith("\\") for line in lines):  # a string continues: keep all
        return js
    kept = [line.strip() for line in lines]
    kept = [line for line in kept if line and (not line.startswith("//") or line.startswith("//#"))
            and not (line.startswith("/*") and line.find("*/") == len(line) - 2)]
    return "\n".join(kept) + "\n"


def copy_static(templates: Path, tmp: Path) -> None:
    """Copy the static files, with the stylesheet minified and the modules trimmed."""
    shutil.copytree(templates / "static", tmp / "static")
    css = tmp / "static" / "style.css"  # the shared rules, then each figure's own
    css.write_text(minify_css(stylesheet(templates)), encoding="utf-8")
    for js in (tmp / "static" / "js").rglob("*.js"):
        js.write_text(trim_js(js.read_text(encoding="utf-8")), encoding="utf-8")


def site_base(base: str) -> str:
    """Return the URL path the site is served under, as "/" or "/a/b/".

    >>> site_base(""), site_base("/"), site_base("repo"), site_base("/attention-bench")
    ('/', '/', '/repo/', '/attention-bench/')
    """
    parts = [p for p in base.strip().split("/") if p]
    if any(not re.fullmatch(r"[\w.~-]+", p) or p in (".", "..") for p in parts):
        raise BuildError(f"--base must be a URL path such as /repo/, not {base!r}")
    return "/" + "".join(f"{p}/" for p in parts)


_ROOTED = re.compile(r'(\s(?:href|src|data-[\w-]+)=")/(?!/)')  # an attribute naming "/…"


def reroot(html: str, base: str) -> str:
    """Move a page's root-relative addresses ("/roles/") under the site's base ("/repo/roles/").

    >>> reroot('<a href="/roles/"> <link href="/static/s.1.css"> <b data-root="/"> <a href="//x/">', "/repo/")
    '<a href="/repo/roles/"> <link href="/repo/static/s.1.css"> <b data-root="/repo/"> <a href="//x/">'
    """
    return _ROOTED.sub(lambda m: m.group(1) + base, html)


MARKER = ".attention-bench-site"  # written into every build; only such a folder is replaced


def swap(new: Path, out: Path) -> None:
    """Replace out by new with two renames, so a reader never sees half a site."""
    old = out.with_name(f".{out.name}.old-{os.getpid()}")
    if out.exists():
        os.rename(out, old)
    try:
        os.rename(new, out)
    except OSError:
        if old.exists():
            os.rename(old, out)  # put the previous site back
        raise
    shutil.rmtree(old, ignore_errors=True)


def check_out(out: Path) -> None:
    """Refuse to replace a folder that is neither empty nor an earlier build of the site."""
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / MARKER).is_file())):
        raise BuildError("will not replace a folder that is not an earlier build of this site "
                         "(it has no " + MARKER + " file); choose an empty or new folder", out)
