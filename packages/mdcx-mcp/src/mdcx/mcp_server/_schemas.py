"""The output schemas the tools publish (pydantic models; replies are validated against them).

Fields are only ever added: the models allow fields they do not name, so a
newer mdcx-format that adds one to its results does not break a reply.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class Passage(_Open):
    passage: int = Field(description="the passage's id within its package")
    position: int = Field(description="the passage's ordinal within its document, from 0")
    page: int | None = Field(
        description="page of the original where the passage starts (null: no page markers)"
    )
    last_page: int | None
    heading: str | None = Field(description="the headings the passage sits under")
    text: str
    score: float
    truncated: bool = Field(description="true when the text is shown in part; read it whole with document")


class DocumentHit(_Open):
    rank: int
    package: str = Field(description="file name of the package holding the document")
    document: str = Field(description="portable path of the document (@/folder/file.md); pass it to document")
    title: str | None
    score: float
    dated: str | None
    dated_from: str | None = Field(
        description="where the date comes from (source, sidecar, front-matter, mtime)"
    )
    direction: str | None = Field(description="received or sent, for correspondence")
    passages: list[Passage]
    read_as: dict[str, str] = Field(description="question words found only under another spelling (OCR)")


class SearchReply(_Open):
    query: str
    mode: str
    answerable: bool | None = Field(
        description="false: the best passage holds too little of the question; the corpus does not answer it"
    )
    warning: str | None = Field(description="why nothing here answers, when that is the case")
    coverage: float | None = Field(description="share of the question's weight the best passage holds")
    answerable_at: float | None = Field(description="the coverage from which this corpus answers")
    answerable_at_by_package: dict[str, float]
    similarity: float | None = Field(
        description="cosine of the question and the closest passage (by meaning)"
    )
    similarity_at: float | None = Field(
        description="the similarity from which this corpus answers by meaning"
    )
    similarity_at_by_package: dict[str, float]
    cross_language: bool = Field(description="the question's language differs from the corpus's")
    notes: list[str] = Field(description="what shaped the ranking (a model mismatch, a phrase found nowhere)")
    unknown_terms: dict[str, list[str]] = Field(description="per package, question words it never uses")
    read_as: dict[str, dict[str, str]]
    prefer_applied: bool | None
    prefer_note: str | None
    languages: dict[str, str | None] = Field(description="per package, the main language of its text")
    documents: list[DocumentHit] = Field(description="best first; empty when nothing matches")
    next_cursor: str | None = Field(
        description="pass back as cursor, with the same question, for more documents"
    )
    note: str | None = Field(description="what this reply leaves out, when it leaves anything out")


class DocumentPage(_Open):
    package: str
    document: str = Field(description="portable path")
    title: str | None
    attachment: bool = Field(description="kept with the corpus but not searchable")
    dated: str | None
    dated_from: str | None
    direction: str | None
    passages: int
    encoding: str = Field(description="the original file's text encoding")
    length: int = Field(description="characters in the whole document, front matter included")
    offset: int = Field(description="character offset where this page's text starts")
    text: str
    next_offset: int | None = Field(description="pass back as offset to read on; null at the end")


class Server(_Open):
    name: str
    version: str


class PackageState(_Open):
    package: str
    open: bool = Field(description="whether the package has been opened (its key derived, its index read)")
    memory_bytes: int = Field(description="decrypted bytes the package holds in its block cache")
    record: dict[str, Any] = Field(
        description="the package header: counts, language, dates, calibration, conversion fidelity, signature"
    )


class Idle(_Open):
    unload_after_minutes: float = Field(description="MDCX_IDLE_UNLOAD_MINUTES; 0 = never")
    idle_seconds: float = Field(description="seconds since the previous call ended")
    unloads: int = Field(
        description="times the server has released open packages (and its encoder) when idle"
    )
    last_unload_seconds_ago: float | None


class Encoder(_Open):
    loaded: bool = Field(description="whether a query encoder is in memory now")
    models: dict[str, bool] = Field(description="each model a search has used -> loaded now")
    note: str | None


class Listed(_Open):
    package: str
    document: str = Field(description="portable path; pass it to document")
    title: str | None
    attachment: bool
    passages: int
    dated: str | None


class InfoReply(_Open):
    server: Server
    packages: list[PackageState]
    idle: Idle
    encoder: Encoder
    documents: list[Listed] | None = Field(
        description="with list_documents: documents and attachments, in order"
    )
    next_cursor: str | None = Field(description="pass back as cursor for the rest of the listing")
