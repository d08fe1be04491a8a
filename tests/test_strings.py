"""attention.catalog and sitebuild.strings, the reader's string catalogs: every key a template or module uses is in
English's catalog and every key there is used; a missing key fails the build with its name;
translations keep English's placeholders; the pseudo-locales are longer, marked and keep the
placeholders; plural forms follow CLDR's categories."""

from __future__ import annotations

import re
import shutil

import jinja2
import pytest

from sitebuild import strings
from sitebuild.errors import BuildError
from sitebuild.render import make_env
from sitebuild.site import TEMPLATES


def test_the_catalogs_have_every_key_used_and_no_other():
    assert strings.check(TEMPLATES) == []


def scratch(tmp_path):
    """A copy of the catalogs and a module folder that uses every key, to break."""
    templates, folder = tmp_path / "templates", tmp_path / "strings"
    shutil.copytree(strings.FOLDER, folder)
    (templates / "static" / "js").mkdir(parents=True)
    every = "".join(f't("{key}");\n' for key in strings.load().messages)  # all used, as on the site
    (templates / "static" / "js" / "all.js").write_text(every, encoding="utf-8")
    return templates, folder


def test_a_key_a_module_uses_and_the_catalog_lacks_fails_with_its_name(tmp_path):
    templates, folder = scratch(tmp_path)
    (templates / "static" / "js" / "widget.js").write_text('say(t("widget.gone"));\n', encoding="utf-8")
    with pytest.raises(BuildError, match="“widget.gone”") as caught:
        strings.module(strings.load(), templates)
    assert "widget.js" in str(caught.value)
    assert any("widget.js: no string “widget.gone”" in p for p in strings.check(templates, folder))


def test_a_key_a_template_uses_and_the_catalog_lacks_fails_with_its_name():
    env = make_env(TEMPLATES)
    with pytest.raises(strings.MissingString, match="no string “page.gone” in the en catalog"):
        env.from_string('<p>{{ t("page.gone") }}</p>').render()
    assert env.from_string('{{ t("site.chapter", number=5) }}').render() == "Chapter 5"


def test_an_unused_key_a_key_not_written_out_and_a_changed_placeholder_are_found(tmp_path):
    templates, folder = scratch(tmp_path)
    en = folder / "en.toml"
    en.write_text(en.read_text(encoding="utf-8") + '\n[spare]\nword = "Never said"\n', encoding="utf-8")
    (templates / "static" / "js" / "dynamic.js").write_text("say(t(`runtime.${state}`));\n", encoding="utf-8")
    (folder / "fr.toml").write_text('[site]\nchapter = "Chapitre {numero}"\n', encoding="utf-8")
    problems = strings.check(templates, folder)
    assert any(p.endswith("strings/en.toml: “spare.word” is used by no template or module") for p in problems)
    assert any(p.startswith("static/js/dynamic.js:1: a key must be written out") for p in problems)
    assert any("fr.toml: “site.chapter” has placeholders ['numero'], English ['number']" in p for p in problems)


@pytest.mark.parametrize("lang", strings.PSEUDO)
def test_a_pseudo_locale_is_every_english_string_marked_longer_and_with_its_placeholders(lang):
    en, pseudo = strings.load(), strings.load(lang)
    assert pseudo.messages.keys() == en.messages.keys()
    assert pseudo.dir == ("rtl" if lang == "ar-XB" else "ltr")
    forms = [(f"{key}.{form}", text, pseudo.messages[key][form]) if isinstance(message, dict) else (key, text, pseudo.messages[key])
             for key, message in en.messages.items()
             for form, text in (message.items() if isinstance(message, dict) else [("", message)])]
    assert any(isinstance(m, dict) for m in en.messages.values())  # plural messages among them
    for key, text, said in forms:
        assert set(re.findall(r"\{\w+\}", said)) == set(re.findall(r"\{\w+\}", text)), key
        if lang == "en-XA":
            assert said.startswith("⟦") and said.endswith("⟧")
            kept = r"\{\w+\}|<[^>]*>|&\w+;"  # placeholders, tags and entities are not the message's words
            letters = len(re.sub(kept, "", text))
            assert len(re.sub(kept, "", said)) - 2 >= 1.4 * letters, key
            assert not re.search(r"[a-z]{3}", re.sub(r"\{\w+\}|<[^>]*>|&\w+;", "", said)), key  # no English word left
        else:
            assert said == "\u202e" + text + "\u202c"


def test_a_plural_message_takes_the_form_of_its_count():
    c = strings.Catalog("ar", {"k": {"zero": "لا شيء", "one": "واحد", "two": "اثنان", "few": "{count} قليل",
                                     "many": "{count} كثير", "other": "{count}"}})
    assert [c.message("k", count=n) for n in (0, 1, 2, 3, 11, 100)] == \
        ["لا شيء", "واحد", "اثنان", "3 قليل", "11 كثير", "100"]
    assert strings.Catalog("zh", {"k": {"other": "{count} 页"}}).message("k", count=1) == "1 页"


def test_the_page_says_its_language_and_direction():
    for lang, direction in (("en", "ltr"), ("ar-XB", "rtl")):
        env = make_env(TEMPLATES, strings.load(lang))
        assert env.from_string('<html lang="{{ lang }}" dir="{{ dir }}">').render() == \
            f'<html lang="{lang}" dir="{direction}">'


def test_jinja_escapes_a_catalog_string():
    env = jinja2.Environment(autoescape=True)
    env.globals["t"] = strings.Catalog("en", {"a": "<b>{x}</b>"}).message
    assert env.from_string('{{ t("a", x="&") }}').render() == "&lt;b&gt;&amp;&lt;/b&gt;"


# A string literal of a module (double-quoted or a template), and one that reads as a reader's
# sentence: a capitalised phrase of three words or more ("Copy the link", `Copied ${what}.`)
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`')
PROSE = re.compile(r"^\s*[A-Z][a-z’']*(?: [a-z’'(),.:;“”…0-9${}-]+){2,}")


def test_no_module_types_a_sentence_for_the_reader():
    """Every reader-facing sentence of the page's modules comes from the catalog (an English
    sentence left in a module is one a Chinese or Arabic reader would meet)."""
    typed = []
    for path in strings.modules(TEMPLATES):
        text = path.read_text(encoding="utf-8")
        code = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
        code = re.sub(r"(?m)(^|\s)//(\s|#).*$", "", code)  # comments (an address's // has no space after it)
        for m in LITERAL.finditer(code):
            if PROSE.match(m.group(1) if m.group(1) is not None else m.group(2)):
                typed.append(f"{path.name}:{code.count(chr(10), 0, m.start()) + 1}: {m.group(0)[:60]}")
    assert typed == []


def test_in_a_right_to_left_language_a_value_keeps_its_own_direction():
    """A number or an English word set among Arabic words is isolated (FSI … PDI): without it,
    "647 px" in a right-to-left sentence read "px 647" in the pseudo-locale."""
    said = str(strings.markup(strings.Catalog("ar", {"k": "الارتفاع {h} بكسل"}), "k", h="647 px"))
    assert said == "الارتفاع \u2068647 px\u2069 بكسل"
    assert str(strings.markup(strings.Catalog("en", {"k": "Height {h}"}), "k", h="647 px")) == "Height 647 px"
