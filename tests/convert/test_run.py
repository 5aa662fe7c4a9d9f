"""Runs: the real command, resume, records, options, errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import corpus_path
from helpers.convert import docx, ruled_table_pdf, text_pdf
from mdcx.convert import ConversionError, ConvertOptions, convert

CLI = [sys.executable, "-m", "mdcx.convert"]


def _collection(root: Path) -> Path:
    root.mkdir()
    (root / "sub").mkdir()
    ruled_table_pdf(root / "report.pdf")
    docx(root / "sub" / "harbour.docx")
    (root / "sub" / "notes.txt").write_text("Tide tables are printed every spring.\n", encoding="utf-8")
    (root / "legacy.doc").write_bytes(
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + "WordDocument".encode("utf-16-le")
    )
    return root


def _run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONIOENCODING="ascii")  # a console that cannot print every name
    return subprocess.run([*CLI, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=300)


def test_default_invocation_in_a_subprocess(tmp_path: Path) -> None:
    """The real command with default options (worker processes) on a CPU-only machine."""
    src = _collection(tmp_path / "docs")
    out = tmp_path / "md"
    done = _run("--input", str(src), "--output", str(out))
    assert done.returncode == 0, done.stderr
    assert "converted 3" in done.stdout and "skipped 1" in done.stdout
    assert "Traceback" not in done.stderr
    assert (
        (out / "report.md").is_file()
        and (out / "sub" / "harbour.md").is_file()
        and (out / "sub" / "notes.md").is_file()
    )
    records = out / "_mdcx"
    assert (records / "run.json").is_file() and (records / "summary.md").is_file()
    assert (records / "lossless" / "sub" / "harbour.json").is_file()
    assert list(out.rglob("*.json"))  # backups, and only under _mdcx
    assert all(p.is_relative_to(records) for p in out.rglob("*.json"))
    index = json.loads((records / "run.json").read_text(encoding="utf-8"))
    assert index["summary"]["converted"] == 3 and "processes" in index["summary"]["workers"]
    legacy = next(d for d in index["documents"] if d["source"] == "legacy.doc")
    assert legacy["status"] == "skipped" and "legacy Word" in legacy["reason"]


def test_resume_reuses_unchanged_and_redoes_changed(tmp_path: Path) -> None:
    src = _collection(tmp_path / "docs")
    out = tmp_path / "md"
    first = convert(src, out, ConvertOptions(serial=True))
    assert first.summary["converted"] == 3
    second = convert(src, out, ConvertOptions(serial=True))
    assert second.summary["reused"] == 3 and second.summary["converted"] == 0
    (src / "sub" / "notes.txt").write_text("Tide tables changed.\n", encoding="utf-8")
    third = convert(src, out, ConvertOptions(serial=True))
    assert third.summary["reused"] == 2 and third.summary["converted"] == 1
    assert "changed" in (out / "sub" / "notes.md").read_text(encoding="utf-8")
    (out / "report.md").unlink()
    fourth = convert(src, out, ConvertOptions(serial=True))
    assert fourth.summary["converted"] == 1 and (out / "report.md").is_file()
    forced = convert(src, out, ConvertOptions(serial=True, force=True))
    assert forced.summary["converted"] == 3 and forced.summary["reused"] == 0
    assert "converted 3" in (out / "_mdcx" / "summary.md").read_text(encoding="utf-8")


def test_resume_from_the_journal_after_a_crash(tmp_path: Path) -> None:
    src = _collection(tmp_path / "docs")
    out = tmp_path / "md"
    convert(src, out, ConvertOptions(serial=True))
    index = json.loads((out / "_mdcx" / "run.json").read_text(encoding="utf-8"))
    # A run killed before writing its index leaves only the journal of finished units.
    (out / "_mdcx" / "run.json").unlink()
    with open(out / "_mdcx" / "progress.jsonl", "w", encoding="utf-8") as fh:
        for rec in index["units"]:
            fh.write(json.dumps(rec) + "\n")
        fh.write('{"output": "cut mid-li')  # the line being written when the process died
    again = convert(src, out, ConvertOptions(serial=True))
    assert again.summary["reused"] == 3


def test_chapter_with_findings_is_redone(tmp_path: Path) -> None:
    src = tmp_path / "docs"
    src.mkdir()
    text_pdf(src / "long.pdf", 6)
    out = tmp_path / "md"
    convert(src, out, ConvertOptions(serial=True, split_threshold=2))
    journal_index = json.loads((out / "_mdcx" / "run.json").read_text(encoding="utf-8"))
    for rec in journal_index["units"]:
        if rec["chapter"] == 2:
            rec["findings"] = ["page 3: garbled text layer"]
    (out / "_mdcx" / "run.json").write_text(json.dumps(journal_index), encoding="utf-8")
    again = convert(src, out, ConvertOptions(serial=True, split_threshold=2))
    assert again.documents[0].reused_units == 2 and again.documents[0].chapters == 3


def test_no_lossless_and_no_compact(tmp_path: Path) -> None:
    src = tmp_path / "docs"
    src.mkdir()
    (src / "spaced.txt").write_text("Wide    gaps\u00ad between   words\n\n\n\nend\n", encoding="utf-8")
    convert(src, tmp_path / "a", ConvertOptions(serial=True, lossless=False))
    assert not (tmp_path / "a" / "_mdcx" / "lossless").exists()
    compact = (tmp_path / "a" / "spaced.md").read_text(encoding="utf-8")
    convert(src, tmp_path / "b", ConvertOptions(serial=True, compact=False))
    raw = (tmp_path / "b" / "spaced.md").read_text(encoding="utf-8")
    assert "Wide gaps between words" in compact and "Wide    gaps\u00ad between   words" in raw


def test_only_and_limit(tmp_path: Path) -> None:
    src = _collection(tmp_path / "docs")
    only = convert(src, tmp_path / "a", ConvertOptions(serial=True, only="*.docx"))
    assert [d.source for d in only.documents] == ["sub/harbour.docx"]
    limited = convert(src, tmp_path / "b", ConvertOptions(serial=True, limit=1))
    assert sum(1 for d in limited.documents if d.status == "converted") == 1


def test_timeout_abandons_and_the_run_goes_on(tmp_path: Path) -> None:
    src = tmp_path / "docs"
    src.mkdir()
    scan = corpus_path("docling-testdata") / "ocr/sources/ocr_test.pdf"
    (src / "scan.pdf").write_bytes(scan.read_bytes())  # OCR takes seconds
    (src / "quick.txt").write_text("quick words\n", encoding="utf-8")
    report = convert(src, tmp_path / "out", ConvertOptions(timeout=0.5, max_cores=1, recycle_after=1))
    by = {d.source: d for d in report.documents}
    assert by["scan.pdf"].status == "failed" and "abandoned" in by["scan.pdf"].reason
    assert by["quick.txt"].status == "converted"


def test_formulas_refuse_at_start(tmp_path: Path) -> None:
    src = _collection(tmp_path / "docs")
    with pytest.raises(ConversionError, match="formula model"):
        convert(src, tmp_path / "out", ConvertOptions(formulas=True))
    with pytest.raises(ConversionError, match="--no-docling"):
        convert(src, tmp_path / "out", ConvertOptions(formulas=True, docling=False))
    assert not (tmp_path / "out").exists()
    done = _run("--input", str(src), "--output", str(tmp_path / "out"), "--formulas", "--no-docling")
    assert done.returncode == 1
    assert done.stderr.startswith("mdcx-convert: error: ") and done.stderr.count("\n") == 1


def test_docling_models_absent_is_said_once(tmp_path: Path) -> None:
    src = _collection(tmp_path / "docs")
    done = _run("--input", str(src), "--output", str(tmp_path / "out"), "--serial")
    assert done.returncode == 0
    assert done.stderr.count("docling layout models not found") == 1
    quiet = _run("--input", str(src), "--output", str(tmp_path / "out2"), "--serial", "--no-docling")
    assert "docling" not in quiet.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--input", "/nonexistent/folder", "--output", "OUT"], "does not exist"),
        (["--input", "IN", "--output", "IN"], "must differ"),
        (["--input", "IN", "--output", "OUT", "--docling-models", "/nonexistent"], "no such folder"),
    ],
)
def test_errors_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "IN").mkdir()
    done = _run(*[a.replace("IN", str(tmp_path / "IN")).replace("OUT", str(tmp_path / "OUT")) for a in args])
    assert done.returncode == 1
    assert done.stderr.startswith("mdcx-convert: error: ") and message in done.stderr
    assert "Traceback" not in done.stderr


def test_front_matter_of_a_document(tmp_path: Path) -> None:
    src = _collection(tmp_path / "docs")
    convert(src, tmp_path / "out", ConvertOptions(serial=True))
    front = yaml.safe_load(
        (tmp_path / "out" / "sub" / "harbour.md").read_text(encoding="utf-8").split("---\n")[1]
    )
    assert front["title"] == "Harbour inspection" and front["format"] == "docx"
    assert front["source"] == "sub/harbour.docx" and front["verification"] == "measured"
    assert front["converter"].startswith("mdcx-convert ")


def test_serial_timeout_abandons_the_document(tmp_path: Path) -> None:
    src = tmp_path / "docs"
    src.mkdir()
    (src / "scan.pdf").write_bytes(
        (corpus_path("docling-testdata") / "ocr/sources/ocr_test.pdf").read_bytes()
    )
    (src / "quick.txt").write_text("quick words\n", encoding="utf-8")
    report = convert(src, tmp_path / "out", ConvertOptions(serial=True, timeout=0.3))
    by = {d.source: d for d in report.documents}
    assert by["scan.pdf"].status == "failed" and "abandoned" in by["scan.pdf"].reason
    assert by["quick.txt"].status == "converted"


@pytest.mark.parametrize(
    ("options", "gpu_usable", "units", "expected"),
    [
        ({}, False, 10, (2, 0)),
        ({"max_cores": 1}, False, 10, (1, 0)),
        ({}, False, 1, (1, 0)),
        ({}, True, 10, (1, 1)),
        ({"gpu": False}, True, 10, (2, 0)),
        ({"gpu_workers": 2, "cpu_workers": 1}, True, 10, (1, 2)),
        ({"gpu_workers": 3}, False, 10, (2, 0)),
        ({"cpu_workers": 0, "gpu_workers": 1}, True, 10, (0, 1)),
    ],
)
def test_worker_counts(options: dict, gpu_usable: bool, units: int, expected: tuple[int, int]) -> None:
    from mdcx.convert._workers import worker_counts

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(os, "cpu_count", lambda: 2)
        assert worker_counts(ConvertOptions(**options), gpu_usable, units) == expected


def test_lost_words_are_listed_and_what_is_appended_is_reported_apart(tmp_path: Path) -> None:
    # The HTML engine leaves out an <object>'s fallback content (what a browser shows only
    # when the object cannot load); the lxml reference reads it, so those words are lost.
    src = tmp_path / "in"
    src.mkdir()
    (src / "page.html").write_text(
        "<html><head><title>Fallback</title></head><body>"
        "<p>Some ordinary text in a paragraph here.</p>"
        "<object data='chart.svg'>harbour tonnage figures</object></body></html>",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    report = convert(src, out, ConvertOptions(serial=True))
    doc = report.documents[0]
    # coverage is measured before the recovered text is appended: never a self-graded 1.0
    assert doc.coverage == pytest.approx(0.7) and doc.below_threshold
    assert {w for w, _ in doc.lost} == {"harbour", "tonnage", "figures"}
    text = (out / "page.md").read_text(encoding="utf-8")
    front = yaml.safe_load(text.split("---\n", 2)[1])
    assert front["coverage"] == pytest.approx(0.7) and front["appended_share"] == pytest.approx(0.3)
    assert "## Recovered text\n\nharbour tonnage figures" in text
    summary = (out / "_mdcx" / "summary.md").read_text(encoding="utf-8")
    assert "## Below 99.5% coverage" in summary
    assert "`page.html`: 70.00% — lost: harbour ×1, tonnage ×1, figures ×1" in summary
