"""Where a PDF page's text layer shows a table held by alignment (no rules).

Found cheaply, since every born-digital page pays for it: pdfium's text
rectangles (one per run of a text object on a line, about a tenth of a
millisecond a page) are grouped into lines, and a run of lines whose pieces
leave the same two or more column gaps free, with columns that share an edge,
is a candidate, unless it reads as a formula or as running text.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

GAP = 0.8  # a column gap is at least this many line heights wide (a word space is about 0.3)
MIN_LINES = 3  # a header and two rows
MAX_SEGMENT = 15.0  # line heights: a median piece wider than this is a column of prose, not a cell

Box = tuple[float, float, float, float]  # left, bottom, right, top in PDF points
Line = tuple[Box, tuple[tuple[float, float], ...]]  # a line's box and its text objects' spans (left, right)


@dataclass(frozen=True)
class Block:
    """Lines of text whose pieces line up in columns: where a table without rules may be."""

    bbox: Box
    lines: tuple[Line, ...]  # top to bottom
    cuts: tuple[float, ...]  # middles of the column gaps free in every line, left to right


def _rects(textpage) -> list[Box]:
    import ctypes

    import pypdfium2.raw as c

    n = c.FPDFText_CountRects(textpage.raw, 0, -1)
    if n < MIN_LINES * 3:
        return []
    left, top, right, bottom = (ctypes.c_double() for _ in range(4))
    out = []
    for k in range(n):
        if c.FPDFText_GetRect(textpage.raw, k, left, top, right, bottom) and top.value > bottom.value:
            out.append((left.value, bottom.value, right.value, top.value))
    return out


def _lines(rects: list[Box]) -> list[tuple[Box, list[tuple[float, float]], list[tuple[float, float]]]]:
    """Rectangles grouped into lines, top to bottom: each line's box, its pieces (spans closer
    than a column gap merged: word spaces, kerning) and its rectangles' spans, left to right."""
    lines: list[list[Box]] = []
    for r in sorted(rects, key=lambda r: -(r[1] + r[3])):
        if lines:
            last = lines[-1][0]
            overlap = min(r[3], last[3]) - max(r[1], last[1])
            if overlap > 0.5 * min(r[3] - r[1], last[3] - last[1]):
                lines[-1].append(r)
                continue
        lines.append([r])
    out = []
    for line in lines:
        height = max(r[3] - r[1] for r in line)
        pieces: list[list[float]] = []
        for r in sorted(line):
            if pieces and r[0] - pieces[-1][1] < GAP * height:
                pieces[-1][1] = max(pieces[-1][1], r[2])
            else:
                pieces.append([r[0], r[2]])
        box = (
            min(r[0] for r in line),
            min(r[1] for r in line),
            max(r[2] for r in line),
            max(r[3] for r in line),
        )
        out.append((box, [(a, b) for a, b in pieces], sorted((r[0], r[2]) for r in line)))
    return out


def _free(pieces: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Where a line has no text: between its pieces, and before and after it (a row whose last
    cells are empty leaves their column gaps free too)."""
    inf = float("inf")
    return [(-inf, pieces[0][0]), *((a[1], b[0]) for a, b in zip(pieces, pieces[1:])), (pieces[-1][1], inf)]


def _inside(gaps: list[tuple[float, float]], members: list) -> list[tuple[float, float]]:
    """The gaps between the leftmost and the rightmost text of ``members``: column gaps."""
    left, right = min(m[0][0] for m in members), max(m[0][2] for m in members)
    return [g for g in gaps if left < g[0] and g[1] < right]


def _intersect(gaps: list[tuple[float, float]], pieces: list[tuple[float, float]], least: float) -> list:
    """The parts of ``gaps`` that no piece covers, at least ``least`` wide."""
    out = []
    for g0, g1 in gaps:
        spans = [(g0, g1)]
        for p0, p1 in pieces:
            spans = [s for a, b in spans for s in ((a, min(b, p0)), (max(a, p1), b)) if s[1] - s[0] > 0]
        out += [s for s in spans if s[1] - s[0] >= least]
    return out


def _body_gaps(members: list, gaps: list[tuple[float, float]], height: float) -> list[tuple[float, float]]:
    """The column gaps of the lines below the first.  A heading set flush left above figures set
    flush right sits inside the figures' gap and would split it into two columns; the rows
    alone say where the columns are, and the heading joins the one its middle falls in."""
    shared = _free(members[1][1])
    for _, pieces, _ in members[2:]:
        shared = _intersect(shared, pieces, 0.4 * height)
    shared = _inside(shared, members)
    return shared if len(shared) >= 2 else gaps


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _columns(members: list, gaps: list[tuple[float, float]]) -> list[list[tuple[float, float]]]:
    """Each column's extent in each line that has text there (from its first piece's left to its last's right)."""
    cuts = [(a + b) / 2 for a, b in gaps]
    out: list[list[tuple[float, float]]] = [[] for _ in range(len(cuts) + 1)]
    for _, pieces, _ in members:
        spans: dict[int, list[float]] = {}
        for p0, p1 in pieces:
            k = sum(1 for cut in cuts if cut < p0)
            spans.setdefault(k, [p0, p1])[1] = p1
        for k, (p0, p1) in spans.items():
            out[k].append((p0, p1))
    return out


def _aligned(column: list[tuple[float, float]], height: float) -> bool:
    """Two thirds of a column's texts (a heading may stand apart) share a left edge, a right edge or a centre."""
    if len(column) < 2:
        return True
    for edge in (lambda s: s[0], lambda s: s[1], lambda s: (s[0] + s[1]) / 2):
        values = [edge(s) for s in column]
        shared = max(sum(1 for v in values if abs(v - anchor) <= 0.3 * height) for anchor in values)
        if 3 * shared >= 2 * len(column):
            return True
    return False


def _tabular(textpage, members: list, gaps: list[tuple[float, float]]) -> bool:
    """Whether lines that leave column gaps free read as a table rather than as text that
    happens to line up: a formula or words spaced out (more pieces than columns, or most
    columns empty), columns of running text (wide pieces, or lines that go on in lower case
    from the line above)."""
    height = statistics.median(box[3] - box[1] for box, _, _ in members)
    pieces = [(box, p) for box, ps, _ in members for p in ps]
    columns = len(gaps) + 1
    if not 0.5 * len(members) * columns <= len(pieces) <= 1.25 * len(members) * columns:
        return False
    if statistics.median(p[1] - p[0] for _, p in pieces) > MAX_SEGMENT * height:
        return False
    for column in _columns(members, gaps):
        if 2 * len(column) < len(members) or not _aligned(column, height):
            return False  # a column mostly empty, or whose texts share no edge: a formula, not cells
    firsts = [
        textpage.get_text_bounded(p[0], box[1], p[1], box[3]).lstrip()[:1]
        for box, p in pieces[len(members[0][1]) :]
    ]
    letters = [ch for ch in firsts if ch.isalpha()]
    return not letters or 2 * sum(ch.islower() for ch in letters) <= len(letters)


def find_blocks(textpage, taken: list[Box]) -> list[Block]:
    """Runs of at least three lines that leave two or more column gaps free in every line,
    outside the regions in ``taken`` (tables the ruled-table recovery already holds)."""
    lines = _lines(_rects(textpage))
    found: list[Block] = []
    k = 0
    while k < len(lines):
        box, pieces, _ = lines[k]
        height = box[3] - box[1]
        free = _free(pieces)
        if len(pieces) < 3:
            k += 1
            continue
        members = [lines[k]]
        j = k + 1
        while j < len(lines):
            nbox, npieces, _ = lines[j]
            if members[-1][0][1] - nbox[3] > 2.5 * height:
                break  # a gap between paragraphs
            if not 0.7 * height < nbox[3] - nbox[1] < 1.5 * height:
                break  # rows of a table share a type size; sub- and superscripts, marks above a line do not
            shared = _intersect(free, npieces, 0.4 * height)
            if len(_inside(shared, [*members, lines[j]])) < 2:
                break  # a line across the columns: prose, a caption
            free = shared
            members.append(lines[j])
            j += 1
        while len(members) > 1 and len(members[-1][1]) < 2:
            members.pop()  # a short line after the table (a note, a source) is not a row of it
            j -= 1
        k = j if len(members) >= MIN_LINES else k + 1
        if len(members) < MIN_LINES:
            continue
        gaps = _body_gaps(members, _inside(free, members), height)
        if not _tabular(textpage, members, gaps):
            continue
        boxes = [m[0] for m in members]
        bbox = (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )
        if not any(_overlaps(bbox, t) for t in taken):
            cuts = tuple((a + b) / 2 for a, b in gaps)
            found.append(Block(bbox, tuple((b, tuple(spans)) for b, _, spans in members), cuts))
    return found
