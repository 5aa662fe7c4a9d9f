"""Real packages for the MCP server's tests, built once per session with a cheap key derivation."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.format import FAST_KDF, KEY, write
from helpers.mcp import OTHER_KEY, Packages
from helpers.mcp_corpus import ARCHIVE, LAB
from mdcx.format import PackOptions, pack


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


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
