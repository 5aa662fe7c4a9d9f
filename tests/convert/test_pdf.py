"""PDF: page markers, ruled tables, OCR per page, sampling and chapters."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml
from conftest import corpus_path
from helpers.convert import TABLE, ruled_table_pdf, text_pdf
from mdcx.convert import ConvertOptions, convert
from mdcx.convert._pdf import read_pdf
from mdcx.format import page_marker


def _front(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8").split("---\n", 2)[1])


def test_ruled_table_comes_out_as_markdown_table(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    ruled_table_pdf(tmp_path / "in" / "report.pdf")
    convert(tmp_path / "in", tmp_path / "out", ConvertOptions(serial=True))
    text = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    for row in TABLE:
        assert "| " + " | ".join(row) + " |" in text, row
    assert text.index("Sales grew") < text.index("| Region") < text.index("The table above")
    front = _front(tmp_path / "out" / "report.md")
    assert front["engines"] == ["pypdfium2", "ruled-tables"]
    assert front["coverage"] == 1.0


def test_page_markers_carry_page_numbers(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    text_pdf(tmp_path / "in" / "five.pdf", 5)
    convert(tmp_path / "in", tmp_path / "out", ConvertOptions(serial=True))
    text = (tmp_path / "out" / "five.md").read_text(encoding="utf-8")
    positions = [text.index(page_marker(n)) for n in range(1, 6)]
    assert positions == sorted(positions)
    assert text.index("Page marker text 3") > text.index(page_marker(3))
    front = _front(tmp_path / "out" / "five.md")
    assert (front["pages"], front["first_page"], front["last_page"]) == (5, 1, 5)


def test_chapters_keep_the_documents_page_numbers(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    text_pdf(tmp_path / "in" / "long.pdf", 7)
    report = convert(tmp_path / "in", tmp_path / "out", ConvertOptions(serial=True, split_threshold=3))
    index = _front(tmp_path / "out" / "long.md")
    assert index["type"] == "document_index" and index["indexed"] is False and index["chapters"] == 3
    chapters = sorted((tmp_path / "out" / "long").glob("*.md"))
    assert [c.name for c in chapters] == ["001-pages-1-3.md", "002-pages-4-6.md", "003-pages-7-7.md"]
    second = chapters[1].read_text(encoding="utf-8")
    assert page_marker(4) in second and page_marker(6) in second and page_marker(1) not in second
    assert "Page marker text 5" in second
    front = _front(chapters[1])
    assert (front["first_page"], front["last_page"], front["chapter"]) == (4, 6, 2)
    assert report.documents[0].chapters == 3 and report.documents[0].pages == 7
    assert "001-pages-1-3.md" in (tmp_path / "out" / "long.md").read_text(encoding="utf-8")
    whole = convert(
        tmp_path / "in", tmp_path / "whole", ConvertOptions(serial=True, split_threshold=3, split=False)
    )
    assert whole.documents[0].chapters == 0 and not (tmp_path / "whole" / "long").exists()


def test_sample_pages_records_what_was_taken(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    text_pdf(tmp_path / "in" / "ten.pdf", 10)
    convert(tmp_path / "in", tmp_path / "out", ConvertOptions(serial=True, sample_pages=3))
    front = _front(tmp_path / "out" / "ten.md")
    assert front["sampled_pages"] == [1, 6, 10] or front["sampled_pages"] == [1, 5, 10]
    assert front["total_pages"] == 10 and front["pages"] == 3
    text = (tmp_path / "out" / "ten.md").read_text(encoding="utf-8")
    assert page_marker(1) in text and page_marker(10) in text and page_marker(2) not in text


def test_arabic_ligatures_in_logical_order() -> None:
    pdf = corpus_path("docling-testdata") / "pdf/sources/right_to_left_01.pdf"
    reading = read_pdf(pdf, [1])
    text = "\n".join(b.text for b in reading.blocks)
    assert "الإنتاجية" in text and "المشكلات" in text
    assert "اإلنتاجية" not in text  # pdfium's raw order for the lam-alef ligature


def test_scanned_page_is_ocrd_and_unverifiable(tmp_path: Path) -> None:
    src = corpus_path("docling-testdata") / "ocr/sources"
    report = convert(src, tmp_path / "out", ConvertOptions(serial=True, only="ocr_test.pdf"))
    doc = report.documents[0]
    assert doc.status == "converted" and doc.verification == "unverifiable" and doc.ocr_pages == 1
    text = (tmp_path / "out" / "ocr_test.md").read_text(encoding="utf-8").lower()
    for word in (
        "docling",
        "bundles",
        "pdf",
        "document",
        "conversion",
        "json",
        "markdown",
        "self",
        "contained",
    ):
        assert word in text, word
    lossless = json.loads(
        (tmp_path / "out" / "_mdcx" / "lossless" / "ocr_test.json").read_text(encoding="utf-8")
    )
    assert any("ocr_lines" in (b.get("extra") or {}) for b in lossless["blocks"])
    assert report.summary["unverifiable"] == 1 and report.summary["coverage"] is None


def test_ocr_off_reports_pages_left_unread(tmp_path: Path) -> None:
    src = corpus_path("docling-testdata") / "ocr/sources"
    report = convert(src, tmp_path / "out", ConvertOptions(serial=True, only="ocr_test.pdf", ocr=False))
    assert any("no text layer" in f for f in report.documents[0].findings)


def test_without_onnxruntime_ocr_is_off_and_said_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # as if mdcx-convert[ocr] were not installed
    src = corpus_path("docling-testdata") / "ocr/sources"
    report = convert(src, tmp_path / "out", ConvertOptions(serial=True, only="ocr_test.pdf"))
    assert [n for n in report.notices if n.startswith("OCR is off")] == [
        "OCR is off: onnxruntime is not installed, so pages without a text layer are left unread and "
        'reported; pip install "mdcx-convert[ocr]" (or "mdcx-convert[ocr-gpu]" for onnxruntime-gpu)'
    ]
    doc = report.documents[0]
    assert doc.status == "converted" and any("no text layer" in f for f in doc.findings)
