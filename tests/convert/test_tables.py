"""Ruled tables: share of ground-truth cell texts that land in Markdown table rows.

No public ruled-table benchmark with human cell ground truth (ICDAR 2013,
PubTabNet, FinTabNet) can be fetched here, so the ground truth is docling's
reviewed output for the PDFs of its test set whose tables are drawn with
rules (checked by eye: 2305.03393v1-pg9 ruled row by row without outer
borders, normal_4pages a full grid), plus a table we draw ourselves.
"""

from __future__ import annotations

import re
from pathlib import Path

from conftest import corpus_path

RULED = ("2305.03393v1-pg9", "normal_4pages")


def table_rows(markdown: str) -> list[list[str]]:
    rows = []
    for line in markdown.splitlines():
        line = line.strip()
        if line.startswith("|") and not re.fullmatch(r"\|[\s\-:|]+\|?", line):
            rows.append([c.strip() for c in re.split(r"(?<!\\)\|", line.strip("|"))])
    return rows


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", text.casefold()).split())


def cell_recall(groundtruth: str, ours: str) -> tuple[int, int]:
    cells = [c for row in table_rows(groundtruth) for c in row if _norm(c)]
    rows = "\n".join(" | ".join(_norm(c) for c in row) for row in table_rows(ours))
    return sum(1 for c in cells if _norm(c) in rows), len(cells)


def test_ruled_table_cells_land_in_table_rows(docling_converted: Path) -> None:
    root = corpus_path("docling-testdata") / "pdf" / "groundtruth"
    found = total = 0
    for name in RULED:
        hit, n = cell_recall((root / f"{name}.md").read_text(encoding="utf-8"),
                             (docling_converted / "pdf" / f"{name}.md").read_text(encoding="utf-8"))  # fmt: skip
        found, total = found + hit, total + n
    print(f"\nruled-table cells in table rows: {found}/{total}")
    assert total >= 60 and found / total >= 0.9
