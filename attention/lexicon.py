"""The bench's words, in each language the site speaks, and how a typed sentence is cut into them.

A lexicon maps each word to its class and whether it names a person: the two things the bench's
heads read of a word (attention.bench encodes them as features). Each edition has its own:

- **English** splits the sentence at spaces and lower-cases it.
- **Chinese** is written without spaces: the sentence is cut into the lexicon's words, always
  the longest word that fits at each place (its determiners carry their classifier: 这位, 那座).
- **Arabic** splits at spaces and cuts the conjunction و ("and"), written joined to the next
  word, off a word the lexicon does not know whole (وهي → و هي); short vowel marks are dropped,
  and a word typed without its hamza (اصلحت) or with ى for ي is read as the one word the lexicon
  spells so.
  Arabic pronouns agree in gender, not in animacy, and also point to things: this lexicon, a toy,
  reads هو, هي and هم as people, as English reads "they".

Every edition also reads the English words, so a sentence opened in another language's page
(the language switch keeps it) still reads. A word's features are the same in every edition:
no two lexicons share a word.

>>> tokenize("这位工程师修好了那座桥，然后她离开了。", "zh")
['这位', '工程师', '修好了', '那座', '桥', '然后', '她', '离开了']
>>> tokenize("أصلحت المهندسةُ الجسرَ وهي تغني.", "ar")
['أصلحت', 'المهندسة', 'الجسر', 'و', 'هي', 'تغني']
>>> tokenize("The engineer fixed it!", "zh")
['the', 'engineer', 'fixed', 'it']
"""

from __future__ import annotations

import re
from types import MappingProxyType
from collections.abc import Mapping
from typing import NamedTuple

from . import catalog

__all__ = ["DEFAULTS", "LEXICONS", "PUNCTUATION", "WORDS", "Entry", "default_sentence", "english",
           "first_word", "language", "lexicon", "plain", "tokenize"]


class Entry(NamedTuple):
    """One lexicon entry: the word's class and whether it names a person (animacy)."""

    word_class: str
    person: bool


def _lexicon(words: dict[str, str], people: str) -> Mapping[str, Entry]:
    """Build a lexicon from {class: its words, space-separated} and the words naming people."""
    persons = set(people.split())
    listed = [(w, c) for c, ws in words.items() for w in ws.split()]
    entries = {w: Entry(c, w in persons) for w, c in listed}
    assert len(entries) == len(listed) and persons <= entries.keys(), "a word listed twice or missing"
    return MappingProxyType(entries)


_EN = _lexicon({
    "determiner": "the a an this that every some each another no",
    "noun": "engineer teacher doctor farmer pilot artist student nurse baker writer lawyer "
    "driver chef singer clerk book bridge report car letter grid house window door song "
    "map road table engine picture garden machine",
    "verb": "wrote fixed read saw built opened painted drove found sold sang carried left "
    "liked cleaned checked signed moved lost cared",
    # "they" is the singular they: a person, so it agrees like she and he.
    "pronoun": "he she it they",
    "other": "and because then with on when after before in but so near under while of to",
}, "engineer teacher doctor farmer pilot artist student nurse baker writer lawyer driver "
   "chef singer clerk he she they")

# A determiner carries its classifier (这位 for a person, 那座 for a bridge); a verb is listed
# with 了 where a past reading needs it, and bare where it is read in the present.
_ZH = _lexicon({
    "determiner": "这位 那位 一位 每位 这个 那个 一个 每个 这本 那本 一本 这座 那座 一座 "
    "这辆 那辆 一辆 这封 那封 一封 这首 那首 一首 这张 那张 一张 这扇 那扇 一扇 这条 那条 "
    "一条 这份 那份 一份 这台 那台 一台 这幅 那幅 一幅 这些 那些",
    "noun": "工程师 老师 医生 农民 飞行员 艺术家 学生 护士 面包师 作家 律师 司机 厨师 歌手 "
    "职员 书 桥 报告 车 信 电网 房子 窗户 门 歌 地图 路 桌子 发动机 画 花园 机器",
    "verb": "写了 修好了 读了 看见了 建了 打开了 画了 开了 找到了 卖了 唱了 搬了 离开了 "
    "喜欢 打扫了 检查了 签了 丢了 照顾了 写 修 读 看见 建 打开 开 找到 卖 唱 搬 离开 "
    "打扫 检查 签 照顾",
    # 它 and 它们 point to things, 他 and 她 to people
    "pronoun": "他 她 它 他们 她们 它们",
    "other": "和 因为 然后 跟 在 当 之后 以后 之前 以前 里 但是 所以 附近 下面 同时 的 "
    "到 把 被 也 就 时 上",
}, "工程师 老师 医生 农民 飞行员 艺术家 学生 护士 面包师 作家 律师 司机 厨师 歌手 职员 "
   "他 她 他们 她们")

_AR_PEOPLE = ("مهندس مهندسة معلم معلمة طبيب طبيبة مزارع مزارعة طيار طيارة فنان فنانة طالب "
              "طالبة ممرض ممرضة خباز خبازة كاتب كاتبة محامي محامية سائق سائقة طاهي طاهية "
              "مغني مغنية موظف موظفة")
# a noun ending in ي drops it when indefinite (محامٍ, its mark dropped: محام)
_AR_SHORT = "محام طاه مغن"
_AR_THINGS = ("كتاب جسر تقرير سيارة رسالة شبكة بيت نافذة باب أغنية خريطة طريق طاولة محرك "
              "صورة حديقة آلة")


def _with_article(nouns: str) -> str:
    """Each noun with and without the article ال, written joined to it."""
    return " ".join(f"{w} ال{w}" for w in nouns.split())


_AR = _lexicon({
    "determiner": "هذا هذه ذلك تلك كل بعض أي",
    "noun": f"{_with_article(_AR_PEOPLE)} {_AR_SHORT} {_with_article(_AR_THINGS)}",
    # the past, a man's and a woman's form; then a few in the present
    "verb": "كتب كتبت أصلح أصلحت قرأ قرأت رأى رأت فتح فتحت رسم رسمت قاد قادت وجد وجدت باع "
    "باعت غنى غنت حمل حملت غادر غادرت أحب أحبت نظف نظفت فحص فحصت وقع وقعت نقل نقلت فقد "
    "فقدت يكتب تكتب يقرأ تقرأ يغني تغني يعمل تعمل ينتظر تنتظر",
    "pronoun": "هو هي هم",
    "other": "و ف ثم لأن مع على عندما بعد قبل في لكن لذلك قرب تحت بينما من إلى أن",
}, f"{_with_article(_AR_PEOPLE)} {_AR_SHORT} هو هي هم")

LEXICONS = MappingProxyType({"en": _EN, "zh": _ZH, "ar": _AR})
# every edition's words: a word's features do not depend on the page it is typed in
WORDS = MappingProxyType({w: e for lex in LEXICONS.values() for w, e in lex.items()})
assert len(WORDS) == sum(map(len, LEXICONS.values())), "two lexicons share a word"

# Each edition's first sentence: a determiner, a person, a verb, a thing, then a pronoun that
# must skip the thing to find the person.
DEFAULTS = MappingProxyType({
    "en": ("the", "engineer", "fixed", "the", "bridge", "before", "she", "left"),
    "zh": ("这位", "工程师", "修好了", "那座", "桥", "然后", "她", "离开了"),
    "ar": ("أصلحت", "المهندسة", "الجسر", "و", "هي", "تغني"),
})
assert all(w in LEXICONS[lang] for lang, ws in DEFAULTS.items() for w in ws)

PUNCTUATION = ".,;:!?。，、；：！？،؛؟"  # dropped from a typed sentence
_DROPPED = str.maketrans("", "", PUNCTUATION + "\u0640")  # and the Arabic stretching stroke
_MARKS = re.compile("[\u064b-\u065f\u0670]")  # Arabic short vowels and other marks
_HAN = re.compile(r"([\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+)")
_LONGEST = max(len(w) for w in _ZH)


def language(lang: str | None = None) -> str:
    """The lexicon a language reads: its own, or English's (a pseudo-locale is English).

    >>> language("zh"), language("en-XA")
    ('zh', 'en')
    """
    lang = catalog.spoken() if lang is None else lang
    return lang if lang in LEXICONS else "en"


def lexicon(lang: str | None = None) -> Mapping[str, Entry]:
    """The words a reader of ``lang`` (default: the language spoken now) is offered."""
    return LEXICONS[language(lang)]


def first_word(words) -> int:
    """The word a sentence opens on, as the bench's query and the layer's word followed: its
    first pronoun (the coreference head has work there), else its last word.

    >>> first_word(DEFAULTS["en"]), first_word(DEFAULTS["ar"]), first_word(("the", "engineer", "left"))
    (6, 4, 2)
    """
    return next((i for i, w in enumerate(words) if WORDS[w].word_class == "pronoun"), len(words) - 1)


def english(words) -> bool:
    """Whether every word is English's (what a model trained on English can read).

    >>> english(["the", "engineer"]), english(DEFAULTS["zh"])
    (True, False)
    """
    return all(w in _EN for w in words)


def default_sentence(lang: str | None = None) -> tuple[str, ...]:
    """The sentence the bench opens on in ``lang`` (default: the language spoken now)."""
    return DEFAULTS[language(lang)]


def _cut(run: str) -> list[str]:
    """Cut a run of Chinese characters into the lexicon's words, longest first; characters no
    word starts with are kept together as one unknown word.

    >>> _cut("她看见了猫狗和书")
    ['她', '看见了', '猫狗', '和', '书']
    """
    out, unknown, i = [], "", 0
    while i < len(run):
        word = next((run[i:i + k] for k in range(min(_LONGEST, len(run) - i), 0, -1)
                     if run[i:i + k] in _ZH), None)
        if word is None:
            unknown, i = unknown + run[i], i + 1
            continue
        out += [unknown] if unknown else []
        out.append(word)
        unknown, i = "", i + len(word)
    return out + ([unknown] if unknown else [])


def _bare(word: str) -> str:
    """An Arabic word as it is often typed: every alif without its hamza, ى as ي."""
    return word.translate(_BARE)


_BARE = str.maketrans("أإآى", "اااي")
_COUNTS: dict[str, int] = {}
for _w in _AR:
    _COUNTS[_bare(_w)] = _COUNTS.get(_bare(_w), 0) + 1
# a bare spelling that names one word of the lexicon: that word
_RESPELT = {_bare(w): w for w in _AR if _COUNTS[_bare(w)] == 1}


def _arabic(word: str) -> list[str]:
    """Cut a joined و ("and") off a word the lexicon does not know whole; read a word typed
    without its hamza as the lexicon's, when only one is spelled so.

    >>> _arabic("وهي"), _arabic("وجد"), _arabic("وقط"), _arabic("واصلحت")
    (['و', 'هي'], ['وجد'], ['وقط'], ['و', 'أصلحت'])
    """
    if word in WORDS:
        return [word]
    whole = _RESPELT.get(_bare(word))
    if whole:
        return [whole]
    if word[:1] == "و" and len(word) > 1:
        rest = word[1:] if word[1:] in _AR else _RESPELT.get(_bare(word[1:]))
        if rest:
            return ["و", rest]
    return [word]


def plain(text: str) -> str:
    """The text lower-cased, without punctuation or Arabic marks, its spaces single.

    >>> plain("The  END!")
    'the end'
    """
    return " ".join(_MARKS.sub("", text.lower().translate(_DROPPED)).split())


def tokenize(text: str, lang: str | None = None) -> list[str]:
    """Split text into the words of ``lang``'s lexicon (default: the language spoken now) and
    English's: lower-cased, punctuation dropped; Chinese cut without spaces, Arabic's joined و
    cut off.

    >>> tokenize("She read it; then, the END!", "en")
    ['she', 'read', 'it', 'then', 'the', 'end']
    """
    lang = language(lang)
    words = []
    for chunk in plain(text).split():
        if lang == "zh":
            words += [w for part in _HAN.split(chunk) if part
                      for w in (_cut(part) if _HAN.fullmatch(part) else [part])]
        elif lang == "ar":
            words += _arabic(chunk)
        else:
            words.append(chunk)
    return words
