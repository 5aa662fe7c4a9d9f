"""The tokenizer's rules, script by script (SPEC §3 "Languages")."""

from __future__ import annotations

import pytest
from mdcx.format._tokenize import query_terms, tokenize


@pytest.mark.parametrize(
    "text, expected",
    [
        ("AI, 5G, pH and 10 units", ["ai", "5g", "ph", "and", "10", "units"]),
        ("Café NAÏVE façade", ["cafe", "naive", "facade"]),
        ("İstanbul ISTANBUL ıstanbul istanbul", ["istanbul"] * 4),
        ("Straße STRASSE", ["strasse", "strasse"]),
        ("die casting", ["die", "casting"]),
        ("infor\u00admation", ["information"]),
        ("٢٠٢٤ and 2024", ["2024", "and", "2024"]),
        ("ﻛﺘﺎﺏ كـتـاب كتاب", ["كتاب", "كتاب", "كتاب"]),  # presentation forms, tatweel
        ("ｆｕｌｌ ｗｉｄｔｈ", ["full", "width"]),
        ("Ελληνικά άλφα", ["ελληνικα", "αλφα"]),
    ],
)
def test_words(text: str, expected: list[str]) -> None:
    assert tokenize(text) == expected


def test_indic_vowel_signs_stay_in_their_words() -> None:
    for text in ("हिन्दी भाषा", "বাংলা ভাষা", "தமிழ் மொழி"):
        words = tokenize(text)
        assert len(words) == 2 and "".join(words) == text.replace(" ", "")


def test_hebrew_and_arabic_points_are_kept() -> None:
    assert tokenize("שָׁלוֹם") == ["שָׁלוֹם"]
    assert tokenize("مُحَمَّد") == ["مُحَمَّد"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("東京都", ["東京", "京都", "都"]),
        ("한국어", ["한국", "국어", "어"]),
        ("ภาษาไทย", ["ภา", "าษ", "ษา", "าไ", "ไท", "ทย", "ย"]),
        ("𠀀𠀁", ["𠀀𠀁", "𠀁"]),  # CJK extension B, beyond the BMP
        # extension H (Unicode 15): unassigned in Python 3.11's Unicode database, kept all the same
        ("\U00031350\U00031351", ["\U00031350\U00031351", "\U00031351"]),
        ("カタカナ", ["カタ", "タカ", "カナ", "ナ"]),
        ("ひらがな", ["ひら", "らが", "がな", "な"]),
        ("ພາສາ", ["ພາ", "າສ", "ສາ", "າ"]),  # Lao
        ("ខ្មែរ", ["ខ្មែ", "មែរ", "រ"]),  # Khmer: a unit is a base with its marks (coeng, vowel sign)
        ("မြန်မာ", ["မြန်", "န်မာ", "မာ"]),  # Myanmar
        # Tibetan: the tsheg (་) is punctuation between syllables, so pairs stay within a syllable
        ("བོད་ཡིག", ["བོད", "ད", "ཡིག", "ག"]),
        ("ꦗꦮ", ["ꦗꦮ", "ꦮ"]),  # Javanese
        ("iPhone手机", ["iphone", "手机", "机"]),
    ],
)
def test_unspaced_scripts_by_unit_pairs(text: str, expected: list[str]) -> None:
    assert tokenize(text) == expected


def test_thai_units_keep_their_marks() -> None:
    terms = tokenize("สวัสดี")
    assert all(not ("\u0e31" <= t[0] <= "\u0e3a") for t in terms)  # no term starts with a vowel sign


def test_query_terms_mark_single_units_for_expansion() -> None:
    assert query_terms("京") == [("京", True)]
    assert query_terms("東京 tower") == [("東京", False), ("tower", False)]


def test_same_function_for_index_and_query() -> None:
    text = "Résumé: 東京 5G İstanbul"
    assert [t for t, _ in query_terms(text) if not _] == [t for t in tokenize(text) if t != "京"]


def test_a_question_is_cut_into_terms_its_own_text_was_indexed_under() -> None:
    # tokenize() cuts what is indexed, query_terms() what is asked: over every
    # language and script of the mixed corpus, a question that repeats a text
    # must ask only for terms that text was indexed under.
    from helpers.four_subjects import LANGUAGES

    for language, (_script, subjects) in LANGUAGES.items():
        for text, question in subjects.values():
            for sample in (text, question):
                asked = {term for term, _expand in query_terms(sample)}
                assert asked <= set(tokenize(sample)), (language, sample, asked - set(tokenize(sample)))
