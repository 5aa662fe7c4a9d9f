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
        }


@dataclass(frozen=True)
class SearchResult:
    query: str
    documents: tuple[DocumentHit, ...]
    unknown_terms: dict[str, tuple[str, ...]] = field(default_factory=dict)
    warning: str | None = None
    mode: str = "lexical"

    def to_json(self) -> dict:
        return {
            "query": self.query,
            "mode": self.mode,
            "warning": self.warning,
            "unknown_terms": {k: list(v) for k, v in self.unknown_terms.items()},
            "documents": [d.to_json() for d in self.documents],
        }
