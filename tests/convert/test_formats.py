"""Every format through its engine, checked against the original's own text."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from conftest import corpus_path

from .conftest import DOCLING_FORMATS, run_index

# The garbled text layer cannot be measured against itself meaningfully: it is flagged instead.
GARBLED = "right_to_left_02.pdf"


def _front(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("---\n")
    return yaml.safe_load(text.split("---\n", 2)[1])


def test_every_docling_file_accounted_for(docling_converted: Path) -> None:
    root = corpus_path("docling-testdata")
    for fmt in DOCLING_FORMATS:
        index = run_index(docling_converted / fmt)
        sources = {d["source"] for d in index["documents"]}
        on_disk = {p.name for p in (root / fmt / "sources").iterdir() if not p.name.startswith(".")}
        assert sources == on_disk, fmt
        for doc in index["documents"]:
            assert doc["status"] in ("converted", "skipped", "failed")
            if doc["status"] != "converted":
                assert doc["reason"], doc


def test_born_digital_coverage_at_least_99_5(docling_converted: Path, epub_converted: Path) -> None:
    measured = 0
    below = []
    for out in [docling_converted / f for f in DOCLING_FORMATS] + [epub_converted]:
        for doc in run_index(out)["documents"]:
            if doc["status"] != "converted" or doc["verification"] != "measured":
                continue
            measured += 1
            if doc["coverage"] < 0.995 and doc["source"] != GARBLED:
                below.append((doc["source"], doc["coverage"], doc["lost"][:5]))
    assert measured > 100
    assert not below, below


def test_coverage_is_recorded_in_front_matter_and_index(docling_converted: Path) -> None:
    index = run_index(docling_converted / "docx")
    doc = next(d for d in index["documents"] if d["source"] == "word_sample.docx")
    front = _front(docling_converted / "docx" / "word_sample.md")
    assert front["coverage"] == doc["coverage"] > 0.99
    assert front["source_digest"].startswith("sha256:")
    assert front["engines"] == ["python-docx"]
    assert "independent of python-docx" in front["reference"]
    assert index["summary"]["coverage"] is not None


def test_garbled_text_layer_is_flagged(docling_converted: Path) -> None:
    front = _front(docling_converted / "pdf" / "right_to_left_02.md")
    assert any("garbled text layer" in f for f in front["findings"])
    summary = (docling_converted / "pdf" / "_mdcx" / "summary.md").read_text(encoding="utf-8")
    assert "garbled text layer" in summary


def test_unverifiable_is_reported_apart(epub_converted: Path) -> None:
    index = run_index(epub_converted)
    blank = next(d for d in index["documents"] if d["source"] == "page-blanche.epub")
    assert blank["status"] == "converted" and blank["verification"] == "unverifiable"
    assert blank["coverage"] is None
    assert index["summary"]["unverifiable"] == 1
    assert index["summary"]["measured"] == 6


# (output file, text that must be there, text that must not)
CASES = [
    ("pdf/right_to_left_01.md", ["تحسين الإنتاجية وحل المشكلات", "R و Python من الأدوات"], ["اإلنتاجية"]),
    (
        "pdf/multi_page.md",
        ["<!-- page: 1 -->", "<!-- page: 5 -->", "### Pre-Digital Era (19th - Early 20th Century)"],
        ["<!-- page: 6 -->"],
    ),
    ("pdf/amt_handbook_sample.md", ["| Nut case |"], []),
    ("pdf/2305.03393v1-pg9.md", ["| # dec-layers | Language | TEDs |"], []),
    ("docx/word_sample.md", ["# Swimming in the lake"], []),
    ("docx/Strict.md", ["engines:\n- ooxml-xml"], []),
    ("docx/equations.md", ["\\frac{", "^{"], []),
    ("docx/unit_test_headers_numbered.md", ["1.1."], []),
    ("pptx/powerpoint_sample.md", ["<!-- page: 2 -->", "# Test Table Slide"], []),
    ("pptx/pptx_chart.md", ["chart"], []),
    ("xlsx/xlsx_01.md", ["## Sheet1", "| first | second | third |"], []),
    ("xlsx/xlsx_comments.md", ["[author: "], []),
    ("html/wiki_duck.md", ["# Duck", "[Anatidae]("], ["<script", "function("]),
    ("html/table_04.md", ["|"], []),
    ("csv/csv-semicolon.md", ["| Index | Customer Id |"], []),
    ("md/wiki.md", ["# "], []),
    ("epub/epub_purvis_poetry.md", ["title:"], []),
]


@pytest.mark.parametrize(("name", "must", "must_not"), CASES, ids=[c[0] for c in CASES])
def test_conversion_cases(docling_converted: Path, name: str, must: list[str], must_not: list[str]) -> None:
    text = (docling_converted / name).read_text(encoding="utf-8")
    for piece in must:
        assert piece in text, piece
    for piece in must_not:
        assert piece not in text, piece


@pytest.mark.parametrize(
    ("name", "phrase"),
    [
        ("regime-anticancer-arabic.md", "إن أردنا أن نفهم الآن كيف يمكن للأغذية"),
        ("israelsailing.md", "אבישי נכנס לבניין מנהלת המרינה"),
        ("kusamakura-japanese-vertical-writing.md", "山路(やまみち)を登りながら、こう考えた。"),
        ("moby-dick.md", "Call me Ishmael"),
    ],
)
def test_scripts_survive_in_logical_order(epub_converted: Path, name: str, phrase: str) -> None:
    assert phrase in (epub_converted / name).read_text(encoding="utf-8")


def test_word_page_breaks_become_page_markers(tmp_path: Path) -> None:
    from mdcx.convert import ConvertOptions, convert

    src = corpus_path("unstructured-example-docs")
    convert(src, tmp_path / "out", ConvertOptions(serial=True, only="page-breaks.docx"))
    text = (tmp_path / "out" / "page-breaks.md").read_text(encoding="utf-8")
    positions = [text.index(f"<!-- page: {n} -->") for n in range(1, 6)]
    assert positions == sorted(positions)
    assert "lastRenderedPageBreak" in _front(tmp_path / "out" / "page-breaks.md")["pages_from"]


@pytest.mark.parametrize("folder", ["ocr", "tiff", "webp", "pdf_password"])
def test_every_file_of_the_scan_and_password_folders_accounted_for(folder: str, tmp_path: Path) -> None:
    # OCR off keeps this quick: what is asked here is that no file goes unreported
    # (images are not a document format; an encrypted PDF fails with its reason).
    from mdcx.convert import ConvertOptions, convert

    sources = corpus_path("docling-testdata") / folder / "sources"
    convert(sources, tmp_path / "out", ConvertOptions(serial=True, ocr=False))
    index = run_index(tmp_path / "out")
    on_disk = {p.name for p in sources.iterdir() if not p.name.startswith(".")}
    assert {d["source"] for d in index["documents"]} == on_disk
    for doc in index["documents"]:
        assert doc["status"] in ("converted", "skipped", "failed")
        if doc["status"] != "converted":
            assert doc["reason"], doc
