"""docling's stage: said once when absent, found where models were downloaded beforehand."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from mdcx.convert import ConversionError
from mdcx.convert._layout import check_formulas, status


def test_absent_models_switch_the_stage_off_with_the_way_to_add_them(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv("DOCLING_ARTIFACTS_PATH", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    found = status(True, None)
    assert not found.available
    assert "not found" in found.reason and "--docling-models" in found.reason
    assert status(False, None).reason.startswith("switched off")
    with pytest.raises(ConversionError, match="no such folder"):
        status(True, str(tmp_path / "missing"))


@pytest.mark.skipif(importlib.util.find_spec("docling") is not None, reason="docling is installed here")
def test_models_on_disk_without_docling_name_the_extra(monkeypatch, tmp_path: Path) -> None:
    models = tmp_path / "models"
    (models / "docling-project--docling-layout-heron").mkdir(parents=True)
    monkeypatch.setenv("DOCLING_ARTIFACTS_PATH", str(models))
    found = status(True, None)
    assert not found.available and found.models == models
    assert "pip install 'mdcx-convert[layout]'" in found.reason
    with pytest.raises(ConversionError, match="formula model"):
        check_formulas(found)
    with pytest.raises(ConversionError, match="--no-docling"):
        check_formulas(status(False, None))


class _StandInLayout:
    """Where docling's models would answer: records the pages it is asked for.

    docling's layout models cannot be fetched here, so this checks the
    escalation itself: which pages reach the layout stage, what is kept from
    it, and what happens when it fails.
    """

    def __init__(self, fail: bool = False) -> None:
        self.asked: list[tuple[int, int]] = []
        self.fail = fail

    def pages(self, path: Path, first: int, last: int):
        from mdcx.convert._reading import Reading

        self.asked.append((first, last))
        if self.fail:
            raise RuntimeError("model folder incomplete")
        reading = Reading()
        reading.add("paragraph", "text as the layout stage read it", page=first)
        return reading


def test_only_a_flagged_text_layer_escalates_to_the_layout_stage() -> None:
    from conftest import corpus_path
    from mdcx.convert._pdf import read_pdf

    pdfs = corpus_path("docling-testdata") / "pdf/sources"
    engine = _StandInLayout()
    clean = read_pdf(pdfs / "right_to_left_01.pdf", [1], layout=lambda: engine)
    assert engine.asked == [] and "docling" not in clean.engines
    garbled = read_pdf(pdfs / "right_to_left_02.pdf", [1], layout=lambda: engine)
    assert engine.asked == [(1, 1)] and "docling" in garbled.engines
    assert any(b.text == "text as the layout stage read it" for b in garbled.blocks)


def test_a_failing_layout_stage_keeps_the_native_text_and_says_why() -> None:
    from conftest import corpus_path
    from mdcx.convert._pdf import read_pdf

    pdf = corpus_path("docling-testdata") / "pdf/sources/right_to_left_02.pdf"
    reading = read_pdf(pdf, [1], layout=lambda: _StandInLayout(fail=True))
    assert "docling" not in reading.engines
    assert any(
        "layout stage failed (RuntimeError: model folder incomplete); native text kept" in f
        for f in reading.findings
    )
    assert any(b.kind != "page" and b.text for b in reading.blocks)
