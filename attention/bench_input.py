"""Read the bench's inputs: the sentence, the head, word positions, shut stopcocks and T.

Each reader raises ``BenchInputError`` naming the field a message belongs to, so the page
can show it at that control. The view (``attention.bench_view``), the quiz and the URL
reader share these parsers.
"""

from __future__ import annotations


from . import bench, lab, lexicon
from .catalog import say

__all__ = ["BenchInputError", "check_head", "parse_position", "parse_sentence", "parse_shut",
           "parse_temperature", "reading_note"]


def way_forward(lang: str | None = None) -> str:
    """What a reader with words the bench does not know can do (the list is under the drawing),
    in the language spoken now (said on the page, in a notebook and in Python alike: the page's
    hint under the box links to its list of the words; Python's is attention.bench.LEXICON)."""
    return say("bench-input.way-forward", size=len(lexicon.lexicon(lang)))


class BenchInputError(ValueError):
    """Input the bench cannot use; ``field`` names where it came from."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


def parse_sentence(text, lang: str | None = None) -> list[str]:
    """Split the reader's sentence into words of ``lang``'s lexicon and English's (default: the
    language spoken now; attention.lexicon), or explain what is wrong.

    >>> parse_sentence("The pilot saw it.")
    ['the', 'pilot', 'saw', 'it']

    A word the bench does not know is named, with the known words spelled nearest, and the
    reader is told how many words the bench knows and what to do (review 4: "the cat sat on the
    mat" was refused with no way forward):

    >>> parse_sentence("the pilot sawe a brige")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    attention.bench_input.BenchInputError: Not in the lexicon: “sawe” (try saw), “brige” (try bridge). The bench knows only its 82 words: swap each word ... a noun for a noun, a verb for a verb.
    """  # noqa: E501 (a doctest shows its output whole, on one line)
    if not isinstance(text, str):
        raise BenchInputError("sentence", say("bench-input.not-text"))
    words = lexicon.tokenize(text[:2000], lang)
    if not words:
        raise BenchInputError("sentence", say("bench-input.empty"))
    if len(words) > bench.MAX_WORDS:
        raise BenchInputError("sentence", say("bench-input.too-long", most=bench.MAX_WORDS,
                                              count=len(words)))
    known = lexicon.lexicon(lang).keys() | lexicon.LEXICONS["en"].keys()
    unknown = [w for w in dict.fromkeys(words) if w not in known]
    if unknown:
        parts = []
        for w in unknown[:8]:
            import difflib  # only for a word not in the lexicon: not on the runtime's start

            near = difflib.get_close_matches(w, lexicon.lexicon(lang).keys(), n=2, cutoff=0.7)
            parts.append(say("bench-input.unknown-near", word=w[:30],
                             near=say("list.separator").join(near))
                         if near else say("bench-input.unknown-word", word=w[:30]))
        more = say("bench-input.unknown-more", count=len(unknown) - 8) if len(unknown) > 8 else ""
        raise BenchInputError("sentence", say("bench-input.unknown",
                                              words=say("list.separator").join(parts), more=more,
                                              way=way_forward(lang)))
    return words


def parse_position(value, field: str, n: int, what: str) -> int:
    """Read a word position 0..n-1; ``what`` names it as a reader reads it, in the language
    spoken now (the caller says it: "query", "shut stopcock")."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise BenchInputError(field, say("bench-input.position", what=what))
    try:
        i = int(value)
    except (ValueError, OverflowError):
        raise BenchInputError(field, say("bench-input.position", what=what)) from None
    if i != value and str(i) != value or not 0 <= i < n:
        raise BenchInputError(field, say("bench-input.position-range", what=what, first=0, last=n - 1))
    return i


def check_head(head) -> None:
    """Raise unless head names one of the bench's heads."""
    if not isinstance(head, str) or head not in bench.HEADS:
        raise BenchInputError("head", say("bench-input.head",
                                          heads=say("list.separator").join(bench.HEADS)))


def parse_shut(value, n: int) -> list[bool]:
    """Read the shut stopcocks: a list of word positions."""
    if value is None:
        return [False] * n
    if not isinstance(value, list) or len(value) > bench.MAX_WORDS:
        raise BenchInputError("shut", say("bench-input.shut-list"))
    shut = [False] * n
    for v in value:
        shut[parse_position(v, "shut", n, say("bench-input.what-shut"))] = True
    return shut


def parse_temperature(temperature, slider) -> float:
    """Read the temperature from the field or the log-scaled slider (as in the lab)."""
    try:
        if slider is not None:
            return lab.slider_temperature(slider)
        return lab.parse_temperature(temperature)
    except lab.LabInputError as exc:
        raise BenchInputError("temperature", str(exc)) from None


def reading_note(text, words: list[str]) -> str:
    """Say how typed text was read, when the bench changed it ("" when it did not).

    >>> reading_note("The car, then it!", ["the", "car", "then", "it"])
    'Read as “the car then it”: lower-cased, punctuation dropped.'
    >>> reading_note("the  car", ["the", "car"])
    ''
    >>> reading_note("她读了", ["她", "读了"]), reading_note("她 读了", ["她", "读了"])
    ('Read as “她 读了”: cut into the lexicon’s words.', '')
    >>> reading_note("اصلحت", ["أصلحت"])
    'Read as “أصلحت”: spelled as the lexicon spells it.'
    """
    if text is None:
        return ""
    plain, read = " ".join(text.split()), lexicon.plain(text)
    changes = [what for what, changed in (
        (say("bench-input.lower-cased"), plain != plain.lower()),
        (say("bench-input.punctuation-dropped"), any(ch in text for ch in lexicon.PUNCTUATION)),
        (say("bench-input.cut-into-words"), len(read.split()) != len(words)),
        (say("bench-input.respelled"), any(w not in read for w in words))) if changed]
    return say("bench-input.read-as", words=" ".join(words),
               changes=say("list.separator").join(changes)) if changes else ""
