"""What a package's lexical index holds, and how a question relates to it.

The index records every word (no stop-word list) under the tokenizer's rule;
scripts written without spaces are recorded as character pairs (plus the
last character of each run), so a term absent from the vocabulary means the
corpus never used it.  ``unknown_terms`` applies the same rule to a question;
``unfamiliar`` adds the share of unknown terms and whether the question
looks like another language than the corpus (then every term is unknown
because of the language, not the content).  ``assess`` gives the lexical
signals side by side with the semantic ones where a package has them; it
overrules neither.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

from . import _language
from ._errors import InputError
from ._reader import Package

RULE = (
    "every word of letters, digits and their marks, case- and accent-folded, any length; "
    "scripts without spaces as overlapping character pairs plus each run's last character"
)


@dataclass(frozen=True)
class Vocabulary:
    package: str
    terms: int
    rule: str
    tokenizer: dict
    language: dict
    commonest: tuple[tuple[str, int], ...]  # (term, passages holding it), most frequent first

    def to_json(self) -> dict:
        return {
            "package": self.package,
            "terms": self.terms,
            "rule": self.rule,
            "tokenizer": self.tokenizer,
            "language": self.language,
            "commonest": [list(t) for t in self.commonest],
        }


def vocabulary(package: Package, *, limit: int = 100) -> Vocabulary:
    """The size, rule and commonest terms of a package's lexical index."""
    if limit < 0:
        raise InputError(f"the number of terms to list must be 0 or more, not {limit}")
    limit = min(limit, sys.maxsize)  # SQLite's LIMIT is a 64-bit integer
    if package.kind == "legacy":
        count = package.execute("SELECT count(*) FROM temp.mdcx_rows")[0][0] if package.engine() else 0
        top = package.execute("SELECT term, doc FROM temp.mdcx_rows ORDER BY doc DESC LIMIT ?", (limit,))
        rule = "first-generation index: words of 3+ characters and single characters of unspaced scripts"
        return Vocabulary(package.name, count, rule, {}, {}, tuple((t, d) for t, d in top))
    count = (package.meta.get("lexical") or {}).get("terms") or package.execute("SELECT count(*) FROM term")[
        0
    ][0]
    top = package.execute("SELECT term, df FROM term ORDER BY df DESC, term LIMIT ?", (limit,))
    return Vocabulary(
        package.name,
        int(count),
        RULE,
        package.meta.get("tokenizer") or {},
        package.meta.get("language") or {},
        tuple((t, d) for t, d in top),
    )


def _question_terms(package: Package, text: str) -> list[str]:
    engine = package.engine()
    return list(dict.fromkeys(t for t, _ in engine.query_terms(text)))


def unknown_terms(package: Package, text: str) -> tuple[str, ...]:
    """The question's terms (cut as the index cuts them) that this package never saw."""
    terms = _question_terms(package, text)
    found = package.engine().lookup(terms)
    return tuple(t for t in terms if t not in found)


@dataclass(frozen=True)
class Unfamiliar:
    terms: tuple[str, ...]
    unknown: tuple[str, ...]
    share: float
    cross_language: bool
    question_language: str | None
    corpus_language: str | None

    def to_json(self) -> dict:
        return {
            "terms": list(self.terms),
            "unknown": list(self.unknown),
            "share": round(self.share, 4),
            "cross_language": self.cross_language,
            "question_language": self.question_language,
            "corpus_language": self.corpus_language,
        }


def unfamiliar(package: Package, text: str) -> Unfamiliar:
    """How much of the question the corpus never saw, and whether that is a matter of language."""
    terms = tuple(_question_terms(package, text))
    unknown = unknown_terms(package, text)
    share = len(unknown) / len(terms) if terms else 0.0
    asked = _language.detect(text).code
    corpus = (package.meta.get("language") or {}).get("code") or package.header.fields.get("language")
    cross = corpus is not None and share >= 0.5 and _language.written_apart(text, {corpus})
    return Unfamiliar(terms, unknown, share, cross, asked, corpus)


@dataclass(frozen=True)
class Assessment:
    """Both signals on a question, side by side; neither overrules the other."""

    question: str
    coverage: float | None  # lexical: share of the question's weight in the best passage
    answerable_at: float | None
    unfamiliar: dict[str, Unfamiliar]  # per package
    similarity: float | None = None  # semantic: set when packages hold vectors (mdcx-embed)
    semantic_answerable_at: float | None = None

    def to_json(self) -> dict:
        return {
            "question": self.question,
            "coverage": self.coverage,
            "answerable_at": self.answerable_at,
            "unfamiliar": {k: v.to_json() for k, v in self.unfamiliar.items()},
            "similarity": self.similarity,
            "semantic_answerable_at": self.semantic_answerable_at,
        }


def assess(packages: Sequence[Package], text: str) -> Assessment:
    """The lexical signals on ``text`` (coverage against the calibrated threshold, unfamiliar words)."""
    from ._search import search

    result = search(packages, text, limit=1)
    return Assessment(
        text,
        result.coverage,
        result.answerable_at,
        {p.name: unfamiliar(p, text) for p in packages},
        result.similarity,
    )
