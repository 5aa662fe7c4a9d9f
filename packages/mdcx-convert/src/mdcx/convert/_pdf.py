"""PDF, page by page: native text (pypdfium2), ruled tables, then OCR where a
page exposes no text.

Escalation is per page, never per document: a scanned page in a born-digital
report is OCR'd, its neighbours are not.  Each page opens and closes its own
text page, and a unit reads only its page range, so memory stays bounded on
documents of any length.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ._errors import DocumentError
from ._reading import Reading
from ._rules import band_table, find_tables
from ._verify import text_layer_findings

MIN_TEXT = 20  # non-space characters under which a page with images is OCR'd
_ALEFS = "\u0622\u0623\u0625\u0627"
_LIGATURE = re.compile(f"[{_ALEFS}]\u0644")
_DATE = re.compile(r"D?:?(\d{4})(\d{2})?(\d{2})?")
_SENTENCE_END = (".", "!", "?", ":", "。", "！", "？", "؟")


@dataclass(frozen=True)
class PdfInfo:
    pages: int
    title: str | None = None
    date: str | None = None
    outline: tuple[tuple[str, int], ...] = field(default_factory=tuple)  # top-level (title, first page)


def open_document(path: Path):
    import pypdfium2 as pdfium

    try:
        return pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        message = str(exc)
        if "password" in message.lower():
            raise DocumentError("encrypted PDF: a password is needed to read it") from exc
        raise DocumentError(f"damaged or truncated PDF ({message})") from exc


def _date(raw: str | None) -> str | None:
    match = _DATE.match(raw or "")
    if not match or not 1900 < int(match.group(1)) < 2200:
        return None
    year, month, day = match.group(1), match.group(2), match.group(3)
    if month and day and 1 <= int(month) <= 12 and 1 <= int(day) <= 31:
        return f"{year}-{month}-{day}"
    return year


def describe(path: Path) -> PdfInfo:
    pdf = open_document(path)
    try:
        meta = pdf.get_metadata_dict(skip_empty=True)
        outline = []
        try:
            for item in pdf.get_toc(max_depth=1):
                if item.level == 0 and item.page_index is not None and item.title:
                    outline.append((" ".join(item.title.split()), item.page_index + 1))
        except Exception:  # a damaged outline is no reason to refuse the text
            outline = []
        title = " ".join((meta.get("Title") or "").split()) or None
        return PdfInfo(len(pdf), title, _date(meta.get("CreationDate")), tuple(outline))
    finally:
        pdf.close()


def _fix_ligatures(text: str, textpage) -> str:
    """Put lam-alef ligatures back in logical order.

    pdfium gives the two letters of one lam-alef glyph alef first; both share
    the glyph's box, which tells them from a real alef followed by lam.
    """
    chars = None
    for match in _LIGATURE.finditer(text):
        k = match.start()
        if chars is None:
            chars = list(text)
        try:
            if textpage.get_charbox(k) == textpage.get_charbox(k + 1):
                chars[k], chars[k + 1] = chars[k + 1], chars[k]
        except Exception:
            continue
    return "".join(chars) if chars is not None else text


def _image_share(page) -> float:
    import pypdfium2.raw as c

    width, height = page.get_size()
    area = max(width * height, 1.0)
    covered = 0.0
    for obj in page.get_objects(max_depth=2):
        if obj.type == c.FPDF_PAGEOBJ_IMAGE:
            left, bottom, right, top = obj.get_bounds()
            covered += max(0.0, right - left) * max(0.0, top - bottom)
    return min(covered / area, 1.0)


# A Latin letter or digit glued to an Arabic or Hebrew letter (pdfium drops the
# space where the direction changes): words of two scripts never touch.
_SCRIPT_JOIN = re.compile(r"(?<=[A-Za-z0-9])(?=[\u0590-\u08ff])|(?<=[\u0590-\u08ff])(?=[A-Za-z0-9])")


def tidy(text: str) -> str:
    return _SCRIPT_JOIN.sub(" ", text)


def paragraphs(lines: list[str]) -> list[str]:
    """Lines joined into paragraphs: a blank line, or a short line ending a sentence, closes one."""
    lines = [tidy(line) for line in lines]
    out: list[list[str]] = [[]]
    longest = max((len(line) for line in lines), default=0)
    for line in lines:
        stripped = line.strip()
        if not stripped:
            if out[-1]:
                out.append([])
            continue
        out[-1].append(stripped)
        if stripped.endswith(_SENTENCE_END) and len(stripped) < 0.75 * longest:
            out.append([])
    return ["\n".join(p) for p in out if p]


_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi", re.I)
HEADING_RATIO = 1.2  # a short line set this much larger than the page's body text (or in bold) is a heading


def _line_styles(raw: str, textpage) -> list[tuple[float, bool]]:
    """Type size and boldness of each line of ``raw``, read at its first and last visible
    characters: size is the height of the loose box (the font's ascent to descent, as
    drawn), bold a weight of 600 or more, or a bold font name, at both ends;
    (0, False) when unknown."""
    import ctypes

    import pypdfium2.raw as c

    rect = c.FS_RECTF()
    name = (ctypes.c_char * 128)()
    flags = ctypes.c_int()

    def bold(k: int) -> bool:
        if c.FPDFText_GetFontWeight(textpage.raw, k) >= 600:
            return True
        c.FPDFText_GetFontInfo(textpage.raw, k, name, len(name), ctypes.byref(flags))
        return bool(_BOLD_NAME.search(name.value.decode("latin-1", "replace")))

    styles = []
    start = 0
    for line in raw.split("\n"):
        visible = [start + i for i, ch in enumerate(line) if not ch.isspace()]
        if visible and c.FPDFText_GetLooseCharBox(textpage.raw, visible[0], rect):
            styles.append((abs(rect.top - rect.bottom), bold(visible[0]) and bold(visible[-1])))
        else:
            styles.append((0.0, False))
        start += len(line) + 1
    return styles


def _text_blocks(reading: Reading, number: int, raw: str, textpage) -> None:
    """Paragraphs of a page without tables; short lines in larger type become headings."""
    styles = _line_styles(raw, textpage)
    lines = raw.replace("\r", "").split("\n")
    known = sorted(size for (size, _), line in zip(styles, lines) if size > 0 and line.strip())
    body = known[len(known) // 2] if known else 0.0
    mostly_bold = sum(bold for _, bold in styles) * 2 > len(styles)
    pending: list[str] = []
    heading: list[str] = []
    heading_size = 0.0

    def flush_text() -> None:
        for para in paragraphs(pending):
            reading.add("paragraph", para, page=number, engine="pypdfium2")
        pending.clear()

    def flush_heading() -> None:
        if heading:
            big = heading_size / body if body else 1.0
            level = 1 if big >= 1.8 else 2 if big >= 1.4 else 3
            reading.add("heading", tidy(" ".join(heading)), level=level, page=number, engine="pypdfium2")
            heading.clear()

    for line, (size, bold) in zip(lines, styles):
        stripped = line.strip()
        is_heading = (
            body > 0
            and (size >= HEADING_RATIO * body or (bold and not mostly_bold and size >= body))
            and 0 < len(stripped.split()) <= 15
            and not stripped.endswith((".", ",", ";"))
            and sum(ch.isalpha() for ch in stripped) >= 2
        )
        if is_heading:
            if heading and abs(size - heading_size) > 0.5:
                flush_heading()
            if not heading:
                flush_text()
            heading.append(stripped)
            heading_size = size
        else:
            flush_heading()
            pending.append(line)
    flush_heading()
    flush_text()


def _cell_text(chars: list[str]) -> str:
    text = "".join(chars).replace("\r", "")
    text = re.sub(r"(?<=[^\W\d_])-\n(?=[^\W\d_])", "", text)  # a word hyphenated across lines
    return tidy(" ".join(text.split()))


def _char_boxes(text: str, textpage) -> list[tuple[float, float, float, float] | None]:
    """Each character's box (left, bottom, right, top); None for separators and empty boxes."""
    import ctypes

    import pypdfium2.raw as c

    left, right, bottom, top = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    refs = [ctypes.byref(v) for v in (left, right, bottom, top)]
    out: list[tuple[float, float, float, float] | None] = []
    for i, ch in enumerate(text):
        if ch.isspace() or not c.FPDFText_GetCharBox(textpage.raw, i, *refs):
            out.append(None)
        elif right.value > left.value or top.value > bottom.value:
            out.append((left.value, bottom.value, right.value, top.value))
        else:
            out.append(None)
    return out


def _assign(text: str, boxes: list, found: list) -> tuple[list, list, list, set[int]]:
    """Characters to table regions or to the running text, in reading order.

    Returns the running text, the reading order, each table's cell characters,
    and the tables to drop: those that cut through words (a character and the
    next one in different cells, with no space between) or hold paragraphs in their cells are drawn
    frames, not tables.
    """
    cells: list[dict[int, list[str]]] = [{} for _ in found]
    outside: list[str] = []
    order: list[tuple[str, int]] = []  # ("text", start) or ("table", k) in reading order
    where: tuple[int, int] | None = None
    previous: tuple[str, tuple[int, int] | None] = ("", None)
    cuts = [0] * len(found)
    for ch, box in zip(text, boxes):
        if box is not None:  # separators stay where the text around them is
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            where = None
            for k, table in enumerate(found):
                region = table.locate(cx, cy)
                if region is not None:
                    where = (k, region)
                    break
        if not ch.isspace() and previous[0] and not previous[0].isspace() and where != previous[1]:
            for loc in (where, previous[1]):
                if loc is not None:
                    cuts[loc[0]] += 1
        previous = (ch, where)
        if where is None:
            if not order or order[-1][0] != "text":
                order.append(("text", len(outside)))
            outside.append(ch)
        else:
            k, region = where
            if ("table", k) not in order:
                order.append(("table", k))
            cells[k].setdefault(region, []).append(ch)
    rejected = {k for k, n in enumerate(cuts) if n > 2}
    for k, regions in enumerate(cells):
        sizes = [len("".join(chars).split()) for chars in regions.values()]
        filled = [n for n in sizes if n]
        if filled and (max(filled) > 150 or sum(filled) / len(filled) > 30):
            rejected.add(k)  # cells holding whole paragraphs: a page laid out in boxes, not a table
    return outside, order, cells, rejected


def _native_blocks(reading: Reading, number: int, text: str, textpage, ruled: tuple, aligned: list) -> None:
    """The page's text with its tables: ``ruled`` as ``find_tables`` found them, ``aligned``
    the tables held by alignment the structure model read."""
    found, bands = list(ruled[0]), ruled[1]
    found += aligned
    if (found or bands) and len(text) != textpage.count_chars():
        found, bands = [], []  # text and characters do not line up: keep the plain text
    boxes = _char_boxes(text, textpage) if found or bands else []
    for band in bands:
        table = band_table(band, boxes)
        if table is not None:
            found.append(table)
    while found:
        outside, order, cells, cut = _assign(text, boxes, found)
        if not cut:
            break
        found = [t for k, t in enumerate(found) if k not in cut]
    if not found:
        _text_blocks(reading, number, text, textpage)
        return
    for table in found:
        reading.use(table.engine)
    bounds = [start for kind, start in order if kind == "text"] + [len(outside)]
    starts = iter(bounds[1:])
    for kind, value in order:
        if kind == "text":
            chunk = "".join(outside[value : next(starts)])
            for para in paragraphs(chunk.splitlines()):
                reading.add("paragraph", para, page=number, engine="pypdfium2")
        else:
            texts = {region: _cell_text(chars) for region, chars in cells[value].items()}
            table = found[value]
            reading.add("table", rows=table.rows(texts), page=number, engine=table.engine)


def _aligned_blocks(textpage, ruled: tuple) -> list:
    """Where the text layer shows a table held by alignment, outside the ruled tables."""
    from ._alignment import find_blocks

    grids, bands = ruled
    taken = [t.bbox for t in grids] + [(left, bottom, right, top) for left, right, top, bottom in bands]
    return find_blocks(textpage, taken)


def _read_aligned(reading: Reading, number: int, page, model, blocks: list) -> list:
    """The tables the structure model reads in ``blocks``; none, and the reason, if it fails."""
    if model is None:
        return []
    try:
        found = [model.read(page, block) for block in blocks]
    except Exception as exc:  # an ONNX file of another family, an onnxruntime error
        why = " ".join(str(exc).split())[:200]
        reading.findings.append(
            f"page {number}: the table-structure model failed ({type(exc).__name__}: {why}); native text kept"
        )
        return []
    return [table for table in found if table is not None]


def read_pdf(
    path: Path,
    pages: Sequence[int],
    *,
    ocr: Callable[[], object] | None = None,
    dpi: int = 200,
    tables: bool = True,
    layout: Callable[[], object] | None = None,
    aligned: Callable[[], object] | None = None,
) -> Reading:
    """A reading of ``pages`` (1-based numbers of the original) of the PDF at ``path``.

    ``ocr`` returns a loaded OCR engine when first called; None switches OCR off,
    and pages without text are then reported as unread.  ``layout`` returns
    docling's layout engine (or None without its models): pages whose text
    layer the native read flags are read again by it.  ``aligned`` returns the
    table-structure model, for tables drawn without rules; without it (None, or
    a callable that returns None) pages that hold such a table go to ``layout``.
    ``tables=False`` leaves every table as plain text.
    """
    pdf = open_document(path)
    reading = Reading(pages=len(pages))
    reading.use("pypdfium2")
    references: list[str] = []
    ocr_pages: list[int] = []
    ocr_seconds = 0.0
    try:
        total = len(pdf)
        for number in pages:
            if not 1 <= number <= total:
                continue
            page = pdf[number - 1]
            try:
                textpage = page.get_textpage()
                try:
                    raw = textpage.get_text_range()
                    if _LIGATURE.search(raw):
                        raw = _fix_ligatures(raw, textpage)
                    text = raw.replace("\r\n", "\n").replace("\r", "\n")
                    visible = sum(1 for ch in text if not ch.isspace())
                    reading.add("page", page=number)
                    pictured = _image_share(page) if visible < MIN_TEXT else 0.0
                    scanned = pictured > 0.3
                    if visible and not scanned:
                        references.append(tidy(text))
                        flagged = text_layer_findings(text)
                        for finding in flagged:
                            reading.findings.append(f"page {number}: {finding}")
                        ruled = find_tables(page) if tables else ([], [])
                        wanted = tables and (aligned is not None or layout is not None)
                        blocks = _aligned_blocks(textpage, ruled) if wanted else []
                        model = aligned() if blocks and aligned is not None else None
                        escalate = flagged or (blocks and model is None)  # a table no engine here can read
                        engine = layout() if escalate and layout is not None else None
                        redone = None
                        if engine is not None:
                            try:
                                redone = engine.pages(path, number, number)  # type: ignore[attr-defined]
                            except Exception as exc:  # a model folder that is incomplete, a docling bug
                                why = " ".join(str(exc).split())[:200]
                                reading.findings.append(
                                    f"page {number}: docling's layout stage failed ({type(exc).__name__}: {why}); "
                                    "native text kept"
                                )
                        if redone is not None:
                            reading.use("docling")
                            reading.blocks.extend(b for b in redone.blocks if b.kind != "page")
                        else:
                            found = _read_aligned(reading, number, page, model, blocks)
                            _native_blocks(reading, number, raw, textpage, ruled, found)
                    elif scanned or (visible == 0 and any(True for _ in page.get_objects(max_depth=1))):
                        if visible:
                            references.append(text)
                        if ocr is None:
                            if pictured > 0:
                                reading.unverifiable_pages.append(number)
                                reading.findings.append(f"page {number}: no text layer and OCR is off")
                            continue
                        import time

                        engine = ocr()
                        start = time.perf_counter()
                        lines = engine.page(page, dpi)  # type: ignore[attr-defined]
                        ocr_seconds += time.perf_counter() - start
                        ocr_pages.append(number)
                        reading.use("rapidocr")
                        reading.unverifiable_pages.append(number)
                        for para in paragraphs([line.text for line in lines]):
                            reading.add("paragraph", para, page=number, engine="rapidocr")
                        if lines:
                            reading.blocks[-1].extra = {
                                "ocr_lines": [{"text": ln.text, "score": round(ln.score, 4)} for ln in lines]
                            }
                        if visible:  # a stamped page number or the like on a scan
                            reading.add("paragraph", text, page=number, engine="pypdfium2")
                finally:
                    textpage.close()
            finally:
                page.close()
    finally:
        pdf.close()
    reading.reference = "\n".join(references) if references else None
    if ocr_pages:
        reading.notes["ocr_pages"] = ocr_pages
        reading.notes["ocr_seconds"] = round(ocr_seconds, 3)
    return reading
