"""The site's short strings: one catalog per language, ``templates/strings/<lang>.toml``, read by
the templates (``{{ t("key", name=value) }}``) and by the page's modules (``t("key", {name})``
from ``static/js/i18n.js``, whose table ``static/js/messages.js`` the build writes with the keys
the modules use). Chapter prose is not here: it is a page source per language.

A message is a string with ``{name}`` placeholders, or a table of plural forms chosen by the
number ``count`` (CLDR's categories: English has "one" and "other", Arabic six, Chinese one).
A key used and not in the catalog fails the build with its name; ``check`` also finds keys no
template or module uses, and a translation whose placeholders differ from English's.

Two pseudo-locales are made from English, never written by hand, for the layout tests (as
Android's and PhET's): ``en-XA``, accented and about 40 % longer, in brackets (a cut-off or
untranslated string shows), and ``ar-XB``, English written right to left on a ``dir="rtl"`` page.

>>> c = Catalog("en", {"saved": {"one": "Saved {count} page.", "other": "Saved {count} pages."}})
>>> c.message("saved", count=1), c.message("saved", count=3)
('Saved 1 page.', 'Saved 3 pages.')
>>> c.message("lost")
Traceback (most recent call last):
...
sitebuild.strings.MissingString: no string “lost” in the en catalog
>>> pseudo(Catalog("en", {"a": "Load {size}"}), "en-XA").messages["a"]
'⟦Ļöåð {size} ōñé⟧'
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .errors import BuildError

__all__ = ["FILE", "FOLDER", "PSEUDO", "SOURCE", "Catalog", "MissingString", "check", "load", "markup", "module",
           "plural", "pseudo", "used"]

FOLDER = "strings"  # below the templates
FILE = "messages.js"  # below static/js/: the strings the modules say (module())
SOURCE = "en"  # the language every other catalog translates
RTL = {"ar", "ar-XB"}  # written right to left
PSEUDO = ("en-XA", "ar-XB")  # made from English (pseudo())
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
# a key a template or a module uses: t("key" (a literal key, so the build can find every one)
_USED = re.compile(r"""\bt\(\s*["']([a-z0-9][a-z0-9_.-]*)["']""")
_UNREAD = re.compile(r"""(?<!function )\bt\((?!\s*["'][a-z0-9][a-z0-9_.-]*["'])""")  # t( with a key not written out


class MissingString(BuildError):
    """A key asked for that the catalog does not hold."""

    def __init__(self, key: str, lang: str, where: Path | None = None):
        super().__init__(f"no string “{key}” in the {lang} catalog", where)
        self.key = key


def plural(lang: str, n: float) -> str:
    """CLDR's plural category of n in a language (the forms a catalog may give a message).

    >>> [plural("en", n) for n in (0, 1, 2)], [plural("ar", n) for n in (0, 1, 2, 5, 11, 100)]
    (['other', 'one', 'other'], ['zero', 'one', 'two', 'few', 'many', 'other'])
    >>> plural("zh", 1)
    'other'
    """
    base = lang.split("-")[0]
    whole = float(n).is_integer()
    i = int(n) if whole else None
    if base == "zh":
        return "other"
    if base == "ar":
        if not whole:
            return "other"
        if i in (0, 1, 2):
            return ("zero", "one", "two")[i]
        return "few" if 3 <= i % 100 <= 10 else "many" if 11 <= i % 100 <= 99 else "other"
    return "one" if i == 1 else "other"


@dataclass(frozen=True)
class Catalog:
    """One language's strings, by dotted key ("runtime.load")."""

    lang: str
    messages: dict[str, str | dict[str, str]]

    @property
    def dir(self) -> str:
        """The direction its pages are written in: "rtl" or "ltr"."""
        return "rtl" if self.lang in RTL else "ltr"

    def message(self, key: str, **values) -> str:
        """The message of key, its placeholders filled (a plural message by ``count``)."""
        found = self.messages.get(key)
        if found is None:
            raise MissingString(key, self.lang)
        if isinstance(found, dict):
            found = found.get(plural(self.lang, values["count"]), found["other"])
        return _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), found)


def markup(catalog: Catalog, key: str, **values):
    """The message of key as markup for a template: its text escaped, each value escaped unless
    it is markup already (a link written in the template: ``chapter=link``), so a sentence
    with a link in it stays one message a translator can reorder.

    >>> from markupsafe import Markup
    >>> str(markup(Catalog("en", {"k": "See “{link}” & more"}), "k", link=Markup('<a href="x">this</a>')))
    'See “<a href="x">this</a>” &amp; more'
    """
    from markupsafe import Markup, escape

    safe = {name: v if isinstance(v, Markup) else escape(v) for name, v in values.items()}
    text = catalog.message(key, **{name: "\0" + name + "\0" for name in values})
    parts = text.split("\0")  # text, name, text, …
    return Markup("").join(safe[p] if k % 2 else escape(p) for k, p in enumerate(parts))


def _flatten(table: dict, prefix: str = "") -> dict[str, str | dict[str, str]]:
    """A TOML catalog's nested tables as dotted keys; a table of plural forms is one message."""
    out: dict = {}
    for name, value in table.items():
        key = f"{prefix}{name}"
        if isinstance(value, dict) and "other" not in value:
            out |= _flatten(value, key + ".")
        else:
            out[key] = value
    return out


def load(templates: Path, lang: str = SOURCE) -> Catalog:
    """The catalog of a language (a pseudo-locale is made from English)."""
    if lang in PSEUDO:
        return pseudo(load(templates, SOURCE), lang)
    path = templates / FOLDER / f"{lang}.toml"
    try:
        return Catalog(lang, _flatten(tomllib.loads(path.read_text(encoding="utf-8"))))
    except FileNotFoundError:
        raise BuildError(f"no catalog for the language “{lang}”", path) from None
    except tomllib.TOMLDecodeError as exc:
        raise BuildError(f"malformed catalog: {exc}", path) from None


_ACCENTS = dict(zip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                    "åƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ"))
_FILLER = "ōñé ţŵö ţĥŕéé ƒöûŕ ƒîṽé šîẋ šéṽéñ éîĝĥţ ñîñé ţéñ".split()


def _pseudo_text(text: str, lang: str) -> str:
    """English made strange: accented, about 40 % longer, bracketed (en-XA); or the same words
    set right to left (ar-XB: a right-to-left override). Placeholders stay as they are."""
    if lang == "ar-XB":
        return "\u202e" + text + "\u202c"
    parts = _PLACEHOLDER.split(text)  # text, name, text, name, ...
    accented = "".join(p.translate(str.maketrans(_ACCENTS)) if k % 2 == 0 else f"{{{p}}}"
                       for k, p in enumerate(parts))
    letters = len(_PLACEHOLDER.sub("", text))
    filler, k = [], 0
    while letters and len(" ".join(filler)) < 0.4 * letters:
        filler.append(_FILLER[k % len(_FILLER)])
        k += 1
    return "⟦" + " ".join([accented, *filler]) + "⟧"


def pseudo(catalog: Catalog, lang: str) -> Catalog:
    """A pseudo-locale (PSEUDO) made from a catalog."""
    return Catalog(lang, {key: {form: _pseudo_text(v, lang) for form, v in m.items()} if isinstance(m, dict)
                          else _pseudo_text(m, lang) for key, m in catalog.messages.items()})


def used(paths) -> dict[str, list[Path]]:
    """The keys the files use (``t("key"``), and where."""
    found: dict[str, list[Path]] = {}
    for path in paths:
        for key in _USED.findall(path.read_text(encoding="utf-8")):
            found.setdefault(key, []).append(path)
    return found


def modules(templates: Path) -> list[Path]:
    """The page's modules (which read the catalog through i18n.js)."""
    return sorted((templates / "static" / "js").rglob("*.js"))


def sources(templates: Path) -> list[Path]:
    """The templates and chapter sources (which read it through the build's t)."""
    return sorted(p for p in [*templates.rglob("*.html"), *templates.rglob("*.md"), *templates.rglob("*.js")]
                  if "static" not in p.relative_to(templates).parts)


def check(templates: Path) -> list[str]:
    """What is wrong with the catalogs: a key used and missing, a key nobody uses, a plural
    message without "other", a translation whose placeholders are not English's."""
    source = load(templates, SOURCE)
    problems = []
    files = [*modules(templates), *sources(templates)]
    uses = used(files)
    for path in files:
        text = path.read_text(encoding="utf-8")
        for m in _UNREAD.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            problems.append(f"{path.relative_to(templates)}:{line}: a key must be written out, as t(\"key\""
                            ", so the build can find it")
    for key, where in sorted(uses.items()):
        if key not in source.messages:
            problems.append(f"{where[0].relative_to(templates)}: no string “{key}” in the {SOURCE} catalog")
    for key in sorted(source.messages.keys() - uses.keys()):
        problems.append(f"{FOLDER}/{SOURCE}.toml: “{key}” is used by no template or module")
    for path in sorted((templates / FOLDER).glob("*.toml")):
        catalog = load(templates, path.stem)
        for key, m in catalog.messages.items():
            if isinstance(m, dict) and "other" not in m:
                problems.append(f"{FOLDER}/{path.name}: “{key}” has no “other” form")
            if key not in source.messages:
                if path.stem != SOURCE:
                    problems.append(f"{FOLDER}/{path.name}: “{key}” is not in English")
                continue
            if _names(m) != _names(source.messages[key]):
                problems.append(f"{FOLDER}/{path.name}: “{key}” has placeholders {sorted(_names(m))}, "
                                f"English {sorted(_names(source.messages[key]))}")
    return problems


def _names(message) -> set[str]:
    texts = message.values() if isinstance(message, dict) else [message]
    return {name for text in texts for name in _PLACEHOLDER.findall(text)}


def module(catalog: Catalog, templates: Path) -> str:
    """The module the page's i18n.js imports: the catalog's messages the modules use."""
    keys = sorted(used(modules(templates)))
    missing = [k for k in keys if k not in catalog.messages]
    if missing:
        raise MissingString(missing[0], catalog.lang, used(modules(templates))[missing[0]][0])
    table = {k: catalog.messages[k] for k in keys}
    return ("// Written by the build (sitebuild/strings.py) from templates/strings/: the strings the\n"
            "// page's modules say, in the page's language.\n"
            f"export const LANG = {json.dumps(catalog.lang)};\n"
            f"export const MESSAGES = {json.dumps(table, ensure_ascii=False, indent=0, sort_keys=True)};\n")
