"""Words for the lexical index, in every script, by one function.

The index and the query are cut by the same ``Tokenizer``; the rules it used
are recorded in the package (``Tokenizer.record``), so a package written today
keeps answering by today's rules after the code changes.

Rules (version 1):

* Text is NFKC-normalised (presentation forms from PDF text layers, full-width
  forms and ligatures become ordinary letters) and case-folded.
* A word is a run of letters, digits and combining marks.  Which characters
  are letters, digits and marks comes from the Unicode database
  (``unicodedata``), not from a list, so Devanagari, Bengali, Tamil and Thai
  vowel signs stay inside their words.
* Accent folding removes only combining marks from the diacritic blocks that
  put accents on letters (``café`` = ``cafe``); Indic vowel signs, Hebrew and
  Arabic points are other blocks and stay.  Turkish dotless ``ı`` folds to
  ``i`` (dotted ``İ`` already does), so either spelling finds the other.
* Digits of every script read as ASCII digits (``٢٠٢٤`` = ``2024``).
* Characters that only shape text (soft hyphen, tatweel, zero-width joiners)
  are removed rather than allowed to split a word.
* Scripts written without spaces between words (Han, Kana, Hangul, Thai, Lao,
  Khmer, Myanmar, Tibetan, Javanese) are indexed by character units: a base
  character with its marks.  A run of units gives its overlapping pairs, plus
  its last unit alone, so a one-character question still has a term to find.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

TOKENIZER_NAME = "mdcx-words"
TOKENIZER_VERSION = 1

_ASCII_WORD = re.compile(r"[a-z0-9]+")

# Blocks whose combining marks are accents placed on letters.
_ACCENT_BLOCKS = ((0x0300, 0x036F), (0x1AB0, 0x1AFF), (0x1DC0, 0x1DFF), (0x20D0, 0x20FF), (0xFE20, 0xFE2F))

# Scripts written without spaces between words (Unicode blocks).
_UNSPACED_BLOCKS = (
    (0x0E00, 0x0E7F),  # Thai
    (0x0E80, 0x0EFF),  # Lao
    (0x0F00, 0x0FFF),  # Tibetan
    (0x1000, 0x109F),  # Myanmar
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x1780, 0x17FF),  # Khmer
    (0x19E0, 0x19FF),  # Khmer symbols
    (0x2E80, 0x2FDF),  # CJK radicals, Kangxi radicals
    (0x3005, 0x3007),  # ideographic iteration and number marks
    (0x3021, 0x3029),  # Hangzhou numerals
    (0x3031, 0x3035),  # kana repeat marks
    (0x3038, 0x303C),
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3130, 0x318F),  # Hangul compatibility jamo
    (0x31F0, 0x31FF),  # Katakana phonetic extensions
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xA960, 0xA97F),  # Hangul jamo extended A
    (0xA980, 0xA9DF),  # Javanese
    (0xA9E0, 0xA9FF),  # Myanmar extended B
    (0xAA60, 0xAA7F),  # Myanmar extended A
    (0xAC00, 0xD7FF),  # Hangul syllables, jamo extended B
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0x16FE0, 0x16FFF),  # ideographic symbols
    (0x1AFF0, 0x1B16F),  # kana extended and supplement
    (0x20000, 0x323AF),  # CJK extensions B-I and compatibility supplement
)
_IDEOGRAPH_PLANES = _UNSPACED_BLOCKS[-1]

# Removed before cutting: they shape text but do not separate words.
_INVISIBLE = {0x00AD: None, 0x0640: None, 0x200C: None, 0x200D: None, 0x2060: None, 0xFEFF: None}


def _ranges_class(ranges: list[tuple[int, int]]) -> str:
    return "".join(
        f"{re.escape(chr(a))}-{re.escape(chr(b))}" if a != b else re.escape(chr(a)) for a, b in ranges
    )


def _collapse(points: list[int]) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    for cp in points:
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1] = (ranges[-1][0], cp)
        else:
            ranges.append((cp, cp))
    return ranges


@dataclass(frozen=True)
class _Tables:
    word: re.Pattern[str]
    unspaced: re.Pattern[str]
    unspaced_run: re.Pattern[str]
    unit: re.Pattern[str]
    fold_table: dict[int, str | None]


@lru_cache(maxsize=1)
def _tables() -> _Tables:
    """Character classes derived from the Unicode database, built on first non-ASCII text."""
    marks: list[int] = []
    digits: dict[int, str] = {}
    for cp in list(range(0x0300, 0x1F000)) + list(range(0xE0100, 0xE01F0)):
        cat = unicodedata.category(chr(cp))
        if cat[0] == "M":
            marks.append(cp)
        elif cat == "Nd" and cp > 0x7F:
            digits[cp] = str(unicodedata.decimal(chr(cp)))
    mark_class = _ranges_class(_collapse(marks))
    # Ideographs of planes 2 and 3 are letters whatever this Python's Unicode
    # database says: extensions H and I (Unicode 15, 15.1) are unassigned in
    # Python 3.11's, and would otherwise vanish from text and questions alike.
    word = re.compile(rf"(?:[^\W_]|[{mark_class}]|[{_ranges_class([_IDEOGRAPH_PLANES])}])+")
    unspaced_class = _ranges_class(list(_UNSPACED_BLOCKS))
    unspaced = re.compile(f"[{unspaced_class}]")
    unspaced_run = re.compile(f"((?:[{unspaced_class}][{mark_class}]*)+)")
    unit = re.compile(f".[{mark_class}]*", re.S)
    fold: dict[int, str | None] = {cp: None for a, b in _ACCENT_BLOCKS for cp in range(a, b + 1)}
    fold[ord("ı")] = "i"
    fold.update(digits)
    return _Tables(word, unspaced, unspaced_run, unit, fold)


@lru_cache(maxsize=200_000)
def _fold_word(word: str) -> str:
    """Accent folding and digit mapping for one already case-folded word."""
    t = _tables()
    decomposed = unicodedata.normalize("NFD", word)
    folded = decomposed.translate(t.fold_table)
    if folded == decomposed:
        return word
    return unicodedata.normalize("NFC", folded)


def _units(run: str) -> list[str]:
    return _tables().unit.findall(run)


def _unspaced_terms(run: str, out: list[str]) -> None:
    units = _units(run)
    for a, b in zip(units, units[1:]):
        out.append(a + b)
    out.append(units[-1])


def _split_mixed(word: str, out: list[str]) -> None:
    """A word holding unspaced-script characters: spaced parts stay words, the rest become units."""
    t = _tables()
    for i, part in enumerate(t.unspaced_run.split(word)):
        if not part:
            continue
        if i % 2:
            _unspaced_terms(part, out)
        else:
            out.append(part)


def tokenize(text: str) -> list[str]:
    """The index terms of ``text``, in order (duplicates kept: positions matter)."""
    if text.isascii():
        return _ASCII_WORD.findall(text.lower())
    t = _tables()
    text = unicodedata.normalize("NFKC", text.translate(_INVISIBLE)).casefold()
    words = [_fold_word(w) if not w.isascii() else w for w in t.word.findall(text)]
    if not t.unspaced.search(text):
        return words
    out: list[str] = []
    for w in words:
        if not w.isascii() and t.unspaced.search(w):
            _split_mixed(w, out)
        else:
            out.append(w)
    return out


def query_terms(text: str) -> list[tuple[str, bool]]:
    """Terms to look up for a question: ``(term, expand)``.

    A run of several units is found by its pairs alone (its last unit, which
    the index keeps for one-unit questions, would only add noise).  A run of a
    single unit is marked ``expand``: it is looked up alone and as the first
    unit of every pair that starts with it.
    """
    if text.isascii():
        return [(w, False) for w in _ASCII_WORD.findall(text.lower())]
    out: list[tuple[str, bool]] = []
    t = _tables()
    text = unicodedata.normalize("NFKC", text.translate(_INVISIBLE)).casefold()
    for word in t.word.findall(text):
        word = _fold_word(word) if not word.isascii() else word
        if word.isascii() or not t.unspaced.search(word):
            out.append((word, False))
            continue
        for i, part in enumerate(t.unspaced_run.split(word)):
            if not part:
                continue
            if not i % 2:
                out.append((part, False))
                continue
            units = _units(part)
            if len(units) == 1:
                out.append((units[0], True))
            else:
                out.extend((a + b, False) for a, b in zip(units, units[1:]))
    return out


def first_unit(term: str) -> str:
    return _units(term)[0] if term else term


def is_word(term: str) -> bool:
    """Letters and marks only, in a script written with spaces (no digits, no units)."""
    if term.isascii():
        return term.isalpha()
    return not is_unspaced(term) and all(c.isalpha() or unicodedata.category(c)[0] == "M" for c in term)


def is_unspaced(term: str) -> bool:
    """Whether ``term`` is a character unit (or pair) of a script written without spaces."""
    return not term.isascii() and _tables().unspaced.search(term) is not None


def unit_count(term: str) -> int:
    return len(_units(term)) if is_unspaced(term) else 1


def record() -> dict:
    """The rules a package was indexed with; stored in the package."""
    return {
        "name": TOKENIZER_NAME,
        "version": TOKENIZER_VERSION,
        "units": "pairs",
        "unicode": unicodedata.unidata_version,
        "python": f"{sys.version_info.major}.{sys.version_info.minor}",
    }
