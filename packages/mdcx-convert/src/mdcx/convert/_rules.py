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

    engine = "ruled-tables"  # the stage named in the reading (a class attribute, not a field)

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
    # A rule drawn in pieces (a column line stroked row by row) is one rule.
    for offset, rules in ((0, horizontal), (n, vertical)):
        ordered = sorted(range(len(rules)), key=lambda k: (round(rules[k][2] / SNAP), rules[k][0]))
        for a, b in zip(ordered, ordered[1:]):
            ra, rb = rules[a], rules[b]
            if abs(ra[2] - rb[2]) < SNAP and rb[0] <= ra[1] + SNAP:
                sets.union(offset + a, offset + b)
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


Band = tuple[float, float, float, float]  # left, right, top, bottom of rules without a grid


def find_tables(page) -> tuple[list[RuledTable], list[Band]]:
    """Grids of rules, and bands of horizontal rules only (tables ruled the "booktabs" way)."""
    found = _segments(page)
    if not found:
        return [], []
    horizontal, vertical = found
    tables = (
        _grids(horizontal, vertical)
        if len(vertical) >= 2 and len(horizontal) * len(vertical) <= 4_000_000
        else []
    )
    return tables, _bands(horizontal, tables)


def _bands(horizontal: list, grids: list[RuledTable]) -> list[Band]:
    """Stacks of at least three horizontal rules of the same extent, outside every grid."""
    groups: list[list[tuple[float, float, float]]] = []
    for x0, x1, y in sorted(horizontal, key=lambda h: (round(h[0]), round(h[1]), -h[2])):
        if x1 - x0 < 40:
            continue
        for group in groups:
            g0, g1, _ = group[0]
            if abs(g0 - x0) < 2 * SNAP and abs(g1 - x1) < 2 * SNAP:
                group.append((x0, x1, y))
                break
        else:
            groups.append([(x0, x1, y)])
    bands = []
    for group in groups:
        ys = _cluster([y for _, _, y in group])
        if len(ys) < 3:
            continue
        left, right = min(g[0] for g in group), max(g[1] for g in group)
        top, bottom = max(ys), min(ys)
        if top - bottom < 10:
            continue
        inside = any(
            t.bbox[0] - SNAP <= left
            and right <= t.bbox[2] + SNAP
            and t.bbox[1] - SNAP <= bottom
            and top <= t.bbox[3] + SNAP
            for t in grids
        )
        if not inside:
            bands.append((left, right, top, bottom))
    return bands


def band_table(band: Band, chars: list[tuple[float, float, float, float] | None]) -> RuledTable | None:
    """A table inside a band of horizontal rules: rows are text lines, columns the gaps
    that run down through (nearly) every line.  ``chars`` are the page's character
    boxes (left, bottom, right, top), None for separators."""
    left, right, top, bottom = band
    boxes = [
        b
        for b in chars
        if b is not None
        and left - SNAP <= (b[0] + b[2]) / 2 <= right + SNAP
        and bottom < (b[1] + b[3]) / 2 < top
    ]
    if len(boxes) < 4:
        return None
    heights = sorted(b[3] - b[1] for b in boxes)
    height = max(heights[len(heights) // 2], 1.0)
    lines: list[list[tuple[float, float, float, float]]] = []
    for b in sorted(boxes, key=lambda b: -(b[1] + b[3]) / 2):
        cy = (b[1] + b[3]) / 2
        if lines and abs((lines[-1][0][1] + lines[-1][0][3]) / 2 - cy) < 0.5 * height:
            lines[-1].append(b)
        else:
            lines.append([b])
    if len(lines) < 2:
        return None
    widths = sorted(b[2] - b[0] for b in boxes)
    min_gap = max(1.5 * widths[len(widths) // 2], 4.0)
    step = 0.5
    n = int((right - left) / step) + 1
    ink = [0] * n
    for line in lines:
        covered = [False] * n
        for b in line:
            for i in range(max(int((b[0] - left) / step), 0), min(int((b[2] - left) / step) + 1, n)):
                covered[i] = True
        for i, c in enumerate(covered):
            ink[i] += c
    allowed = max(1, len(lines) // 5)  # a heading that spans columns may cross a gap
    edges = [left]
    run_start = None
    for i in range(n + 1):
        empty = i < n and ink[i] <= allowed
        if empty and run_start is None:
            run_start = i
        elif not empty and run_start is not None:
            if run_start > 0 and i < n and (i - run_start) * step >= min_gap:
                edges.append(left + (run_start + i) / 2 * step)
            run_start = None
    edges.append(right)
    if len(edges) < 3:
        return None
    centers = [sum((b[1] + b[3]) / 2 for b in line) / len(line) for line in lines]
    ys = [top] + [(a + b) / 2 for a, b in zip(centers, centers[1:])] + [bottom]
    ncols = len(edges) - 1
    regions = tuple(tuple(r * ncols + c for c in range(ncols)) for r in range(len(lines)))
    return RuledTable(tuple(edges), tuple(ys), regions)


def _grids(horizontal: list, vertical: list) -> list[RuledTable]:
    tables = []
    for hs, vs in _components(horizontal, vertical):
        ys = sorted(_cluster([h[2] for h in hs]), reverse=True)  # top to bottom
        xs = _cluster([v[2] for v in vs])
        # Tables without outer vertical borders: the horizontal rules give the outer edges.
        left, right = min(h[0] for h in hs), max(h[1] for h in hs)
        if xs and left < xs[0] - 3 * SNAP:
            xs.insert(0, left)
        if xs and right > xs[-1] + 3 * SNAP:
            xs.append(right)
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
