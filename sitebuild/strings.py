"""The site's side of the reader's words (attention.catalog: one catalog per language,
``attention/strings/<lang>.toml``): the templates say a string with ``{{ t("key", name=value) }}``
and the page's modules with ``t("key", {name})`` from ``static/js/i18n.js``, whose table
``static/js/messages.js`` the build writes with the keys the modules use. Chapter prose is not
in the catalog: it is a page source per language.

A key used and not in the catalog fails the build with its name; ``check`` also finds keys no
template or module uses, keys not written out (the build could not find them), a plural
message without "other" and a translation whose placeholders are not English's.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from attention.catalog import FOLDER, PLACEHOLDER, PSEUDO, SOURCE, Catalog, MissingString, languages, load, placeholders

from .errors import BuildError

__all__ = ["FILE", "FOLDER", "PSEUDO", "SOURCE", "Catalog", "MissingString", "check", "file_of", "languages", "load",
           "loaders", "markup", "module", "modules", "sources", "used"]

FILE = "messages.js"  # below static/js/: the strings the modules say (module())
# a key a template or a module uses: t("key" (a literal key, so the build can find every one)
_USED = re.compile(r"""\bt\(\s*["']([a-z0-9][a-z0-9_.-]*)["']""")
_UNREAD = re.compile(r"""(?<!function )\bt\((?!\s*["'][a-z0-9][a-z0-9_.-]*["'])""")  # t( with a key not written out
# in Python, a dotted key ("section.key"): the core's say (attention.catalog), the build's t
_USED_PY = re.compile(r'\b(?:t|say)\(\s*"([a-z0-9-]+\.[a-z0-9_.-]+)"')


def markup(catalog: Catalog, key: str, **values):
    """The message of key as markup for a template: its text escaped, each value escaped unless
    it is markup already (a link written in the template: ``chapter=link``), so a sentence
    with a link in it stays one message a translator can reorder. A key ending in ``-html``
    holds markup itself (``<var>q</var>``, as Rails' ``_html`` keys): its text is not escaped,
    its values still are.

    >>> from markupsafe import Markup
    >>> str(markup(Catalog("en", {"k": "See “{link}” & more"}), "k", link=Markup('<a href="x">this</a>')))
    'See “<a href="x">this</a>” &amp; more'
    >>> str(markup(Catalog("en", {"q-html": "Query <var>q</var> = {v}"}), "q-html", v="<1>"))
    'Query <var>q</var> = &lt;1&gt;'
    >>> str(markup(Catalog("en", {"n": {"one": "{count} row", "other": "{count} rows"}}), "n", count=1))
    '1 row'
    """
    from markupsafe import Markup, escape

    safe = {name: v if isinstance(v, Markup) else escape(v) for name, v in values.items()}
    if catalog.dir == "rtl":  # a value keeps its own direction among right-to-left words (FSI … PDI)
        safe = {name: Markup("\u2068") + v + Markup("\u2069") for name, v in safe.items()}
    parts = PLACEHOLDER.split(catalog.text(key, values.get("count")))  # text, name, text, …
    own = Markup if key.endswith("-html") else escape
    return Markup("").join(safe[p] if k % 2 else own(p) for k, p in enumerate(parts))


def used(paths) -> dict[str, list[Path]]:
    """The keys the files use (``t("key"``), and where."""
    found: dict[str, list[Path]] = {}
    for path in paths:
        for key in (_USED_PY if path.suffix == ".py" else _USED).findall(path.read_text(encoding="utf-8")):
            found.setdefault(key, []).append(path)
    return found


def modules(templates: Path) -> list[Path]:
    """The page's modules (which read the catalog through i18n.js)."""
    return sorted((templates / "static" / "js").rglob("*.js"))


def sources(templates: Path) -> list[Path]:
    """The templates and chapter sources (which read it through the build's t), the build's
    own modules (a page's title, the footer's line: ``t = catalog.message``) and the core's
    (its messages: ``say("key")``)."""
    return sorted([*(p for p in [*templates.rglob("*.html"), *templates.rglob("*.md"), *templates.rglob("*.js")]
                     if "static" not in p.relative_to(templates).parts),
                   *Path(__file__).parent.glob("*.py"), *FOLDER.parent.rglob("*.py")])


def _shown(path: Path, templates: Path) -> str:
    """A file named as a problem names it: below the templates, or the build's own module."""
    return str(path.relative_to(templates) if path.is_relative_to(templates) else
               path.relative_to(Path(__file__).resolve().parent.parent))


def check(templates: Path, folder: Path = FOLDER) -> list[str]:
    """What is wrong with the catalogs in ``folder`` for the templates and modules: a key used
    and missing, a key nobody uses or not written out, a plural message without "other", a
    translation that lacks a key or whose placeholders are not English's."""
    source = load(SOURCE, folder)
    where = f"{folder.parent.name}/{folder.name}"
    problems = []
    files = [*modules(templates), *sources(templates)]
    uses = used(files)
    for path in files:
        text = path.read_text(encoding="utf-8")
        for m in _UNREAD.finditer("" if path.suffix == ".py" else text):
            line = text.count("\n", 0, m.start()) + 1
            problems.append(f"{_shown(path, templates)}:{line}: a key must be written out, as t(\"key\""
                            ", so the build can find it")
    for key, files_of in sorted(uses.items()):
        if key not in source.messages:
            problems.append(f"{_shown(files_of[0], templates)}: no string “{key}” in the {SOURCE} catalog")
    for key in sorted(source.messages.keys() - uses.keys()):
        problems.append(f"{where}/{SOURCE}.toml: “{key}” is used by no template or module")
    for path in sorted(folder.glob("*.toml")):
        catalog = load(path.stem, folder)
        for key, m in catalog.messages.items():
            if isinstance(m, dict) and "other" not in m:
                problems.append(f"{where}/{path.name}: “{key}” has no “other” form")
            if key not in source.messages:
                if path.stem != SOURCE:
                    problems.append(f"{where}/{path.name}: “{key}” is not in English")
                continue
            if placeholders(m) != placeholders(source.messages[key]):
                problems.append(f"{where}/{path.name}: “{key}” has placeholders {sorted(placeholders(m))}, "
                                f"English {sorted(placeholders(source.messages[key]))}")
        for key in sorted(source.messages.keys() - catalog.messages.keys()):  # an edition says it all
            problems.append(f"{where}/{path.name}: “{key}” is not translated")
    return problems


def module(catalog: Catalog, templates: Path) -> str:
    """The module of one language that i18n.js loads (``messages-<lang>.js``): the catalog's
    messages the modules use, and the direction it is written in."""
    uses = used(modules(templates))
    missing = [k for k in sorted(uses) if k not in catalog.messages]
    if missing:
        raise BuildError(MissingString(missing[0], catalog.lang).message, uses[missing[0]][0])
    table = {k: catalog.messages[k] for k in sorted(uses)}
    return ("// Written by the build (sitebuild/strings.py) from attention/strings/: the strings the\n"
            "// page's modules say, in one language, and the direction it is written in.\n"
            f"export const LANG = {json.dumps(catalog.lang)};\n"
            f"export const DIR = {json.dumps(catalog.dir)};\n"
            f"export const MESSAGES = {json.dumps(table, ensure_ascii=False, indent=0, sort_keys=True)};\n")


def file_of(lang: str) -> str:
    """The module of a language's messages, below static/js/ (module())."""
    return f"messages-{lang}.js"


def loaders(catalogs) -> str:
    """The module i18n.js imports (``messages.js``): for each page language tag (``<html
    lang>``) the site is built in, the module of its messages, loaded when a page asks (a
    page needs its own language's, not every language's).

    >>> print(loaders([load("en")]).splitlines()[-2])
      "en": () => import("./messages-en.js"),
    """
    lines = [f'  {json.dumps(c.tag)}: () => import("./{file_of(c.lang)}"),' for c in catalogs]
    return ("// Written by the build (sitebuild/strings.py): the language of each page tag, loaded\n"
            "// by i18n.js (one language's messages per page).\n"
            "export const LANGUAGES = {\n" + "\n".join(lines) + "\n};\n")
