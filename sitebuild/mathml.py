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
    return ET.tostring(root, encoding="unicode", short_empty_elements=False)


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
