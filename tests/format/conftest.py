"""Fixtures for mdcx-format: fast key derivation, small real corpora."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.format import FAST_KDF, write
from mdcx.format import PackOptions


@pytest.fixture
def fast() -> PackOptions:
    return PackOptions(kdf=FAST_KDF)


@pytest.fixture
def collection(tmp_path: Path) -> Path:
    """A small collection with the shapes pack must handle."""
    root = tmp_path / "collection"
    write(
        root,
        "reports/storage.md",
        "---\ntitle: Storage of reagents\ndate: 2021-05-03\n---\n"
        "<!-- page: 1 -->\n# Storage\n\nThe storage temperature for the reagents is 4 degrees Celsius.\n\n"
        "<!-- page: 2 -->\n## Handling\n\nKeep the reagents away from light and heat.\n",
    )
    write(
        root,
        "reports/network.md",
        "# Networks\n\nA 5G network reaches AI devices; pH sensors report over it.\n",
    )
    write(
        root,
        "appendix/coordinates.md",
        "---\nindexed: false\ntitle: Coordinates\n---\n| x | y |\n|---|---|\n| 1 | 2 |\n",
    )
    write(root, "received/2020-letter.md", "Dear colleague, the invoice for the reagents is attached.\n")
    write(root, "sent/2020-reply.md", "Thank you, the invoice was paid in March.\n")
    write(root, "notes.txt", "Plain text notes about bananas.\n")
    write(root, "scan.pdf", b"%PDF-1.4 not really")
    return root
