"""Each edition's lexicon: how a typed sentence is cut into its words, and the four heads doing
on Chinese and Arabic sentences what they do on English ones (the plain rules of test_bench)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention import bench, bench_view, catalog, lexicon
from attention.catalog import say
from attention.bench_input import BenchInputError, parse_sentence, reading_note
from attention.lexicon import LEXICONS, WORDS, tokenize
from tests.test_bench import check_sentence, expected

# Written as a reader writes them: Chinese without spaces, Arabic with و joined to its word.
# Each is followed by the words a reader of the language cuts it into.
ZH = {
    "这位工程师修好了那座桥，然后她离开了。": "这位 工程师 修好了 那座 桥 然后 她 离开了",
    "老师和医生读了这封信，因为她照顾了学生。": "老师 和 医生 读了 这封 信 因为 她 照顾了 学生",
    "那辆车和那座桥和工程师，它搬了。": "那辆 车 和 那座 桥 和 工程师 它 搬了",  # 它 skips the person
    "她写了报告": "她 写了 报告",  # a pronoun first looks at itself
    "飞行员开了这辆车，然后农民卖了它。": "飞行员 开了 这辆 车 然后 农民 卖了 它",
    "这本书在车上，她离开了。": "这本 书 在 车 上 她 离开了",  # only things before 她
    "他们修好了发动机": "他们 修好了 发动机",
    "写了这封信": "写了 这封 信",  # a verb first: 信 -> 写了
}
AR = {
    "أصلحت المهندسة الجسر وهي تغني": "أصلحت المهندسة الجسر و هي تغني",
    "قرأت المعلمةُ الرسالةَ ثم غادرت هي.": "قرأت المعلمة الرسالة ثم غادرت هي",
    "رأى الطبيب السيارة وهو يعمل": "رأى الطبيب السيارة و هو يعمل",
    "هي كتبت التقرير": "هي كتبت التقرير",  # a pronoun first looks at itself
    "الكتاب على الطاولة لكن هي غادرت": "الكتاب على الطاولة لكن هي غادرت",  # only things before هي
    "قاد الطيار السيارة ثم باعها المزارع": None,  # باعها: a pronoun joined to its verb is unknown
    "كتب الكاتب الرسالة لأن هي غادرت، وفحص المحامي العقد": None,  # العقد is not in the lexicon
    "وجد السائق الخريطة وهم ينتظرون": None,  # ينتظرون: a plural verb the lexicon lacks
    "وجد السائق الخريطة وهم يعملون في الحديقة": None,
    "نظف الخباز الآلة بينما فحص الكاتب الخريطة": "نظف الخباز الآلة بينما فحص الكاتب الخريطة",
}


@pytest.mark.parametrize(("lang", "text", "cut"), [("zh", t, c) for t, c in ZH.items()]
                         + [("ar", t, c) for t, c in AR.items() if c])
def test_a_typed_sentence_is_cut_into_the_lexicons_words(lang, text, cut):
    assert tokenize(text, lang) == cut.split()
    assert tokenize(cut, lang) == cut.split()  # the words, spaced, read the same


@pytest.mark.parametrize(("lang", "text"), [("ar", t) for t, c in AR.items() if c is None])
def test_a_word_outside_the_lexicon_is_named_in_the_readers_language(lang, text):
    with catalog.speaking(lang), pytest.raises(BenchInputError) as caught:
        parse_sentence(text)
    message = str(caught.value)
    assert any(w in message for w in text.split() if w not in WORDS)
    assert str(len(LEXICONS[lang])) in message  # how many words it knows: its own lexicon's
    assert sum("\u0600" <= ch <= "\u06ff" for ch in message) > len(message) / 3


def test_unknown_chinese_characters_are_named_together():
    with catalog.speaking("zh"), pytest.raises(BenchInputError) as caught:
        parse_sentence("她看见了小猫")
    assert "“小猫”" in str(caught.value) and str(len(LEXICONS["zh"])) in str(caught.value)


@pytest.mark.parametrize(("lang", "text"), [("zh", t) for t in ZH]
                         + [("ar", t) for t, c in AR.items() if c])
def test_the_heads_keep_their_rules_on_each_editions_sentences(lang, text):
    check_sentence(tokenize(text, lang))


def test_each_default_sentence_shows_the_behaviours_english_shows():
    zh, ar = lexicon.DEFAULTS["zh"], lexicon.DEFAULTS["ar"]
    # 她 skips the nearer thing (桥) to find the engineer; 桥 finds 修好了; 工程师 has no verb
    assert (expected(zh, "coreference", 6), expected(zh, "verb-lookup", 4),
            expected(zh, "verb-lookup", 1)) == (1, 2, 1)
    # هي skips الجسر to find المهندسة; both nouns find أصلحت, the verb Arabic puts first
    assert (expected(ar, "coreference", 4), expected(ar, "verb-lookup", 2),
            expected(ar, "verb-lookup", 1)) == (1, 0, 0)
    for words in (zh, ar):
        check_sentence(list(words))


@pytest.mark.parametrize("lang", ["zh", "ar"])
def test_random_sentences_of_each_lexicon(lang):
    @settings(max_examples=150, deadline=None)
    @given(st.lists(st.sampled_from(sorted(LEXICONS[lang])), min_size=1, max_size=bench.MAX_WORDS))
    def run(words):
        check_sentence(words)
    run()


@pytest.mark.parametrize("lang", ["zh", "ar"])
def test_every_word_reads_as_itself_and_no_lexicon_shares_a_word(lang):
    words = LEXICONS[lang]
    assert all(tokenize(w, lang) == [w] for w in words), [w for w in words if tokenize(w, lang) != [w]]
    assert not words.keys() & LEXICONS["en"].keys()
    assert {e.word_class for e in words.values()} == set(bench.CLASSES)
    # people and things on both sides of the coreference head's animacy check
    nouns = [e.person for e in words.values() if e.word_class == "noun"]
    assert sum(nouns) >= 10 and len(nouns) - sum(nouns) >= 10


def test_the_pronouns_carry_the_person_feature_as_english_does():
    zh = LEXICONS["zh"]
    assert zh["他"].person and zh["她"].person and not zh["它"].person
    assert all(LEXICONS["ar"][w].person for w in ("هو", "هي", "هم"))


def test_each_edition_also_reads_english():
    with catalog.speaking("zh"):
        assert parse_sentence("The engineer fixed it") == ["the", "engineer", "fixed", "it"]
    with catalog.speaking("ar"):
        assert parse_sentence("she left") == ["she", "left"]


def test_english_does_not_read_another_editions_words():
    with pytest.raises(BenchInputError):
        parse_sentence("她离开了")


@pytest.mark.parametrize("lang", ["zh", "ar"])
def test_the_bench_opens_on_its_editions_sentence(lang):
    with catalog.speaking(lang):
        v = bench_view.view()
    words = lexicon.DEFAULTS[lang]
    assert v["sentence"]["words"] == list(words)
    assert v["query"]["word"] == next(w for w in words if WORDS[w].word_class == "pronoun")
    with catalog.speaking(lang):
        listed = {w for group in bench_view.lexicon() for w in group["words"]}
    assert listed == LEXICONS[lang].keys()  # the page's word list is the edition's


def test_a_sentence_typed_without_spaces_is_said_to_be_cut():
    with catalog.speaking("zh"):
        note = reading_note("她离开了", ["她", "离开了"])
    assert "她 离开了" in note and note != ""
    assert reading_note("她 离开了", ["她", "离开了"]) == ""


@pytest.mark.parametrize(("lang", "text", "cut"), [
    ("zh", "她找到了那封信和一条路，然后卖了它们。", "她 找到了 那封 信 和 一条 路 然后 卖了 它们"),
    ("zh", "那首歌和那张地图在一台机器上", "那首 歌 和 那张 地图 在 一台 机器 上"),
    ("ar", "وجد محامٍ الخريطة وهو يعمل", "وجد محام الخريطة و هو يعمل"),
    ("ar", "رأى طاهٍ المغنيةَ", "رأى طاه المغنية"),
])
def test_the_determiners_classifiers_and_short_nouns_a_reader_writes(lang, text, cut):
    # 那 with each classifier that has 这 and 一; 它们 for things; an Arabic noun written
    # indefinite without its final ي (محامٍ, طاهٍ, مغنٍّ) names a person as its definite form does
    assert tokenize(text, lang) == cut.split()
    assert not LEXICONS["zh"]["它们"].person
    assert all(LEXICONS["ar"][w].person for w in ("محام", "طاه", "مغن"))
    check_sentence(cut.split())


def test_an_arabic_word_typed_without_its_hamza_is_the_lexicons():
    """Arabic is often typed with a bare alif (اصلحت for أصلحت) or ى as ي: read as the one
    lexicon word spelled so, and the reader is told it was respelled."""
    assert tokenize("اصلحت المهندسة الجسر واصلحت", "ar") == ["أصلحت", "المهندسة", "الجسر", "و", "أصلحت"]
    assert tokenize("قرات", "ar") == ["قرأت"]
    with catalog.speaking("ar"):
        note = reading_note("قرات", ["قرأت"])
        assert note == say("bench-input.read-as", words="قرأت", changes=say("bench-input.respelled"))
