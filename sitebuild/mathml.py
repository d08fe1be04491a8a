"""LaTeX to MathML at build time, with the fixes Chromium's MathML Core needs."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from latex2mathml.converter import convert

__all__ = ["to_mathml"]

_FIXES = [
    # \mathsf T: MathML Core ignores mathvariant="sans-serif"; use the Unicode letter.
    (re.compile(r'<mi mathvariant="sans-serif">T</mi>'), "<mi>\U0001d5b3</mi>"),
    # \operatorname{softmax} comes out as an operator; a multi-letter <mi> is upright.
    (re.compile(r"<mo>([A-Za-z]{2,})</mo>"), r"<mi>\1</mi>"),
    # Named spaces such as "negativethinmathspace" are not part of MathML Core.
    (re.compile(r'<mspace width="[a-z]+mathspace" />'), ""),
    # Arrows are operators, so they get operator spacing.
    (re.compile(r"<mi>(&#x027F6;|&#x02192;)</mi>"), r"<mo>\1</mo>"),
    # Self-closing tags are not HTML: write empty elements out.
    (re.compile(r"<(mspace[^>]*?) />"), r"<\1></mspace>"),
]
_UPRIGHT_RUN = re.compile(r'(?:<mi mathvariant="normal">[A-Za-z]</mi>){2,}')


def _merge_upright(match: re.Match) -> str:
    """Turn a run of single upright letters (from \\mathrm{rows}) into one word."""
    return "<mi>" + "".join(re.findall(r">([A-Za-z])<", match.group(0))) + "</mi>"


_SCRIPTED = {"msub", "msup", "msubsup", "munder", "mover", "munderover"}


def _tight_scripts(mathml: str) -> str:
    """Drop operator spacing inside sub- and superscripts, as TeX does (j=1, not j = 1)."""
    root = ET.fromstring(mathml)
    for parent in root.iter():
        if parent.tag in _SCRIPTED:
            for script in list(parent)[1:]:
                for mo in script.iter("mo"):
                    mo.set("lspace", "0")
                    mo.set("rspace", "0")
    _roomy_braces(root)
    return ET.tostring(root, encoding="unicode", short_empty_elements=False)


BRACE_DEPTH = "0.4em"  # room under every underbraced term, descender or not


def _roomy_braces(root: ET.Element) -> None:
    """Give every underbraced term the same depth, so a brace never touches its letters and
    braces (and the labels under them) line up whether or not the term has a descender."""
    for munder in root.iter("munder"):
        children = list(munder)
        if len(children) == 2 and children[1].tag == "mo" and (children[1].text or "") == "\u23df":
            padded = ET.Element("mpadded", {"depth": BRACE_DEPTH})
            padded.append(children[0])
            munder.remove(children[0])
            munder.insert(0, padded)


def to_mathml(latex: str, display: bool) -> str:
    """Convert one LaTeX formula to MathML that renders well in Chromium.

    >>> to_mathml(r"K^{\\mathsf T}", display=False)  # doctest: +ELLIPSIS
    '<math ...><mrow><msup><mi>K</mi><mrow><mi>𝖳</mi></mrow></msup></mrow></math>'
    """
    mathml = convert(latex.strip(), display="block" if display else "inline")
    mathml = mathml.replace(' xmlns="http://www.w3.org/1998/Math/MathML"', "")
    for pattern, replacement in _FIXES:
        mathml = pattern.sub(replacement, mathml)
    return _tight_scripts(_UPRIGHT_RUN.sub(_merge_upright, mathml))


# Formulas as the claims ledger writes them in plain text, and the LaTeX they stand for.
# Longest first, so softmax(QKᵀ/√d_k)V is one formula, not three.
_PLAIN = [
    (r"softmax\(QKᵀ/√d_k\)V", r"\operatorname{softmax}(QK^{\mathsf T}/\sqrt{d_k})V"),
    (r"1/√d_k", r"1/\sqrt{d_k}"),
    (r"√d_k", r"\sqrt{d_k}"),
    (r"QKᵀ", r"QK^{\mathsf T}"),
    (r"n×d_v", r"n\times d_v"),
    (r"n×m", r"n\times m"),
    (r"(?<![\w-])W_i\^[QKV](?![\w])", None),  # W_i^Q, W_i^K, W_i^V: head i's projections
    (r"(?<![\w-])([dW])_([kvKQV])(?![\w])", None),  # d_k, d_v, W_Q, W_K, W_V
    (r"(?<![\w.])(?:\d+(?:\.\d+)? × )?10\^\d+(?![\w])",  # 1.8 × 10^308, kept on one line
     lambda plain: re.sub(r"\^(\d+)", r"^{\1}", plain.replace(" × ", r" \times "))),
    (r"(?<![\w-])e\^z(?![\w])", "e^z"),
    (r"(?<![\w-])AV(?![\w])", "AV"),
    (r"−∞", r"-\infty"),
]
_FORMULA = re.compile(r"\$([^$]+)\$|" + "|".join(f"({p})" for p, _ in _PLAIN))


def formulas_in_text(text: str) -> str:
    r"""Return text as HTML with its formulas set as MathML: ``$…$`` spans, and the plain
    notations the claims ledger uses (softmax(QKᵀ/√d_k)V, d_k, W_Q, W_i^Q, n×m, −∞, 10^308 …).

    >>> html = formulas_in_text("Divide by √d_k & mix: <b>")
    >>> html.startswith("Divide by <math") and "<msqrt>" in html and html.endswith(" &amp; mix: &lt;b&gt;")
    True
    >>> "<msub><mi>W</mi><mrow><mi>Q</mi></mrow></msub>" in formulas_in_text("W_Q")
    True
    >>> "<msubsup><mi>W</mi><mrow><mi>i</mi></mrow><mi>Q</mi></msubsup>" in formulas_in_text("W_i^Q,")
    True
    >>> html = formulas_in_text("about 1.8 × 10^308")
    >>> html.startswith("about <math") and "<mo>×</mo><msup><mn>10</mn><mrow><mn>308</mn></mrow></msup>" in html
    True
    """
    from markupsafe import escape

    out, last = [], 0
    for match in _FORMULA.finditer(text):
        out.append(str(escape(text[last:match.start()])))
        latex = match.group(1)
        if latex is None:
            plain = match.group(0)
            latex = next(rep(plain) if callable(rep) else rep if rep is not None
                         else re.sub(r"_(\w)", r"_{\1}", plain)
                         for pattern, rep in _PLAIN if re.fullmatch(pattern, plain))
        out.append(to_mathml(latex, display=False))
        last = match.end()
    out.append(str(escape(text[last:])))
    return "".join(out)
