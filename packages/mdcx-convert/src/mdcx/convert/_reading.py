"""The structured reading an engine makes of a document, before Markdown.

Every engine produces the same small vocabulary of blocks; the Markdown
writer and the lossless JSON backup are both made from it, so the backup
holds everything the Markdown was made from (table cells, OCR confidences,
the engine of each block) and nothing is decided twice.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

KINDS = ("page", "heading", "paragraph", "item", "table", "code", "quote", "markdown")


@dataclass
class Block:
    kind: str  # one of KINDS
    text: str = ""
    level: int = 0  # heading level (1-6) or list depth (0-based)
    rows: list[list[str]] | None = None  # table cells, first row the header
    page: int | None = None  # page of the original (the page number itself for "page" blocks)
    engine: str = ""  # which engine produced the block
    extra: dict[str, Any] | None = None  # engine details kept only in the lossless backup


@dataclass
class Reading:
    blocks: list[Block] = field(default_factory=list)
    title: str | None = None
    date: str | None = None  # the document's own date (metadata), ISO
    pages: int | None = None  # pages the reading covers
    engines: list[str] = field(default_factory=list)
    # Text of the original read for verification; None when it exposes none.
    reference: str | None = None
    unverifiable_pages: list[int] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)  # more front matter fields

    def add(self, kind: str, text: str = "", **kw: Any) -> Block:
        block = Block(kind, text, **kw)
        self.blocks.append(block)
        return block

    def use(self, engine: str) -> None:
        if engine not in self.engines:
            self.engines.append(engine)

    def lossless(self) -> dict[str, Any]:
        blocks = []
        for b in self.blocks:
            d = {k: v for k, v in asdict(b).items() if v not in (None, "", 0) or k == "kind"}
            blocks.append(d)
        return {
            "title": self.title,
            "date": self.date,
            "pages": self.pages,
            "engines": self.engines,
            "unverifiable_pages": self.unverifiable_pages,
            "findings": self.findings,
            "notes": self.notes,
            "blocks": blocks,
        }
