"""templates/static/js/store.js: every field a store carries is declared there, in one place."""

from __future__ import annotations

import re

from sitebuild.site import TEMPLATES

JS = TEMPLATES / "static" / "js"


def declared() -> set[str]:
    """The names of the object createStore returns: its fields and methods."""
    body = (JS / "store.js").read_text(encoding="utf-8").split("return {", 1)[1]
    return set(re.findall(r"^ {4}(?:get )?(\w+)(?:: |\()", body, re.M))


def test_every_field_written_on_a_store_is_declared_in_store_js():
    written = {(path.name, name) for path in JS.glob("*.js")
               for name in re.findall(r"\bstore\.(\w+)\s*=(?!=)", path.read_text(encoding="utf-8"))}
    assert written  # the modules do write fields (openLink, view, good, held, ...)
    assert {(module, name) for module, name in written if name not in declared()} == set()


def test_the_declaration_lists_the_fields_and_the_methods():
    assert {"extras", "roots", "view", "openLink", "good", "held"} <= declared()
    assert {"get", "set", "subscribe", "ask", "change"} <= declared()
