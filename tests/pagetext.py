"""Read built pages as a reader would: their text, ids and links."""

from __future__ import annotations

import re
from html.parser import HTMLParser

PAGES = ["index.html", "roles/index.html", "mixture/index.html", "lab/index.html",
         "bench/index.html", "claims/index.html", "embed/index.html", "embed/fig-004/index.html"]


class _Text(HTMLParser):
    """Collect a page's visible text, ids and links."""

    def __init__(self):
        super().__init__()
        self.parts, self.ids, self.links = [], set(), []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("script", "style", "title"):
            self._skip += 1
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and "href" in attrs:
            self.links.append(attrs["href"])

    def handle_endtag(self, tag):
        if tag in ("script", "style", "title"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def parse(html: str) -> _Text:
    """Return the parsed text, ids and links of an HTML page."""
    parser = _Text()
    parser.feed(html)
    return parser


def squeezed(html: str) -> str:
    """Return a page's text with all whitespace removed, for finding numbers in MathML."""
    return re.sub(r"\s+", "", "".join(parse(html).parts))
