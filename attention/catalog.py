"""The reader's words in each language: one catalog per language, ``attention/strings/<lang>.toml``,
for the site's build (its templates), the page's modules and, in time, the core's own messages.
A message is a string with ``{name}`` placeholders, or a table of plural forms chosen by the
number ``count`` (CLDR's categories: English has "one" and "other", Arabic six, Chinese one).
Standard library only: the Pyodide wheel and setup.py read it.

Two pseudo-locales are made from English, never written by hand, for the layout tests (as
Android's and PhET's): ``en-XA``, accented and about 40 % longer, in brackets (a cut-off or
untranslated string shows), and ``ar-XB``, English written right to left on a ``dir="rtl"`` page.

>>> c = Catalog("en", {"saved": {"one": "Saved {count} page.", "other": "Saved {count} pages."}})
>>> c.message("saved", count=1), c.message("saved", count=3)
('Saved 1 page.', 'Saved 3 pages.')
>>> c.message("lost")
Traceback (most recent call last):
...
attention.catalog.MissingString: no string “lost” in the en catalog
>>> pseudo(Catalog("en", {"a": "Load {size}"}), "en-XA").messages["a"]
'⟦Ļöåð {size} ōñé⟧'
>>> load().message("site.chapter", number=5)
'Chapter 5'
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

__all__ = ["FOLDER", "PLACEHOLDER", "PSEUDO", "SOURCE", "Catalog", "MissingString", "known", "languages", "listed",
           "load", "placeholders", "plural", "pseudo", "say", "speaking", "spoken"]

FOLDER = Path(__file__).parent / "strings"  # a catalog per language: <lang>.toml
SOURCE = "en"  # the language every other catalog translates
RTL = {"ar", "ar-XB"}  # written right to left
TAGS = {"zh": "zh-Hans"}  # a page's language tag (<html lang>, hreflang) where it names a script too
PSEUDO = ("en-XA", "ar-XB")  # made from English (pseudo())
PLACEHOLDER = re.compile(r"\{(\w+)\}")  # a placeholder; split() gives text, name, text, …
_KEPT = re.compile(r"(\{\w+\}|<[^>]*>|&\w+;)")  # what a pseudo-locale leaves as it is


class MissingString(LookupError):
    """A key asked for that the catalog does not hold."""

    def __init__(self, key: str, lang: str):
        self.message = f"no string “{key}” in the {lang} catalog"
        super().__init__(self.message)
        self.key = key

    def __str__(self) -> str:
        return self.message


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

    @property
    def tag(self) -> str:
        """The language tag of its pages (BCP 47: ``<html lang>``, ``hreflang``).

        >>> Catalog("zh", {}).tag, Catalog("ar", {}).tag
        ('zh-Hans', 'ar')
        """
        return TAGS.get(self.lang, self.lang)

    def text(self, key: str, count: float | None = None) -> str:
        """The message of key as written, placeholders and all: a plural message's form for
        ``count``, which it then needs."""
        found = self.messages.get(key)
        if found is None:
            raise MissingString(key, self.lang)
        if isinstance(found, dict):
            if count is None:
                raise KeyError(f"“{key}” is a plural message: it needs a count")
            found = found.get(plural(self.lang, count), found["other"])
        return found

    def message(self, key: str, **values) -> str:
        """The message of key, its placeholders filled (a plural message by ``count``)."""
        return PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), self.text(key, values.get("count")))


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


def load(lang: str = SOURCE, folder: Path = FOLDER) -> Catalog:
    """The catalog of a language (a pseudo-locale is made from English); ``folder`` holds the
    catalogs (a copy, in a test)."""
    if lang in PSEUDO:
        return pseudo(load(SOURCE, folder), lang)
    path = folder / f"{lang}.toml"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LookupError(f"{path}: no catalog for the language “{lang}”") from None
    try:
        return Catalog(lang, _flatten(tomllib.loads(text)))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: malformed catalog: {exc}") from None


@functools.lru_cache(maxsize=16)
def _loaded(lang: str) -> Catalog:
    return load(lang)


_SPEAKING: contextvars.ContextVar[str] = contextvars.ContextVar("speaking", default=SOURCE)


@contextlib.contextmanager
def speaking(lang: str):
    """Within it, the core's messages (say()) are in ``lang``: the build renders an edition's
    figures so, and the bridge answers a request so.

    >>> with speaking("zh"):
    ...     say("site.chapter", number=5)
    '第 5 章'
    >>> say("site.chapter", number=5)
    'Chapter 5'
    """
    _loaded(lang)  # an unknown language fails here, before anything is said
    token = _SPEAKING.set(lang)
    try:
        yield
    finally:
        _SPEAKING.reset(token)


def spoken() -> str:
    """The language the core speaks now (speaking())."""
    return _SPEAKING.get()


def say(key: str, **values) -> str:
    """A message of the core (an input's error, a view's sentence) in the language spoken now."""
    return _loaded(_SPEAKING.get()).message(key, **values)


def languages(folder: Path = FOLDER) -> list[str]:
    """The languages with a catalog in ``folder``, English first.

    >>> languages()[0]
    'en'
    """
    return sorted((p.stem for p in folder.glob("*.toml")), key=lambda lang: (lang != SOURCE, lang))


def known(lang: str) -> str:
    """Return lang when a catalog speaks it, else raise ValueError naming those that do.

    >>> known("zh")
    'zh'
    >>> known("fr")
    Traceback (most recent call last):
    ...
    ValueError: unknown language 'fr'; choose one of en, ar, zh
    """
    if lang not in languages():
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(languages())}")
    return lang


def listed(items) -> str:
    """A list as a reader says it in the language spoken now: "4", "4 and 5", "4, 5 and 6".

    >>> listed([4]), listed(["“a”", "“b”"]), listed(["“a”", "“b”", "“c”"])
    ('4', '“a” and “b”', '“a”, “b” and “c”')
    >>> with speaking("zh"):
    ...     listed(["4", "5", "6"])
    '4、5和6'
    """
    said = [str(k) for k in items]
    if len(said) == 1:
        return said[0]
    return say("list.last", first=say("list.separator").join(said[:-1]), last=said[-1])


def placeholders(message) -> set[str]:
    """The placeholders' names of a message (of all its plural forms).

    >>> sorted(placeholders({"one": "{count} key", "other": "{count} keys of {word}"}))
    ['count', 'word']
    """
    texts = message.values() if isinstance(message, dict) else [message]
    return {name for text in texts for name in PLACEHOLDER.findall(text)}


_ACCENTS = dict(zip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                    "åƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ"))
_FILLER = "ōñé ţŵö ţĥŕéé ƒöûŕ ƒîṽé šîẋ šéṽéñ éîĝĥţ ñîñé ţéñ".split()


def _pseudo_text(text: str, lang: str) -> str:
    """English made strange: accented, about 40 % longer, bracketed (en-XA); or the same words
    set right to left (ar-XB: a right-to-left override). Placeholders, tags and entities stay.

    >>> _pseudo_text("Query <var>q</var> &amp; {v}", "en-XA")
    '⟦Ǫûéŕý <var>ǫ</var> &amp; {v} ōñé ţŵö⟧'
    """
    if lang == "ar-XB":
        return "\u202e" + text + "\u202c"
    parts = _KEPT.split(text)  # words, kept, words, kept, ... (a placeholder, a tag, an entity)
    accented = "".join(p.translate(str.maketrans(_ACCENTS)) if k % 2 == 0 else p for k, p in enumerate(parts))
    letters = len(_KEPT.sub("", text))
    filler, k = [], 0
    while letters and len(" ".join(filler)) < 0.4 * letters:
        filler.append(_FILLER[k % len(_FILLER)])
        k += 1
    return "⟦" + " ".join([accented, *filler]) + "⟧"


def pseudo(catalog: Catalog, lang: str) -> Catalog:
    """A pseudo-locale (PSEUDO) made from a catalog."""
    return Catalog(lang, {key: {form: _pseudo_text(v, lang) for form, v in m.items()} if isinstance(m, dict)
                          else _pseudo_text(m, lang) for key, m in catalog.messages.items()})
