"""Formats are decided from content, never from names (text alone goes by extension)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import corpus_path
from mdcx.convert import detect
from mdcx.convert._detect import decode_text

CASES = [  # (corpus, file, format or None, words the skip reason must hold)
    ("docling-testdata", "pdf/sources/multi_page.pdf", "pdf", ""),
    ("docling-testdata", "docx/sources/word_sample.docx", "docx", ""),
    ("docling-testdata", "docx/sources/Strict.docx", "docx", ""),
    ("docling-testdata", "pptx/sources/powerpoint_sample.pptx", "pptx", ""),
    ("docling-testdata", "xlsx/sources/xlsx_01.xlsx", "xlsx", ""),
    ("docling-testdata", "xlsx/sources/xlsx_02_sample_sales_data.xlsm", "xlsx", ""),
    ("docling-testdata", "epub/sources/epub_purvis_poetry.epub", "epub", ""),
    ("docling-testdata", "html/sources/wiki_duck.html", "html", ""),
    ("docling-testdata", "md/sources/wiki.md", "md", ""),
    ("docling-testdata", "csv/sources/csv-semicolon.csv", "csv", ""),
    ("unstructured-example-docs", "fake-text.txt", "txt", ""),
    ("unstructured-example-docs", "fake-html-pre.htm", "html", ""),
    ("unstructured-example-docs", "codeblock.md", "md", ""),  # HTML inside a code block is still Markdown
    ("unstructured-example-docs", "example-steelJIS-datasheet-utf-16.html", "html", ""),
    ("unstructured-example-docs", "fake.doc", None, "legacy Word"),
    ("unstructured-example-docs", "tests-example.xls", None, "legacy Excel"),
    ("unstructured-example-docs", "fake-power-point.ppt", None, "legacy PowerPoint"),
    ("unstructured-example-docs", "password_protected.xlsx", None, "encrypted"),
    ("unstructured-example-docs", "fake.odt", None, "OpenDocument"),
    ("unstructured-example-docs", "fake-doc.rtf", None, "RTF"),
    ("unstructured-example-docs", "simple.zip", None, "ZIP"),
    ("unstructured-example-docs", "simple.json", None, ".json"),
    ("unstructured-example-docs", "empty.txt", None, "empty"),
    ("unstructured-example-docs", "img/example.jpg", None, "JPEG"),
    ("docling-testdata", "webp/sources/webp-test.webp", None, "WEBP"),
]


@pytest.mark.parametrize(("corpus", "name", "fmt", "reason"), CASES, ids=[c[1] for c in CASES])
def test_detect_corpus_files(corpus: str, name: str, fmt: str | None, reason: str) -> None:
    found = detect(corpus_path(corpus) / name)
    assert found.format == fmt, found
    if fmt is None:
        assert reason in (found.reason or "")


def test_content_wins_over_extension(tmp_path: Path) -> None:
    epub = corpus_path("epub3-samples") / "wasteland.epub"
    disguised = shutil.copy(epub, tmp_path / "wasteland.pdf")
    assert detect(Path(disguised)).format == "epub"
    pdf = corpus_path("docling-testdata") / "pdf/sources/multi_page.pdf"
    assert detect(Path(shutil.copy(pdf, tmp_path / "report.txt"))).format == "pdf"
    (tmp_path / "notes.pdf").write_text("plain words, no PDF header", encoding="utf-8")
    assert detect(tmp_path / "notes.pdf").format is None


@pytest.mark.parametrize(
    ("name", "encoding"),
    [
        ("fake-text-utf-16.txt", "utf-16"),
        ("fake-text-utf-16-le.txt", "utf-16-le"),
        ("fake-text-utf-16-be.txt", "utf-16-be"),
        ("fake-text-utf-32.txt", "utf-32"),
        ("fake-text.txt", "utf-8"),
        ("umlauts-non-utf8.md", "cp1252"),
        ("fake-html-cp1252.html", "cp1252"),
    ],
)
def test_text_encodings(name: str, encoding: str) -> None:
    path = corpus_path("unstructured-example-docs") / name
    found = detect(path)
    assert found.encoding == encoding
    text, _ = decode_text(path.read_bytes(), found.encoding)
    assert "\ufffd" not in text and "\x00" not in text


def test_encodings_without_bom(tmp_path: Path) -> None:
    words = "Grüße aus Köln — naïve café\n" * 20
    for enc in ("utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be", "cp1252"):
        path = tmp_path / f"t-{enc}.txt"
        path.write_bytes(words.encode(enc))
        found = detect(path)
        assert found.format == "txt" and found.encoding == enc
        assert decode_text(path.read_bytes(), found.encoding)[0] == words
