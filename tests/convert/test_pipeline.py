"""mdcx-convert, then mdcx pack, then mdcx search, on the shared corpora."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.format import FAST_KDF
from mdcx.format import Package, PackOptions, pack, read_header, search


@pytest.mark.parametrize(
    ("question", "document"),
    [
        ("Call me Ishmael", "@/moby-dick.md"),
        ("אבישי נכנס לבניין מנהלת המרינה", "@/israelsailing.md"),
        ("كيف يعمل السرطان", "@/regime-anticancer-arabic.md"),
        ("山路を登りながら", "@/kusamakura-japanese-vertical-writing.md"),
    ],
)
def test_epub_corpus_end_to_end(epub_converted: Path, tmp_path: Path, question: str, document: str) -> None:
    target = tmp_path / "epub.mdcx"
    pack(epub_converted, target, "key", PackOptions(kdf=FAST_KDF))
    header = read_header(target)
    assert header.fields["conversion"]["converted"] == 7
    with Package(target, "key") as pkg:
        result = search([pkg], question, limit=3)
    assert result.documents and result.documents[0].document == document


def test_pdf_corpus_end_to_end_cites_pages(docling_converted: Path, tmp_path: Path) -> None:
    target = tmp_path / "pdf.mdcx"
    pack(docling_converted / "pdf", target, "key", PackOptions(kdf=FAST_KDF))
    with Package(target, "key") as pkg:
        result = search([pkg], "OTSL HTML TEDs inference time", limit=3)
    best = result.documents[0]
    assert best.document == "@/2305.03393v1-pg9.md" and best.passages[0].page == 1
