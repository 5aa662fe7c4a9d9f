"""Tables drawn with rules, recovered from a PDF page's vector paths.

Horizontal and vertical strokes (and the edges of thin filled rectangles)
are collected from the page's path objects, grouped into connected grids,
and each grid cell's text is read from the text layer inside its rectangle.
Cells not separated by a rule are merged and repeat their text.  A grid of
one row or one column is a frame, not a table.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

TOL = 1.5  # points: a stroke is horizontal or vertical within this
SNAP = 2.5  # points: rules closer than this are the same rule
MAX_PATHS = 20000  # a page drawn with more paths than this is a picture, not a table


@dataclass(frozen=True)
class RuledTable:
    """A grid: column edges left to right, row edges top to bottom, and the
    region (merged cells share one) of every grid cell."""

    xs: tuple[float, ...]
    ys: tuple[float, ...]
    regions: tuple[tuple[int, ...], ...]

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        return self.xs[0], self.ys[-1], self.xs[-1], self.ys[0]

    def locate(self, x: float, y: float) -> int | None:
        """The region holding point (x, y), or None outside the table."""
        if not (self.xs[0] <= x <= self.xs[-1] and self.ys[-1] <= y <= self.ys[0]):
            return None
        col = bisect.bisect_right(self.xs, x) - 1
        row = sum(1 for edge in self.ys[1:] if edge > y)
        col = min(max(col, 0), len(self.xs) - 2)
        row = min(max(row, 0), len(self.ys) - 2)
        return self.regions[row][col]

    def rows(self, texts: dict[int, str]) -> list[list[str]]:
        """Rows of cell texts; a merged region's text stands in its first (top-left) cell."""
        seen: set[int] = set()
        out = []
        for row in self.regions:
            cells = []
            for region in row:
                cells.append("" if region in seen else texts.get(region, ""))
                seen.add(region)
            out.append(cells)
        return out

    def is_frame(self) -> bool:
        """One region covering most of the grid: a drawn frame around a page, not a table."""
        cells = [region for row in self.regions for region in row]
        biggest = max(cells.count(region) for region in set(cells))
        return biggest > 0.5 * len(cells)


def _segments(page) -> tuple[list, list] | None:
    import pypdfium2.raw as c

    horizontal, vertical = [], []
    paths = 0
    for obj in page.get_objects(max_depth=4):
        if obj.type != c.FPDF_PAGEOBJ_PATH:
            continue
        paths += 1
        if paths > MAX_PATHS:
            return None
        m = obj.get_matrix()
        polys: list[list[tuple[float, float]]] = []
        x, y = c.FS_FLOAT(), c.FS_FLOAT()
        for k in range(c.FPDFPath_CountSegments(obj.raw)):
            seg = c.FPDFPath_GetPathSegment(obj.raw, k)
            c.FPDFPathSegment_GetPoint(seg, x, y)
            px = m.a * x.value + m.c * y.value + m.e
            py = m.b * x.value + m.d * y.value + m.f
            if c.FPDFPathSegment_GetType(seg) == c.FPDF_SEGMENT_MOVETO or not polys:
                polys.append([(px, py)])
            else:
                polys[-1].append((px, py))
            if c.FPDFPathSegment_GetClose(seg):
                polys[-1].append(polys[-1][0])
        for poly in polys:
            for (x0, y0), (x1, y1) in zip(poly, poly[1:]):
                if abs(y0 - y1) < TOL and abs(x0 - x1) > TOL:
                    horizontal.append((min(x0, x1), max(x0, x1), (y0 + y1) / 2))
                elif abs(x0 - x1) < TOL and abs(y0 - y1) > TOL:
                    vertical.append((min(y0, y1), max(y0, y1), (x0 + x1) / 2))
    return horizontal, vertical


class _Sets:
    """Disjoint sets (union-find) over 0..n-1."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        parent = self.parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra


def _cluster(values: list[float]) -> list[float]:
    out: list[float] = []
    for v in sorted(values):
        if out and v - out[-1] < SNAP:
            continue
        out.append(v)
    return out


def _components(horizontal: list, vertical: list) -> list[tuple[list, list]]:
    """Rules grouped into grids: two rules belong together when they touch."""
    n = len(horizontal)
    sets = _Sets(n + len(vertical))
    for i, (x0, x1, y) in enumerate(horizontal):
        for j, (y0, y1, x) in enumerate(vertical):
            if x0 - SNAP <= x <= x1 + SNAP and y0 - SNAP <= y <= y1 + SNAP:
                sets.union(i, n + j)
    find = sets.find
    groups: dict[int, tuple[list, list]] = {}
    for i, h in enumerate(horizontal):
        groups.setdefault(find(i), ([], []))[0].append(h)
    for j, v in enumerate(vertical):
        groups.setdefault(find(n + j), ([], []))[1].append(v)
    return [g for g in groups.values() if g[0] and g[1]]


def _covers_h(rules: list, y: float, x: float) -> bool:
    return any(abs(ry - y) < SNAP and x0 - SNAP <= x <= x1 + SNAP for x0, x1, ry in rules)


def _covers_v(rules: list, x: float, y: float) -> bool:
    return any(abs(rx - x) < SNAP and y0 - SNAP <= y <= y1 + SNAP for y0, y1, rx in rules)


def find_tables(page) -> list[RuledTable]:
    found = _segments(page)
    if not found:
        return []
    horizontal, vertical = found
    if len(horizontal) < 2 or len(vertical) < 2 or len(horizontal) * len(vertical) > 4_000_000:
        return []
    tables = []
    for hs, vs in _components(horizontal, vertical):
        ys = sorted(_cluster([h[2] for h in hs]), reverse=True)  # top to bottom
        xs = _cluster([v[2] for v in vs])
        if len(ys) < 3 or len(xs) < 3:
            continue
        nrows, ncols = len(ys) - 1, len(xs) - 1
        if nrows * ncols > 20000:
            continue
        sets = _Sets(nrows * ncols)
        find = sets.find

        for r in range(nrows):
            ymid = (ys[r] + ys[r + 1]) / 2
            for col in range(ncols - 1):
                if not _covers_v(vs, xs[col + 1], ymid):
                    sets.union(r * ncols + col, r * ncols + col + 1)
        for col in range(ncols):
            xmid = (xs[col] + xs[col + 1]) / 2
            for r in range(nrows - 1):
                if not _covers_h(hs, ys[r + 1], xmid):
                    sets.union(r * ncols + col, (r + 1) * ncols + col)
        regions = tuple(tuple(find(r * ncols + col) for col in range(ncols)) for r in range(nrows))
        if len({cell for row in regions for cell in row}) < 2:
            continue  # one box: a frame around text, not a table
        if max(len(set(row)) for row in regions) < 2:
            continue  # no row with two cells: a stack of frames
        table = RuledTable(tuple(xs), tuple(ys), regions)
        if not table.is_frame():
            tables.append(table)
    return tables
