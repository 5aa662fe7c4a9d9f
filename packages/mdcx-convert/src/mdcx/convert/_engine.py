"""One unit through its engines, verified, rendered: what a worker does.

``Engines`` holds what is expensive to load (the OCR model, docling) and is
created once per worker; ``convert_unit`` never raises: a failure comes back
as a result with its one-line reason, so the run goes on.
"""

from __future__ import annotations

import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._errors import DocumentError, MissingDependency
from ._markdown import body, front_matter
from ._options import ConvertOptions
from ._plan import Unit
from ._reading import Reading
from ._verify import REFERENCES, coverage, markdown_words, recover, words


def _generator() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"mdcx-convert {version('mdcx-convert')}"
    except PackageNotFoundError:
        return "mdcx-convert"


GENERATOR = _generator()


class Engines:
    """Engines loaded on first use and kept for the life of a worker."""

    def __init__(self, options: ConvertOptions, use_gpu: bool = False) -> None:
        self.options = options
        self.use_gpu = use_gpu
        self._ocr = None
        self._layout = None
        self._tables = None
        self.startup_seconds = 0.0

    def ocr(self):
        if self._ocr is None:
            from ._ocr import Ocr

            self._ocr = Ocr(use_gpu=self.use_gpu)
            self.startup_seconds += self._ocr.startup_seconds
        return self._ocr

    def layout(self):
        """docling's layout engine when its models are on disk, else None (decided once)."""
        if self._layout is None:
            from ._layout import LayoutEngine, status

            found = status(self.options.docling, self.options.docling_models)
            self._layout = LayoutEngine(found, self.options.formulas) if found.available else False
        return self._layout or None

    def tables(self):
        """The table-structure model for tables drawn without rules, else None (decided once)."""
        if self._tables is None:
            from ._aligned_tables import TableModel, status

            found = status(self.options.aligned_tables, self.options.table_model, check=False)
            self._tables = TableModel(found.model) if found.available and found.model else False
        return self._tables or None

    def warm(self) -> float:
        """Load every engine now; returns the seconds it took."""
        start = time.perf_counter()
        if self.options.ocr:
            self.ocr()
        import pypdfium2  # noqa: F401

        return time.perf_counter() - start


@dataclass(frozen=True)
class UnitResult:
    unit: Unit
    status: str  # "converted" or "failed"
    reason: str | None = None
    markdown: str = ""
    lossless: dict[str, Any] | None = None
    verification: str = "measured"  # "measured", "partial" (some pages unverifiable), "unverifiable"
    coverage: float | None = None
    reference_words: int = 0
    found_words: int = 0
    appended_words: int = 0
    lost: tuple[tuple[str, int], ...] = ()
    findings: tuple[str, ...] = ()
    engines: tuple[str, ...] = ()
    pages: int = 0
    ocr_pages: int = 0
    ocr_seconds: float = 0.0
    seconds: float = 0.0
    title: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _read(unit: Unit, engines: Engines) -> Reading:
    path = Path(unit.path)
    fmt = unit.format
    if fmt == "pdf":
        from ._pdf import read_pdf

        pages = unit.pages or ()
        return read_pdf(
            path,
            pages,
            ocr=engines.ocr if engines.options.ocr else None,
            dpi=engines.options.dpi,
            layout=engines.layout if engines.options.docling else None,
            aligned=engines.tables if engines.options.aligned_tables else None,
        )
    if fmt == "docx":
        from ._docx import read_docx

        return read_docx(path)
    if fmt == "pptx":
        from ._pptx import read_pptx

        return read_pptx(path)
    if fmt == "xlsx":
        from ._xlsx import read_xlsx

        return read_xlsx(path)
    if fmt == "epub":
        from ._epub import read_epub

        return read_epub(path)
    if fmt == "html":
        from ._detect import decode_text
        from ._html import html_into, reference_text

        data = path.read_bytes()
        text, enc = decode_text(data, unit.encoding)
        reading = Reading(notes={"encoding": enc})
        reading.use("html.parser")
        reading.title = html_into(reading, text)
        reading.reference = reference_text(text)
        return reading
    from ._text import read_csv, read_md, read_txt

    reader = {"md": read_md, "csv": read_csv, "txt": read_txt}.get(fmt)
    if reader is None:
        raise DocumentError(f"no engine for format {fmt}")
    return reader(path, unit.encoding)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "nested deeper than the interpreter's recursion limit; not converted"
    if isinstance(exc, MemoryError):
        return "ran out of memory while converting"
    if isinstance(exc, DocumentError | MissingDependency):
        return str(exc)
    if isinstance(exc, OSError):
        return f"cannot be read ({exc.strerror or exc})"
    text = " ".join(str(exc).split())[:300]
    return f"engine error ({type(exc).__name__}: {text})" if text else f"engine error ({type(exc).__name__})"


def convert_unit(unit: Unit, engines: Engines) -> UnitResult:
    """Convert, verify and render one unit; failures come back as results, never raised."""
    start = time.perf_counter()
    try:
        reading = _read(unit, engines)
        return _render(unit, reading, engines.options, time.perf_counter() - start)
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt | SystemExit):
            raise
        result = UnitResult(unit, "failed", _reason(exc), seconds=time.perf_counter() - start)
        if engines.options and _debug():
            result.extra["traceback"] = traceback.format_exc()
        return result


def _debug() -> bool:
    import os

    return bool(os.environ.get("MDCX_DEBUG"))


def _title(unit: Unit, reading: Reading) -> str:
    title = unit.title or reading.title
    if not title:
        heading = next((b.text for b in reading.blocks if b.kind == "heading" and b.text.strip()), None)
        title = heading or Path(unit.source).stem
    title = " ".join(str(title).split())
    if unit.chapter is not None:
        first, last = (unit.pages or (0,))[0], (unit.pages or (0,))[-1]
        part = unit.chapter_title or f"pages {first}-{last}"
        title = f"{title} — {part}"
    return title


def _render(unit: Unit, reading: Reading, options: ConvertOptions, seconds: float) -> UnitResult:
    text = body(reading, compact=options.compact)
    produced = Counter(markdown_words(text))
    reference = reading.reference
    if reference is not None and unit.format == "md":
        ref_words = markdown_words(reference)
    else:
        ref_words = words(reference) if reference is not None else []
    cov = coverage(ref_words, produced)
    appended = 0
    if reference and cov.lost:
        recovered, appended = recover(reference, produced)
        if recovered:
            from ._markdown import _escape

            text += "\n## Recovered text\n\n" + _escape(recovered) + "\n"
    total_pages = unit.total_pages
    pages = unit.pages
    unverifiable = sorted(reading.unverifiable_pages)
    if cov.reference_words == 0:
        verification = "unverifiable"
    elif unverifiable:
        verification = "partial"
    else:
        verification = "measured"
    share = None if cov.share is None else round(cov.share, 6)
    record = dict(unit.catalogue or ())
    fields: dict[str, Any] = {
        "title": _title(unit, reading),
        "date": unit.date or reading.date,
        # A catalogue's date outranks the file's own: mdcx pack records it as provenance "source".
        "date_from": "source" if record.get("date") else None,
        "source": unit.source,
        "source_digest": unit.digest,
        "format": unit.format,
        "engines": list(reading.engines),
        "coverage": share,
        "verification": verification,
        "reference": REFERENCES.get(unit.format),
    }
    if appended:
        fields["appended_share"] = round(appended / max(cov.reference_words, 1), 6)
    if pages:
        fields["pages"] = len(pages)
        fields["first_page"] = pages[0]
        fields["last_page"] = pages[-1]
        fields["total_pages"] = total_pages
    elif reading.pages:
        fields["pages"] = reading.pages
    if unit.chapter is not None:
        fields["chapter"] = unit.chapter
        fields["chapters"] = unit.chapters
    if unit.sampled:
        fields["sampled_pages"] = list(pages or ())
    if unverifiable:
        fields["unverifiable_pages"] = unverifiable
    if reading.findings:
        fields["findings"] = list(reading.findings)
    for key in ("ocr_pages", "pages_from", "encoding", "sheets", "language"):
        if key in reading.notes:
            fields[key] = reading.notes[key]
    if record:
        fields["catalogue"] = {k: v for k, v in record.items() if v is not None}
    fields["converter"] = GENERATOR
    markdown = front_matter(fields) + text
    lossless = None
    if options.lossless:
        lossless = {
            "source": unit.source,
            "source_digest": unit.digest,
            "format": unit.format,
            **reading.lossless(),
        }
    return UnitResult(
        unit,
        "converted",
        markdown=markdown,
        lossless=lossless,
        verification=verification,
        coverage=share,
        reference_words=cov.reference_words,
        found_words=cov.found_words,
        appended_words=appended,
        lost=cov.lost,
        findings=tuple(reading.findings),
        engines=tuple(reading.engines),
        pages=len(pages) if pages else (reading.pages or 0),
        ocr_pages=len(reading.notes.get("ocr_pages", ())),
        ocr_seconds=float(reading.notes.get("ocr_seconds", 0.0)),
        seconds=seconds,
        title=fields["title"],
    )
