"""PPTX with python-pptx: one page per slide, titles as headings, tables, notes."""

from __future__ import annotations

import zipfile
from pathlib import Path

from ._errors import DocumentError
from ._ooxml import chart_table, comments, pptx_reference
from ._reading import Reading
from ._xlsx import number as format_number


def _shapes(slide) -> list:
    """Every shape of a slide, groups opened, in reading order (top, then left)."""
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    out = []
    stack = [(s, 0) for s in slide.shapes]
    while stack:
        shape, depth = stack.pop()
        try:
            is_group = shape.shape_type == MSO_SHAPE_TYPE.GROUP
        except NotImplementedError:
            is_group = False
        if is_group and depth < 64:
            stack.extend((s, depth + 1) for s in shape.shapes)
        else:
            out.append(shape)

    def position(shape) -> tuple[int, int]:
        try:
            return (int(shape.top or 0), int(shape.left or 0))
        except (AttributeError, ValueError):
            return (0, 0)

    return sorted(out, key=position)


def _table(table) -> list[list[str]]:
    """Cells of a table; a merged cell repeats its text in every cell it covers."""
    rows = [[cell.text for cell in row.cells] for row in table.rows]
    for r, row in enumerate(table.rows):
        for c, cell in enumerate(row.cells):
            if cell.is_merge_origin:
                for dr in range(cell.span_height):
                    for dc in range(cell.span_width):
                        if r + dr < len(rows) and c + dc < len(rows[r + dr]):
                            rows[r + dr][c + dc] = cell.text
    return rows


def read_pptx(path: Path) -> Reading:
    import pptx
    from pptx.exc import PackageNotFoundError

    try:
        prs = pptx.Presentation(str(path))
    except (PackageNotFoundError, KeyError, ValueError, zipfile.BadZipFile) as exc:
        raise DocumentError(f"not a readable PPTX ({type(exc).__name__}: {exc})") from exc
    reading = Reading()
    reading.use("python-pptx")
    props = prs.core_properties
    reading.title = props.title or None
    if props.created:
        reading.date = props.created.date().isoformat()
    for number, slide in enumerate(prs.slides, 1):
        reading.add("page", page=number)
        title_shape = slide.shapes.title
        for shape in _shapes(slide):
            if getattr(shape, "has_chart", False) and shape.has_chart:
                title, rows = chart_table(shape.chart.part.blob, format_number)
                if title:
                    reading.add("paragraph", title, page=number, engine="python-pptx")
                if rows:
                    reading.add("table", rows=rows, page=number, engine="python-pptx")
            elif getattr(shape, "has_table", False) and shape.has_table:
                rows = _table(shape.table)
                reading.add("table", rows=rows, page=number, engine="python-pptx")
            elif getattr(shape, "has_text_frame", False) and shape.has_text_frame:
                is_title = title_shape is not None and shape.shape_id == title_shape.shape_id
                for para in shape.text_frame.paragraphs:
                    text = para.text.replace("\x0b", "\n").replace("\v", "\n")
                    if not text.strip():
                        continue
                    if is_title:
                        reading.add("heading", text, level=2, page=number, engine="python-pptx")
                    elif para.level:
                        reading.add("item", text, level=min(para.level, 8), page=number, engine="python-pptx")
                    else:
                        reading.add("paragraph", text, page=number, engine="python-pptx")
        if slide.has_notes_slide:
            notes = slide.notes_slide.notes_text_frame
            if notes is not None and notes.text.strip():
                reading.add("quote", "Notes: " + notes.text, page=number, engine="python-pptx")
    reading.pages = len(prs.slides)
    if reading.title is None:
        first = next((b for b in reading.blocks if b.kind == "heading"), None)
        reading.title = first.text.strip() if first else None
    with zipfile.ZipFile(path) as zf:
        reading.reference = "\n".join(pptx_reference(zf))
        notes = comments(zf)
    if notes:
        reading.add("heading", "Comments", level=2, engine="python-pptx")
        for line in notes:
            reading.add("paragraph", line, engine="python-pptx")
    return reading
