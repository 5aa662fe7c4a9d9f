"""The ``mdcx`` command given hostile input: one line, a non-zero exit, nothing lost."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.command import run_mdcx
from helpers.format import write
from mdcx.format._passages import cut_passages

KEY = "hostile passphrase"


def mdcx(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return run_mdcx(*args, key=KEY, cwd=cwd)


def one_line_error(proc: subprocess.CompletedProcess, *needles: str) -> str:
    assert proc.returncode != 0, proc.stdout
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mdcx: error: "), proc.stderr
    assert "internal error" not in lines[0], lines[0]
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def packed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    write(root / "src", "pumps.md", "# Pumps\n\nPrime the centrifugal pump before use.\n")
    write(root / "src", "guide/valves.md", "# Valves\n\nClose the valve slowly.\n")
    target = root / "p.mdcx"
    assert mdcx("pack", "--quiet", "--output", str(root / "src"), "--target", str(target)).returncode == 0
    return target


def test_pack_never_replaces_a_file_that_is_not_a_package(tmp_path: Path) -> None:
    src = tmp_path / "src"
    write(src, "a.md", "# A\n\nThe only copy of this text.\n")
    source = src / "a.md"
    before = source.read_bytes()
    # The target is the one source file, or a source file of the folder packed: both kept.
    one_line_error(mdcx("pack", "--output", str(source), "--target", str(source)), "not an .mdcx package")
    one_line_error(mdcx("pack", "--output", str(src), "--target", str(source)), "not an .mdcx package")
    assert source.read_bytes() == before
    notes = tmp_path / "notes.txt"
    notes.write_text("keep me\n")
    one_line_error(mdcx("pack", "--output", str(src), "--target", str(notes)), "will not replace")
    assert notes.read_text() == "keep me\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "src"]  # no temporaries
    # An earlier package, or an empty file, is replaced as before.
    target = tmp_path / "t.mdcx"
    target.touch()
    for _ in range(2):
        assert mdcx("pack", "--quiet", "--output", str(src), "--target", str(target)).returncode == 0
    assert target.read_bytes().startswith(b"MDCX")


def test_empty_path_arguments_are_refused_not_taken_for_the_current_folder(
    packed: Path, tmp_path: Path
) -> None:
    write(tmp_path, "here.md", "a file in the current folder\n")
    one_line_error(mdcx("pack", "--output", "", "--target", "x.mdcx", cwd=tmp_path), "--output is empty")
    one_line_error(mdcx("export", str(packed), "--target", "", cwd=tmp_path), "--target is empty")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["here.md"]


def test_export_onto_a_file_or_a_folder_in_the_way(packed: Path, tmp_path: Path) -> None:
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    one_line_error(mdcx("export", str(packed), "--target", str(a_file)), "is a file")
    # A folder where a file goes: refused before anything is written, even with --overwrite.
    target = tmp_path / "out"
    (target / "pumps.md").mkdir(parents=True)
    one_line_error(mdcx("export", str(packed), "--target", str(target), "--overwrite"), "is a folder")
    assert sorted(p.name for p in target.iterdir()) == ["pumps.md"]
    # A file where a folder goes.
    other = tmp_path / "other"
    write(other, "guide", "not a folder")
    one_line_error(mdcx("export", str(packed), "--target", str(other), "--overwrite"), "needs a folder")
    assert sorted(p.name for p in other.iterdir()) == ["guide"]


def test_document_names_that_cannot_exist(packed: Path) -> None:
    line = one_line_error(mdcx("document", str(packed), "x" * 60_000), "no document named")
    assert len(line) < 300
    name = os.fsdecode(b"pu\xffmps.md")  # bytes of a non-UTF-8 console
    one_line_error(mdcx("document", str(packed), name), "no document named")
    assert mdcx("document", str(packed), "PUMPS.md").stdout.startswith("# Pumps")


def test_vocabulary_limits(packed: Path) -> None:
    one_line_error(mdcx("vocabulary", str(packed), "--limit", "-3"), "0 or more")
    proc = mdcx("vocabulary", str(packed), "--limit", str(10**30))
    assert proc.returncode == 0 and "centrifugal" in proc.stdout, proc.stderr


def test_a_focus_question_without_words_is_refused(packed: Path, tmp_path: Path) -> None:
    copy = tmp_path / "c.mdcx"
    copy.write_bytes(packed.read_bytes())
    one_line_error(mdcx("calibrate", str(copy), "--question", "?!"), "no words")
    assert copy.read_bytes() == packed.read_bytes()
    src = tmp_path / "src"
    write(src, "a.md", "text\n")
    target = tmp_path / "f.mdcx"
    one_line_error(mdcx("pack", "--output", str(src), "--target", str(target), "--focus", "..."), "no words")
    assert not target.exists()


def test_a_signing_key_file_that_is_not_text(packed: Path, tmp_path: Path) -> None:
    src = tmp_path / "src"
    write(src, "a.md", "text\n")
    proc = mdcx(
        "pack", "--output", str(src), "--target", str(tmp_path / "s.mdcx"), "--signing-key-file", str(packed)
    )
    one_line_error(proc, "not text")


def test_a_dates_file_that_is_a_folder(tmp_path: Path) -> None:
    src = tmp_path / "src"
    write(src, "a.md", "text\n")
    (tmp_path / "dates").mkdir()
    target = tmp_path / "d.mdcx"
    proc = mdcx("pack", "--output", str(src), "--target", str(target), "--dates", str(tmp_path / "dates"))
    one_line_error(proc, "is a folder")
    assert not target.exists()


def test_a_long_line_without_ends_is_cut_in_linear_time() -> None:
    def seconds(words: int) -> float:
        body = "word " * words
        start = time.perf_counter()
        pieces = cut_passages(body)
        elapsed = time.perf_counter() - start
        assert "".join(body[p.start : p.end] for p in pieces) == body
        return elapsed

    small, large = seconds(50_000), seconds(400_000)
    assert large < 20 * max(small, 0.01)  # eight times the text; quadratic was sixty times the time
    body = "x" * 300_000  # no space at all: cut by size
    pieces = cut_passages(body)
    assert "".join(body[p.start : p.end] for p in pieces) == body
    assert max(p.end - p.start for p in pieces) < 10_000


def test_info_tells_a_truncated_package_from_an_altered_one(packed: Path, tmp_path: Path) -> None:
    import json

    whole = packed.read_bytes()
    cases = {
        "intact": whole,
        "truncated": whole[: len(whole) * 2 // 3],
        "altered": whole[:-200] + bytes([whole[-200] ^ 1]) + whole[-199:],
    }
    cases["appended"] = whole + b"extra"
    for name, data in cases.items():
        copy = tmp_path / f"{name}.mdcx"
        copy.write_bytes(data)
        shown = json.loads(mdcx("info", str(copy), "--json").stdout)
        expected = "truncated" if name == "appended" else name
        assert shown["integrity"] == expected and shown["intact"] is (expected == "intact"), name
        assert expected.upper() in mdcx("info", str(copy)).stdout or expected == "intact"


@pytest.mark.skipif(sys.platform == "win32", reason="named pipes and /dev/zero are POSIX's")
def test_a_named_pipe_or_a_device_is_not_waited_on(packed: Path, tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.mdcx"
    os.mkfifo(pipe)  # nothing ever writes to it: opening it to read would wait for ever
    one_line_error(run_mdcx("info", str(pipe), timeout=60), "pipe.mdcx: not a regular file")
    one_line_error(run_mdcx("info", os.devnull, timeout=60), "not a regular file")
    # A key file that never ends is read only so far.
    endless = run_mdcx("search", str(packed), "pump", "--key-file", "/dev/zero", timeout=60)
    one_line_error(endless, "the key file /dev/zero is larger than 1024 KB")
