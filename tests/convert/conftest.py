"""Corpora converted once per session and shared by the tests that read the results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import corpus_path
from mdcx.convert import ConvertOptions, convert

DOCLING_FORMATS = ("pdf", "docx", "pptx", "xlsx", "html", "epub", "md", "csv")


@pytest.fixture(scope="session")
def docling_converted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """docling's test documents (all but the scans) converted with default options."""
    root = corpus_path("docling-testdata")
    out = tmp_path_factory.mktemp("docling-md")
    for fmt in DOCLING_FORMATS:
        convert(root / fmt / "sources", out / fmt, ConvertOptions(serial=True))
    return out


@pytest.fixture(scope="session")
def epub_converted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("epub-md")
    convert(corpus_path("epub3-samples"), out, ConvertOptions(serial=True))
    return out


def run_index(out: Path) -> dict:
    return json.loads((out / "_mdcx" / "run.json").read_text(encoding="utf-8"))
