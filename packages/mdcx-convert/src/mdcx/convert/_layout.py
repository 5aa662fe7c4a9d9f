"""docling's layout analysis (and formula transcription), when its models are here.

docling fetches its layout, table and formula models from a model hub on first
use.  Offline, they must already be on disk: point ``--docling-models`` (or
``DOCLING_ARTIFACTS_PATH``) at a folder made with ``docling-tools models
download`` on a connected machine.  Without them the layout stage is
reported once at start and the other engines carry on.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ._errors import ConversionError
from ._reading import Reading

# Folder names (as `docling-tools models download` writes them) that hold the weights.
LAYOUT_MODELS = ("docling-layout", "docling-models")
FORMULA_MODEL = "CodeFormula"
TABLE_MODEL = "docling-models"  # TableFormer lives here


@dataclass(frozen=True)
class LayoutStatus:
    available: bool
    models: Path | None
    reason: str  # why the stage is off, or which models it uses
    formulas: bool = False  # the formula model is there too
    tables: bool = False  # the table-structure model is there too


def _candidates(explicit: str | None) -> list[Path]:
    out = []
    if explicit:
        out.append(Path(explicit))
    if os.environ.get("DOCLING_ARTIFACTS_PATH"):
        out.append(Path(os.environ["DOCLING_ARTIFACTS_PATH"]))
    out.append(Path.home() / ".cache" / "docling" / "models")
    return out


def _has(folder: Path, *names: str) -> bool:
    try:
        return any(name in p.name for p in folder.iterdir() if p.is_dir() for name in names)
    except OSError:
        return False


def status(enabled: bool, explicit: str | None) -> LayoutStatus:
    """Whether docling's layout stage can run, decided once at start."""
    if not enabled:
        return LayoutStatus(False, None, "switched off (--no-docling)")
    if explicit and not Path(explicit).is_dir():
        raise ConversionError(f"--docling-models {explicit}: no such folder")
    for folder in _candidates(explicit):
        if folder.is_dir() and _has(folder, *LAYOUT_MODELS):
            try:
                import docling  # noqa: F401
            except ImportError:
                return LayoutStatus(
                    False,
                    folder,
                    f"docling models found in {folder} but docling is not installed "
                    "(pip install 'mdcx-convert[layout]')",
                )
            return LayoutStatus(
                True,
                folder,
                f"docling layout models in {folder}",
                formulas=_has(folder, FORMULA_MODEL),
                tables=_has(folder, TABLE_MODEL),
            )
    where = ", ".join(str(p) for p in _candidates(explicit))
    return LayoutStatus(
        False,
        None,
        f"docling layout models not found (looked in {where}); continuing with native extraction, "
        "ruled tables and OCR. Offline, download them elsewhere with `docling-tools models download` "
        "and pass --docling-models DIR",
    )


def check_formulas(layout: LayoutStatus) -> None:
    """``--formulas`` refuses at start when the formula model cannot run."""
    if layout.reason.startswith("switched off"):
        raise ConversionError(
            "--formulas needs docling's formula model and cannot be combined with --no-docling"
        )
    if not layout.available or not layout.formulas:
        raise ConversionError(
            "--formulas needs docling's formula model (CodeFormula), which is not installed: "
            + (layout.reason if not layout.available else f"no {FORMULA_MODEL} folder in {layout.models}")
        )


class LayoutEngine:
    """docling's standard PDF pipeline over pre-downloaded models, loaded once."""

    def __init__(self, layout: LayoutStatus, formulas: bool = False) -> None:
        from docling.datamodel.base_models import InputFormat
        from docling.datamodel.pipeline_options import PdfPipelineOptions
        from docling.document_converter import DocumentConverter, PdfFormatOption

        options = PdfPipelineOptions(
            artifacts_path=str(layout.models),
            do_ocr=False,
            do_table_structure=layout.tables,
            do_formula_enrichment=formulas,
        )
        self.converter = DocumentConverter(
            format_options={InputFormat.PDF: PdfFormatOption(pipeline_options=options)}
        )

    def pages(self, path: Path, first: int, last: int) -> Reading:
        """A reading of pages ``first``..``last`` made by docling (Markdown per page)."""
        result = self.converter.convert(str(path), page_range=(first, last), raises_on_error=True)
        doc = result.document
        reading = Reading()
        reading.use("docling")
        for number in range(first, last + 1):
            reading.add("page", page=number)
            reading.add("markdown", doc.export_to_markdown(page_no=number), page=number, engine="docling")
        return reading
