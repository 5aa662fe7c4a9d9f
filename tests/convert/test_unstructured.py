"""Unstructured's example documents: every file accounted for, formats and encodings of all kinds."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import corpus_path
from mdcx.convert import ConvertOptions, convert


def _files(root: Path) -> set[str]:
    out = set()
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for f in files:
            out.add((Path(folder) / f).relative_to(root).as_posix())
    return out


def _check(root: Path, report) -> None:
    by = {d.source: d for d in report.documents}
    assert set(by) == {f for f in _files(root) if not f.split("/")[-1].startswith(".")}
    for doc in report.documents:
        assert doc.status in ("converted", "failed", "skipped")
        if doc.status != "converted":
            assert doc.reason
    assert by["pdf/password.pdf"].status == "failed" and "password" in by["pdf/password.pdf"].reason
    assert (
        by["duplicate-paragraphs.doc"].status == "skipped"
        and "legacy Word" in by["duplicate-paragraphs.doc"].reason
    )
    assert by["fake-text-utf-32.txt"].status == "converted"
    assert by["pdf/DA-619p.pdf"].chapters == 7 and by["pdf/DA-619p.pdf"].coverage == 1.0
    below = [(d.source, d.coverage) for d in report.documents if d.below_threshold]
    assert not below, below


def test_every_file_accounted_for_without_ocr(tmp_path: Path) -> None:
    root = corpus_path("unstructured-example-docs")
    report = convert(root, tmp_path / "out", ConvertOptions(ocr=False))
    _check(root, report)
    scans = {d.source for d in report.documents if any("no text layer" in f for f in d.findings)}
    assert "pdf/single_table.pdf" in scans


@pytest.mark.slow
def test_every_file_accounted_for_with_ocr(tmp_path: Path) -> None:
    root = corpus_path("unstructured-example-docs")
    report = convert(root, tmp_path / "out", ConvertOptions())
    _check(root, report)
    table = (tmp_path / "out" / "pdf" / "table-multi-row-column-cells.md").read_text(encoding="utf-8")
    for word in ("Blind", "Low Vision", "Dexterity", "Mobility", "Ballots"):
        assert word in table, word
