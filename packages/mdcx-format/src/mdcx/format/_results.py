"""What a search returns: documents, each with the passages that answer in it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class PassageHit:
    passage: int
    position: int
    page: int | None
    last_page: int | None
    heading: str | None
    text: str
    score: float

    def to_json(self) -> dict:
        return {
            "passage": self.passage,
            "position": self.position,
            "page": self.page,
            "last_page": self.last_page,
            "heading": self.heading,
            "text": self.text,
            "score": round(self.score, 4),
        }


@dataclass(frozen=True)
class DocumentHit:
    rank: int
    package: str
    document: str
    title: str | None
    score: float
    dated: str | None
    dated_from: str | None
    direction: str | None
    passages: tuple[PassageHit, ...]
    read_as: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {
            "rank": self.rank,
            "package": self.package,
            "document": self.document,
            "title": self.title,
            "score": round(self.score, 4),
            "dated": self.dated,
            "dated_from": self.dated_from,
            "direction": self.direction,
            "passages": [p.to_json() for p in self.passages],
            "read_as": self.read_as,
        }


@dataclass(frozen=True)
class SearchResult:
    """A ranked answer, with everything that qualifies it.

    ``answerable`` is False when the best passage holds less of the question
    than the corpus needs to answer (``coverage`` below ``answerable_at``);
    the documents are still listed, and ``warning`` says so in words.
    """

    query: str
    documents: tuple[DocumentHit, ...]
    unknown_terms: dict[str, tuple[str, ...]] = field(default_factory=dict)
    warning: str | None = None
    mode: str = "lexical"
    answerable: bool | None = None
    coverage: float | None = None
    answerable_at: float | None = None
    answerable_at_by_package: dict[str, float] = field(default_factory=dict)
    read_as: dict[str, dict[str, str]] = field(default_factory=dict)
    prefer_applied: bool | None = None
    prefer_note: str | None = None
    similarity: float | None = None
    similarity_at: float | None = None
    similarity_at_by_package: dict[str, float] = field(default_factory=dict)
    cross_language: bool = False
    languages: dict[str, str | None] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {
            "query": self.query,
            "mode": self.mode,
            "answerable": self.answerable,
            "warning": self.warning,
            "coverage": None if self.coverage is None else round(self.coverage, 4),
            "answerable_at": None if self.answerable_at is None else round(self.answerable_at, 4),
            "answerable_at_by_package": {k: round(v, 4) for k, v in self.answerable_at_by_package.items()},
            "similarity": None if self.similarity is None else round(self.similarity, 4),
            "similarity_at": None if self.similarity_at is None else round(self.similarity_at, 4),
            "similarity_at_by_package": {k: round(v, 4) for k, v in self.similarity_at_by_package.items()},
            "cross_language": self.cross_language,
            "notes": list(self.notes),
            "unknown_terms": {k: list(v) for k, v in self.unknown_terms.items()},
            "read_as": self.read_as,
            "prefer_applied": self.prefer_applied,
            "prefer_note": self.prefer_note,
            "languages": self.languages,
            "documents": [d.to_json() for d in self.documents],
        }
