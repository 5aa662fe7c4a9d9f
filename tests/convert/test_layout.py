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
