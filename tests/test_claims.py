"""The claims ledger (sitebuild/claims.py): the measured kind, and the corrections the
review of the ledger against its papers asked for."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from attention import trained_view
from attention.catalog import speaking
from sitebuild.claims import KINDS, load_ledger, translated
from sitebuild.errors import BuildError

LEDGER = Path(__file__).resolve().parent.parent / "templates" / "claims.toml"
RAW = tomllib.loads(LEDGER.read_text(encoding="utf-8"))


def claim(cid: str) -> dict:
    return RAW["claims"][cid]


def test_the_ledger_loads_with_the_measured_kind():
    ledger = load_ledger(LEDGER)
    measured = [c for c in ledger.claims.values() if c.kind == "measured"]
    assert KINDS["measured"]() == "Measured on a trained model"
    assert {c.result for c in measured if c.result} == set(trained_view.measured())
    for c in measured:
        assert "all-MiniLM-L6-v2" in c.model and c.measurement and c.source is None


@pytest.mark.parametrize("drop, message", [("model", "needs the model and the measurement"),
                                           ("measurement", "needs the model and the measurement")])
def test_a_measured_claim_must_name_model_and_measurement(tmp_path, drop, message):
    text = LEDGER.read_text(encoding="utf-8")
    block = re.search(r"\[claims\.CL-049\]\n(.*?)\n\n", text, re.S).group(0)
    broken = "\n".join(line for line in block.split("\n") if not line.startswith(drop + " ="))
    path = tmp_path / "claims.toml"
    path.write_text(text.replace(block, broken + "\n"), encoding="utf-8")
    with pytest.raises(BuildError, match=message):
        load_ledger(path)


def test_a_measured_claim_must_name_a_known_result(tmp_path):
    text = LEDGER.read_text(encoding="utf-8").replace('result = "sink"', 'result = "sinks"')
    path = tmp_path / "claims.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BuildError, match="unknown measured result 'sinks'"):
        load_ledger(path)


def test_the_measured_statements_still_hold_for_the_committed_data():
    r = trained_view.measured()
    table = trained_view.data()["search"]["table"]
    assert r["previous-token"]["strength"] == "strong" and r["previous-token"]["layer"] == 0
    sink_heads = sum(float(x) > 0.5 for row in table["sink"] for x in row)
    assert sink_heads > 72 / 3  # "more than a third of them"
    assert float(r["verb-lookup"]["top"]) > 0.5  # "the largest weight for most nouns"
    assert float(r["verb-lookup"]["score"]) < 0.5 and r["verb-lookup"]["strength"] == "weak"
    assert float(r["coreference"]["score"]) < 0.5 and float(r["coreference"]["top"]) < 0.5
    assert r["coreference"]["strength"] == "weak"


@pytest.mark.parametrize("cid, section", [
    ("CL-044", "§4.3"), ("CL-045", "§4.2"), ("CL-054", "§3.1"), ("CL-042", "§5.1"),
    ("CL-043", "§1 Introduction"), ("CL-041", "Introduction"),
])
def test_locations_use_the_papers_own_sections(cid, section):
    assert claim(cid)["location"].startswith(section)


def test_the_reviewed_statements_are_corrected():
    assert "high accuracy" not in claim("CL-044")["statement"]
    assert "65%" in claim("CL-044")["statement"]
    assert "It follows that dividing" not in claim("CL-006")["statement"]
    assert "often the previous one" not in claim("CL-042")["statement"]
    assert "autoregressive" in claim("CL-043")["statement"]
    assert "bottom two" in claim("CL-043")["statement"]
    assert "the same pair of positions is ranked the same way" not in claim("CL-047")["statement"]
    assert "same features are ranked by position alone" in claim("CL-047")["statement"]
    assert "GPT-2" in claim("CL-041")["statement"] and "study" in claim("CL-041")["statement"]
    assert claim("CL-053")["kind"] == "algebra"  # CL-006's old parenthesis, now derived


def test_bench_chapter_states_the_limit_with_its_premise():
    text = (LEDGER.parent / "chapters" / "bench.md").read_text(encoding="utf-8")
    assert "while still sending each pronoun that has one to its noun" in text


def test_claims_page_renders_measured_results_and_no_double_period(built_site):
    page = (built_site / "claims" / "index.html").read_text(encoding="utf-8")
    assert "et al.." not in page
    r = trained_view.measured()["coreference"]
    block = page[page.index('id="CL-052"'):page.index('id="CL-053"')]
    assert "Measured on a trained model" in block and "Model: all-MiniLM-L6-v2" in block
    assert f"the best match is {r['name']}" in block and r["score"] in block
    assert f"({r['strength']})" in block


def test_claims_page_lists_claims_by_number(built_site):
    # Review 4: the page read CL-048, CL-061 to CL-063, then CL-049 to CL-054.
    page = (built_site / "claims" / "index.html").read_text(encoding="utf-8")
    shown = [int(n) for n in re.findall(r'<[a-z]+ [^>]*id="CL-(\d{3})"', page)]
    assert len(shown) == len(RAW["claims"]) and shown == sorted(shown)


@pytest.mark.parametrize("lang", ["zh", "ar"])
def test_an_editions_ledger_says_every_claim_in_its_language(lang):
    """Each claim's statement (and location, model, measurement where it has them) comes from
    templates/claims.<lang>.toml; its kind, source and numbers are the ledger's own."""
    ledger = load_ledger(LEDGER)
    mine = translated(ledger, LEDGER.with_name(f"claims.{lang}.toml"))
    script = {"zh": r"[\u3400-\u9fff]", "ar": r"[\u0600-\u06ff]"}[lang]
    for cid, claim in ledger.claims.items():
        theirs = mine.claims[cid]
        assert re.search(script, theirs.statement) and theirs.kind == claim.kind and theirs.source == claim.source
        # every number the English states is stated in the translation too
        assert set(re.findall(r"\d+(?:\.\d+)?", theirs.statement)) == set(re.findall(r"\d+(?:\.\d+)?", claim.statement)), cid
    with speaking(lang):
        assert re.search(script, mine.claims["CL-004"].kind_label)


def test_a_translation_lacking_a_claim_fails_with_its_id(tmp_path):
    text = LEDGER.with_name("claims.zh.toml").read_text(encoding="utf-8")
    block = re.search(r"\[claims\.CL-004\]\n(.*?)\n\n", text, re.S).group(0)
    path = tmp_path / "claims.zh.toml"
    path.write_text(text.replace(block, ""), encoding="utf-8")
    with pytest.raises(BuildError, match="CL-004 lacks its translated statement"):
        translated(load_ledger(LEDGER), path)
