"""Real packages for the MCP server's tests, built once per session with a cheap key derivation."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.format import FAST_KDF, KEY, write
from helpers.mcp import OTHER_KEY, Packages
from mdcx.format import PackOptions, pack


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def manual() -> str:
    """A long document (about 120,000 characters) with page markers: it takes several pages to read."""
    parts = ["---\ntitle: Laboratory manual\ndate: 2019-02-01\n---\n"]
    for page in range(1, 61):
        parts.append(f"<!-- page: {page} -->\n## Procedure {page}\n\n")
        parts.append(
            " ".join(
                f"Step {page}.{step}: rinse the flask {step} times and record the centrifuge speed."
                for step in range(1, 26)
            )
            + "\n\n"
        )
    return "".join(parts)


LAB = {
    "reports/storage.md": (
        "---\ntitle: Storage of reagents\ndate: 2021-05-03\n---\n"
        "<!-- page: 1 -->\n# Storage\n\nThe storage temperature for the reagents is 4 degrees Celsius.\n\n"
        "<!-- page: 2 -->\n## Handling\n\nKeep the reagents away from light and heat.\n"
    ),
    "reports/network.md": "# Networks\n\nA 5G network reaches AI devices; pH sensors report over it.\n",
    "appendix/coordinates.md": (
        "---\nindexed: false\ntitle: Coordinates\n---\n| x | y |\n|---|---|\n| 1 | 2 |\n"
    ),
    "manual.md": manual(),
    **{
        f"notes/note-{i:02}.md": f"# Note {i}\n\n"
        + " ".join(["Reagents were logged."] * (1 + i % 7))
        + f" Batch {i} of the glassware inventory.\n"
        for i in range(30)
    },
}

ARCHIVE = {
    "received/2020-letter.md": "Dear colleague, the invoice for the reagents is attached.\n",
    "sent/2020-reply.md": "Thank you, the invoice was paid in March.\n",
    "zeppelins.md": "# Airships\n\nThe zeppelin hangar stored hydrogen cylinders next to the reagents.\n",
}


def _pack(root: Path, name: str, docs: dict[str, str], key: str) -> Path:
    source = root / f"src-{name}"
    for path, text in docs.items():
        write(source, path, text)
    target = root / f"{name}.mdcx"
    pack(source, target, key, PackOptions(kdf=FAST_KDF))
    return target


@pytest.fixture(scope="session")
def packages(tmp_path_factory: pytest.TempPathFactory) -> Packages:
    root = tmp_path_factory.mktemp("mcp-packages")
    return Packages(_pack(root, "lab", LAB, KEY), _pack(root, "archive", ARCHIVE, OTHER_KEY), root)
