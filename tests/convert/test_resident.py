"""The resident converter writes exactly what the command writes."""

from __future__ import annotations

from pathlib import Path

from helpers.convert import docx, ruled_table_pdf, text_pdf
from mdcx.convert import Converter, ConvertOptions, convert


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "_mdcx" not in p.parts
    }


def test_resident_writes_what_the_cli_writes(tmp_path: Path) -> None:
    src = tmp_path / "docs"
    (src / "sub").mkdir(parents=True)
    ruled_table_pdf(src / "report.pdf")
    docx(src / "sub" / "harbour.docx")
    text_pdf(src / "long.pdf", 5)
    options = ConvertOptions(split_threshold=2)
    convert(src, tmp_path / "cli", options)
    with Converter(tmp_path / "resident", options, root=src) as conv:
        assert conv.startup_seconds > 0
        results = list(
            conv.convert_many([src / "report.pdf", src / "sub" / "harbour.docx", src / "long.pdf"])
        )
    assert [r.report.status for r in results] == ["converted"] * 3
    assert results[2].outputs[0] == "long.md" and len(results[2].outputs) == 4  # index + 3 chapters
    assert _tree(tmp_path / "resident") == _tree(tmp_path / "cli")
    lossless = tmp_path / "resident" / "_mdcx" / "lossless" / "sub" / "harbour.json"
    assert (
        lossless.read_bytes()
        == (tmp_path / "cli" / "_mdcx" / "lossless" / "sub" / "harbour.json").read_bytes()
    )
    assert conv.report is not None and conv.report.summary["converted"] == 3


def test_resident_one_file_without_split_and_resume(tmp_path: Path) -> None:
    src = tmp_path / "docs"
    src.mkdir()
    text_pdf(src / "long.pdf", 5)
    with Converter(tmp_path / "out", ConvertOptions(split_threshold=2)) as conv:
        whole = conv.convert(src / "long.pdf", split=False)
    assert whole.outputs == ("long.md",) and whole.report.chapters == 0
    with Converter(tmp_path / "out", ConvertOptions(split_threshold=2)) as conv:
        again = conv.convert(src / "long.pdf", split=False)
    assert again.report.status == "reused"
