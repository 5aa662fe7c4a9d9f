"""Verification: how much of the original's own text the Markdown holds.

The reference is the text the original exposes, read by a library
independent of the converting engine where one exists (each format says
which in ``REFERENCES``).  Coverage is the share of the reference's words,
counted with multiplicity, that occur in the Markdown.  It is measured on the
structured output *before* any recovered text is appended; what is appended
is reported apart, so a conversion never grades itself 1.0 by pasting the
reference back in.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

# Which library reads the reference for each engine.  Where the engine is the
# reader (native PDF text, plain text), the figure measures what structuring
# and compaction kept, not what the reader missed: the report says so.
REFERENCES = {
    "pdf": "pypdfium2 text layer (the same read as the native engine: measures structuring and compaction)",
    "docx": "WordprocessingML text runs read with xml.etree (independent of python-docx)",
    "pptx": "DrawingML text runs of every slide read with xml.etree (independent of python-pptx)",
    "xlsx": "shared strings and cell values read with xml.etree (independent of openpyxl)",
    "html": "lxml.html text content (independent of the html.parser engine)",
    "epub": "lxml.html text content of the spine documents (independent of the html.parser engine)",
    "md": "the decoded file itself (the same read: measures structuring and compaction)",
    "csv": "the decoded file itself (the same read: measures structuring and compaction)",
    "txt": "the decoded file itself (the same read: measures structuring and compaction)",
}

_WORD = re.compile(r"[^\W_]+")
_MARKER = re.compile(r"<!--.*?-->", re.S)
# A word broken across lines with a hyphen is one word.
_HYPHEN_BREAK = re.compile(r"(?<=[^\W\d_])-[ \t]*\r?\n[ \t]*(?=[^\W\d_])")


_INVISIBLE = re.compile("[\u00ad\u200b\u200c\u200d\u2060\ufeff]")


def normalise(text: str) -> str:
    """Compatibility forms folded, case folded, invisible joiners and soft hyphens dropped."""
    return _INVISIBLE.sub("", unicodedata.normalize("NFKC", text)).casefold()


# Scripts written without spaces count character by character, so a run of
# them is not one brittle "word" that any inserted mark would break.
_UNSPACED = re.compile(
    "[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u0f00-\u0fff\u3040-\u30ff\u3400-\u4dbf"
    "\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u1100-\u11ff\uff66-\uff9f\ua980-\ua9df]"
)


def words(text: str) -> list[str]:
    """The words of ``text`` as verification counts them."""
    out: list[str] = []
    for word in _WORD.findall(normalise(_HYPHEN_BREAK.sub("", text))):
        if _UNSPACED.search(word):
            out.extend(_split_unspaced(word))
        else:
            out.append(word)
    return out


def _split_unspaced(word: str) -> list[str]:
    parts: list[str] = []
    buf = ""
    for ch in word:
        if _UNSPACED.match(ch):
            if buf:
                parts.append(buf)
                buf = ""
            parts.append(ch)
        else:
            buf += ch
    if buf:
        parts.append(buf)
    return parts


def markdown_words(markdown: str) -> list[str]:
    """Words of Markdown, not counting comments such as page markers."""
    return words(_MARKER.sub(" ", markdown))


@dataclass(frozen=True)
class Coverage:
    reference_words: int
    found_words: int
    lost: tuple[tuple[str, int], ...]  # the most frequent missing words and how many of each

    @property
    def share(self) -> float | None:
        if self.reference_words == 0:
            return None
        return self.found_words / self.reference_words


def coverage(reference: list[str] | Counter, produced: list[str] | Counter, keep_lost: int = 20) -> Coverage:
    ref = reference if isinstance(reference, Counter) else Counter(reference)
    got = produced if isinstance(produced, Counter) else Counter(produced)
    total = sum(ref.values())
    found = 0
    missing: Counter = Counter()
    for word, n in ref.items():
        have = got.get(word, 0)
        found += min(n, have)
        if have < n:
            missing[word] = n - have
    return Coverage(total, found, tuple(missing.most_common(keep_lost)))


def recover(reference_text: str, produced: Counter) -> tuple[str, int]:
    """The lines of the reference whose words the output lacks, verbatim.

    Returns the text to append and how many words it holds.  A line is taken
    when at least half of its words are missing from what is left of the
    output's word counts, so text already placed is not appended twice.
    """
    left = Counter(produced)
    taken: list[str] = []
    count = 0
    for line in reference_text.splitlines():
        ws = words(line)
        if not ws:
            continue
        need = Counter(ws)
        missing = sum(max(0, n - left.get(w, 0)) for w, n in need.items())
        if missing * 2 >= len(ws):
            taken.append(line.strip())
            count += len(ws)
        else:
            for w, n in need.items():
                left[w] = max(0, left.get(w, 0) - n)
    return "\n".join(taken), count


_GARBLE_RUN = re.compile(r"([^\W\d_])\1\1")


def text_layer_findings(text: str) -> list[str]:
    """Signs that a text layer does not hold the text a reader sees.

    A text layer whose fonts map glyphs to the wrong characters yields words
    no script writes: measured on the shared corpora, the share of words with
    one letter three times in a row is under 1% for sound text layers and 24%
    for the known garbled one.  Replacement and private-use characters count
    too.
    """
    findings = []
    ws = _WORD.findall(text)
    if len(ws) >= 20:
        runs = sum(1 for w in ws if _GARBLE_RUN.search(w) and not w.isascii())
        if runs / len(ws) > 0.05:
            findings.append(
                f"garbled text layer: {runs} of {len(ws)} words repeat one letter three times "
                "(fonts that map glyphs to the wrong characters)"
            )
    letters = sum(1 for c in text if not c.isspace())
    if letters >= 50:
        bad = sum(1 for c in text if c == "\ufffd" or "\ue000" <= c <= "\uf8ff")
        if bad / letters > 0.05:
            findings.append(f"text layer with {bad} unmapped characters of {letters} (U+FFFD or private use)")
    return findings
