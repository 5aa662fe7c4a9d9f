"""XLSX with openpyxl: each worksheet a heading and a table of its used cells."""

from __future__ import annotations

import datetime as dt
import re
import warnings
import zipfile
from pathlib import Path

from ._errors import DocumentError
from ._ooxml import chart_table, comments, xlsx_reference
from ._reading import Reading

MAX_CELLS = 2_000_000  # per workbook; past this the rest is reported, not read
FULL_LOAD_BYTES = 5 * 1024 * 1024  # workbooks under this size and ...
FULL_LOAD_CELLS = 500_000  # ... this many declared cells are loaded whole (merged cells known)


def number(value: float) -> str:
    """A number as a person reads it in a cell: integral values without ``.0``."""
    if value != value or value in (float("inf"), float("-inf")):
        return str(value)
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def cell_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int | float):
        return number(float(value))
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    return str(value)


def read_xlsx(path: Path) -> Reading:
    import openpyxl

    try:
        with warnings.catch_warnings():  # openpyxl warns about pictures it drops; pictures hold no text
            warnings.simplefilter("ignore", UserWarning)
            wb = _load(openpyxl, path)
    except (KeyError, ValueError, OSError, zipfile.BadZipFile, TypeError) as exc:
        raise DocumentError(f"not a readable XLSX ({type(exc).__name__}: {exc})") from exc
    return _read_workbook(wb, path)


def _load(openpyxl, path: Path):
    wb = openpyxl.load_workbook(str(path), read_only=True, data_only=True)
    # Merged cells are known only to a fully loaded workbook: small ones are loaded whole.
    declared = sum((ws.max_row or 0) * (ws.max_column or 0) for ws in wb.worksheets)
    if path.stat().st_size < FULL_LOAD_BYTES and declared < FULL_LOAD_CELLS:
        wb.close()
        wb = openpyxl.load_workbook(str(path), read_only=False, data_only=True)
    return wb


def _read_workbook(wb, path: Path) -> Reading:
    reading = Reading()
    reading.use("openpyxl")
    props = wb.properties
    reading.title = props.title or None
    if props.created:
        reading.date = props.created.date().isoformat()
    cells = 0
    sheets = 0
    try:
        for ws in wb.worksheets:
            sheets += 1
            rows: list[list[str]] = []
            merged: dict[tuple[int, int], object] = {}
            for rng in getattr(ws, "merged_cells", None).ranges if getattr(ws, "merged_cells", None) else []:
                value = ws.cell(rng.min_row, rng.min_col).value
                for r in range(rng.min_row, min(rng.max_row, rng.min_row + 1000) + 1):
                    for col in range(rng.min_col, min(rng.max_col, rng.min_col + 100) + 1):
                        merged[(r, col)] = value
            first_row = getattr(ws, "min_row", 1) or 1
            for row_no, row in enumerate(ws.iter_rows(values_only=True), first_row):
                if merged:  # a merged cell repeats its text in every cell it covers
                    row = tuple(merged.get((row_no, c), v) for c, v in enumerate(row, 1))
                texts = [cell_text(v) for v in row]
                cells += sum(1 for t in texts if t)
                while texts and not texts[-1]:
                    texts.pop()
                if any(texts):
                    rows.append(texts)
                if cells > MAX_CELLS:
                    reading.findings.append(
                        f"workbook holds more than {MAX_CELLS} cells; the rest is not read"
                    )
                    break
            reading.add("heading", ws.title, level=2, engine="openpyxl")
            if rows:
                reading.add("table", rows=rows, engine="openpyxl")
            if cells > MAX_CELLS:
                break
    finally:
        wb.close()
    reading.notes["sheets"] = sheets
    with zipfile.ZipFile(path) as zf:
        notes = comments(zf)
        if notes:
            reading.add("heading", "Comments", level=2, engine="openpyxl")
            for line in notes:
                reading.add("paragraph", line, engine="openpyxl")
        charts = sorted(n for n in zf.namelist() if re.fullmatch(r"xl/charts/chart\d+\.xml", n))
        for name in charts:
            title, rows = chart_table(zf.read(name), number)
            reading.add("paragraph", title or "Chart", engine="openpyxl")
            if rows:
                reading.add("table", rows=rows, engine="openpyxl")
        reading.reference = xlsx_reference(zf, number)
    return reading
