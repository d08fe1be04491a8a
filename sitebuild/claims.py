"""The claims ledger: load and check it, and record which page cites which claim."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from attention.catalog import say

from .errors import BuildError

# each kind as a reader sees it, in the language spoken now (attention.catalog.speaking)
KINDS = {
    "source": lambda: say("claims-kind.source"),
    "derived": lambda: say("claims-kind.derived"),
    "toy": lambda: say("claims-kind.toy"),
    "algebra": lambda: say("claims-kind.algebra"),
    "measured": lambda: say("claims-kind.measured"),
}
TRANSLATED = ("statement", "location", "model", "measurement")  # what an edition's ledger translates
CLAIM_ID = re.compile(r"CL-\d{3}")


@dataclass(frozen=True)
class Source:
    """A published work that claims point to."""

    id: str
    authors: str
    title: str
    venue: str
    arxiv: str

    @property
    def url(self) -> str:
        """Return the work's arXiv address."""
        return f"https://arxiv.org/abs/{self.arxiv}"


@dataclass(frozen=True)
class Citation:
    """One place on a page that cites claims."""

    page: str  # the page's URL path, e.g. "roles/"
    page_title: str
    anchor: str  # the element id on that page
    claims: tuple[str, ...] = ()  # the claim IDs cited there
    section: str = ""  # the heading the citation sits under, filled in after rendering


@dataclass
class Claim:
    """One claim of the ledger, with the places that cite it."""

    id: str
    kind: str
    statement: str
    line: int
    source: Source | None = None
    location: str = ""
    model: str = ""  # measured claims: the public trained model the measurement ran on
    measurement: str = ""  # measured claims: what was measured, and how
    result: str = ""  # measured claims: the key of the result in attention/data/trained.json
    cited_in: list[Citation] = field(default_factory=list)

    @property
    def kind_label(self) -> str:
        """Return the kind as a reader sees it."""
        return KINDS[self.kind]()


@dataclass
class Ledger:
    """Every claim and source, read from one TOML file."""

    path: Path
    sources: dict[str, Source]
    claims: dict[str, Claim]

    def get(self, claim_id: str) -> Claim:
        """Return a claim; raise LookupError naming an unknown ID."""
        if claim_id not in self.claims:
            raise LookupError(f"unknown claim ID {claim_id!r}")
        return self.claims[claim_id]

    def uncited(self) -> list[Claim]:
        """Return the claims that no page cites."""
        return [c for c in self.claims.values() if not c.cited_in]


def _line_of(text: str, needle: str) -> int:
    """Return the 1-based line where needle first appears in text (1 if absent)."""
    index = text.find(needle)
    return text.count("\n", 0, index) + 1 if index >= 0 else 1


def load_ledger(path: Path, measured: dict | None = None) -> Ledger:
    """Read and check the ledger, raising BuildError with file and line on any problem.

    ``measured`` holds the results a measured claim may name (by default the head search's
    results in attention/data/trained.json)."""
    if measured is None:
        from attention import trained_view

        measured = trained_view.measured()
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except OSError as exc:
        raise BuildError(f"cannot read the claims ledger: {exc.strerror}", path) from None
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"line (\d+)", str(exc))
        raise BuildError(f"malformed claims ledger: {exc}", path, int(line[1]) if line else 1) from None
    sources = {}
    for sid, s in data.get("sources", {}).items():
        try:
            sources[sid] = Source(sid, s["authors"], s["title"], s["venue"], s["arxiv"])
        except (KeyError, TypeError) as exc:
            raise BuildError(f"source {sid} lacks {exc}", path, _line_of(text, f"[sources.{sid}]")) from None
    claims = {}
    for cid, c in data.get("claims", {}).items():
        line = _line_of(text, f"[claims.{cid}]")
        if not CLAIM_ID.fullmatch(cid):
            raise BuildError(f"claim ID {cid!r} is not of the form CL-000", path, line)
        if not isinstance(c, dict) or c.get("kind") not in KINDS:
            raise BuildError(f"{cid} needs a kind, one of {', '.join(KINDS)}", path, line)
        if not str(c.get("statement", "")).strip():
            raise BuildError(f"{cid} needs a statement", path, line)
        sid = c.get("source")
        if sid is not None and sid not in sources:
            raise BuildError(f"{cid} names an unknown source {sid!r}", path, line)
        if c["kind"] == "source" and (sid is None or not c.get("location")):
            raise BuildError(f"{cid} is from a source: it needs a source and a location", path, line)
        if c["kind"] == "measured" and not (c.get("model") and c.get("measurement")):
            raise BuildError(f"{cid} is measured: it needs the model and the measurement", path,
                             line)
        if c["kind"] == "measured" and c.get("result") and c["result"] not in measured:
            raise BuildError(f"{cid} names an unknown measured result {c['result']!r}; known: "
                             f"{', '.join(measured)}", path, line)
        claims[cid] = Claim(
            cid, c["kind"], c["statement"].strip(), line,
            sources.get(sid), c.get("location", ""),
            c.get("model", ""), c.get("measurement", ""), c.get("result", ""),
        )
    # The claims page lists claims in this order, so by number, whatever order they were
    # written in (claims added later, such as CL-061, sat between CL-048 and CL-049).
    return Ledger(path, sources, dict(sorted(claims.items(), key=lambda kv: int(kv[0][3:]))))


def translated(ledger: Ledger, path: Path) -> Ledger:
    """The ledger in an edition's language: each claim's words from ``path`` (templates/
    claims.<lang>.toml: a [claims.CL-…] table per claim, with its statement, location, model
    and measurement translated), everything else (kinds, sources, results) the same, nothing
    cited yet. A claim missing there, or a field it lacks, fails the build: a reader of an
    edition reads every claim in its language."""
    try:
        text = path.read_text(encoding="utf-8")
        words = tomllib.loads(text).get("claims", {})
    except OSError as exc:
        raise BuildError(f"cannot read the ledger's translation: {exc.strerror}", path) from None
    except tomllib.TOMLDecodeError as exc:
        raise BuildError(f"malformed ledger translation: {exc}", path) from None
    claims = {}
    for cid, claim in ledger.claims.items():
        mine = words.get(cid, {})
        lacking = [f for f in TRANSLATED if getattr(claim, f) and not str(mine.get(f, "")).strip()]
        if lacking:
            raise BuildError(f"{cid} lacks its translated {', '.join(lacking)}", path,
                             _line_of(text, f"[claims.{cid}]"))
        claims[cid] = dataclasses.replace(claim, cited_in=[], **{f: mine[f].strip() for f in TRANSLATED if f in mine})
    return Ledger(ledger.path, ledger.sources, claims)


def check_all_cited(ledger: Ledger) -> None:
    """Raise BuildError at the first claim in the ledger that no page cites."""
    for claim in ledger.uncited():
        raise BuildError(f"{claim.id} is cited by no page", ledger.path, claim.line)
