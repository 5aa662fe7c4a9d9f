"""Hostile input: each bad file is recorded with a clear reason and the run goes on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import corpus_path
from helpers.convert import docx, text_pdf
from mdcx.convert import ConvertOptions, convert


def _deep_page_tree_pdf(depth: int) -> bytes:
    """A PDF whose page tree nests ``depth`` levels before its only page."""
    objects = ["<< /Type /Catalog /Pages 2 0 R >>"]
    for level in range(depth):
        objects.append(f"<< /Type /Pages /Kids [{level + 3} 0 R] /Count 1 >>")
    objects.append("<< /Type /Page /MediaBox [0 0 200 200] >>")
    body = b"%PDF-1.7\n"
    for n, obj in enumerate(objects, 1):
        body += f"{n} 0 obj\n{obj}\nendobj\n".encode()
    return body + b"trailer\n<< /Root 1 0 R >>\n%%EOF\n"


def _deep_dictionary_pdf(depth: int) -> bytes:
    nested = "<< /A " * depth + ">> " * depth
    return (
        b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"
        b"2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n"
        b"3 0 obj\n<< /Type /Page /MediaBox [0 0 200 200] /Deep " + nested.encode() + b">>\nendobj\n"
        b"trailer\n<< /Root 1 0 R >>\n%%EOF\n"
    )


def _deep_docx(path: Path, depth: int) -> Path:
    docx(path)
    with zipfile.ZipFile(path) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    w = "w:"
    cell = f"<{w}p><{w}r><{w}t>innermost</{w}t></{w}r></{w}p>"
    for _ in range(depth):
        cell = f"<{w}tbl><{w}tr><{w}tc>{cell}<{w}p/></{w}tc></{w}tr></{w}tbl>"
    xml = parts["word/document.xml"].decode()
    xml = xml.replace("</w:body>", cell + "</w:body>")
    parts["word/document.xml"] = xml.encode()
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    return path


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    src = tmp_path / "docs"
    src.mkdir()
    good = text_pdf(src / "good.pdf", 2)
    data = good.read_bytes()
    (src / "truncated.pdf").write_bytes(data[: len(data) // 3])
    (src / "zero.pdf").write_bytes(b"")
    (src / "corrupt.pdf").write_bytes(b"%PDF-1.7\n" + os.urandom(4096))
    (src / "deep-tree.pdf").write_bytes(_deep_page_tree_pdf(5000))
    (src / "deep-dict.pdf").write_bytes(_deep_dictionary_pdf(50000))
    (src / "deep-page.html").write_text(
        "<html><body>" + "<div>" * 200_000 + "deep words" + "</div>" * 200_000, "utf-8"
    )
    (src / "deep-list.html").write_text("<ul><li>" * 50_000 + "nested item", "utf-8")
    _deep_docx(src / "deep-tables.docx", 600)  # 1,800 elements deep: past Python's recursion limit
    _deep_docx(src / "deeper-tables.docx", 3000)  # 9,000 deep: past what libxml2 parses at all
    (src / "broken.docx").write_bytes(b"PK\x03\x04" + os.urandom(2000))
    (src / "half.xlsx").write_bytes(
        (corpus_path("docling-testdata") / "xlsx/sources/xlsx_01.xlsx").read_bytes()[:5000]
    )
    (src / "encrypted.pdf").write_bytes(
        (corpus_path("unstructured-example-docs") / "pdf/password.pdf").read_bytes()
    )
    (src / "after.txt").write_text("The run went on after the hostile files.\n", encoding="utf-8")
    return src


def test_hostile_files_are_recorded_and_the_run_goes_on(hostile: Path, tmp_path: Path) -> None:
    report = convert(hostile, tmp_path / "out", ConvertOptions())  # worker processes, default
    by = {d.source: d for d in report.documents}
    assert by["good.pdf"].status == "converted" and by["after.txt"].status == "converted"
    assert by["zero.pdf"].status == "skipped" and "empty" in by["zero.pdf"].reason
    assert by["encrypted.pdf"].status == "failed" and "password" in by["encrypted.pdf"].reason
    for name in ("truncated.pdf", "corrupt.pdf"):
        assert by[name].status in ("failed", "converted"), name
        if by[name].status == "failed":
            assert "PDF" in by[name].reason
    assert by["broken.docx"].status == "skipped" and "ZIP" in by["broken.docx"].reason
    assert by["half.xlsx"].status in ("skipped", "failed") and by["half.xlsx"].reason
    for name in ("deep-tree.pdf", "deep-dict.pdf"):
        assert by[name].status in ("converted", "failed", "skipped"), name
        assert by[name].status == "converted" or by[name].reason
    assert by["deep-page.html"].status == "converted"
    assert "deep words" in (tmp_path / "out" / "deep-page.md").read_text(encoding="utf-8")
    assert by["deep-list.html"].status == "converted"
    assert by["deeper-tables.docx"].status == "failed" and "depth" in by["deeper-tables.docx"].reason
    assert by["deep-tables.docx"].status == "converted"
    assert "innermost" in (tmp_path / "out" / "deep-tables.md").read_text(encoding="utf-8")
    assert "The run went on" in (tmp_path / "out" / "after.md").read_text(encoding="utf-8")
    index = json.loads((tmp_path / "out" / "_mdcx" / "run.json").read_text(encoding="utf-8"))
    assert {d["source"] for d in index["documents"]} == {p.name for p in hostile.iterdir()}
    for doc in index["documents"]:
        assert doc["status"] == "converted" or doc["reason"], doc


NAMES = [
    "تقرير.txt",
    "报告.txt",
    "रिपोर्ट.txt",
    "отчёт.txt",
    "דו״ח.txt",
    "レポート.txt",
    "😀 notes.txt",
    "Ελληνικά.txt",
]


def test_names_in_every_script_and_unprintable(tmp_path: Path) -> None:
    src = tmp_path / "docs"
    src.mkdir()
    for name in NAMES:
        (src / name).write_text(f"Contents of {name}\n", encoding="utf-8")
    undecodable = os.fsencode(src) + b"/caf\xe9-latin1.txt"
    with open(undecodable, "wb") as fh:
        fh.write(b"Cafe notes in a file whose name is not UTF-8.\n")
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONIOENCODING="ascii")  # a console that can print none of them
    done = subprocess.run(
        [sys.executable, "-m", "mdcx.convert", "--input", str(src), "--output", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert f"converted {len(NAMES) + 1}" in done.stdout
    for name in NAMES:
        md = out / (Path(name).stem + ".md")
        assert md.is_file() and f"Contents of {name}" in md.read_text(encoding="utf-8")
    assert os.path.exists(os.fsencode(out) + b"/caf\xe9-latin1.md")
    index = json.loads((out / "_mdcx" / "run.json").read_text(encoding="utf-8"))
    assert "caf\\xe9-latin1.txt" in {d["source"] for d in index["documents"]}


def test_zip_bomb_is_refused_before_any_engine(tmp_path: Path) -> None:
    from mdcx.convert import detect

    bomb = tmp_path / "bomb.docx"
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("word/document.xml", b"\0" * (200 * 1024 * 1024))
    found = detect(bomb)
    assert found.format is None and "zip bomb" in found.reason


def _convert_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mdcx.convert", *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )


def test_empty_folders_and_impossible_shares_are_refused(tmp_path: Path) -> None:
    src = tmp_path / "docs"
    src.mkdir()
    (src / "a.md").write_text("# A\n\nhello\n", encoding="utf-8")
    work = tmp_path / "work"  # the current folder, which an empty path would have meant
    work.mkdir()
    for args, needle in (
        (("--input", str(src), "--output", ""), "--output is empty"),
        (("--input", "", "--output", str(tmp_path / "out")), "--input is empty"),
        (("--input", str(src), "--output", str(tmp_path / "o"), "--threshold", "nan"), "--threshold"),
        (("--input", str(src), "--output", str(tmp_path / "o"), "--threshold", "5"), "from 0 to 1"),
    ):
        done = _convert_cli(*args, "--serial", "--no-gpu", "--no-docling", cwd=work)
        assert done.returncode != 0, done.stdout
        assert "Traceback" not in done.stderr and needle in done.stderr.strip().splitlines()[-1], done.stderr
    assert list(work.iterdir()) == [] and not (tmp_path / "out").exists() and not (tmp_path / "o").exists()


def test_a_ray_address_nothing_answers_at_fails_at_once(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="the ray extra is not installed")
    import socket
    import time

    src = tmp_path / "docs"
    src.mkdir()
    (src / "a.md").write_text("# A\n\nhello\n", encoding="utf-8")
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    started = time.monotonic()
    done = _convert_cli(
        "--input", str(src), "--output", str(tmp_path / "out"), "--ray", f"127.0.0.1:{port}", cwd=tmp_path
    )
    assert done.returncode != 0 and time.monotonic() - started < 60  # Ray alone retries for minutes
    last = done.stderr.strip().splitlines()[-1]
    assert "Traceback" not in done.stderr and f"cannot reach the Ray cluster at 127.0.0.1:{port}" in last
