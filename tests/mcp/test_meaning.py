"""Searching by meaning through the server, and the idle release of its query encoder.

A real spawned server, a real package with vectors from a tiny random BERT
built on the spot (no download), read over stdio by the MCP client.
"""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from helpers.embed import build_tiny_model
from helpers.format import FAST_KDF, KEY, write
from helpers.mcp import reply, spawn
from mdcx.format import PackOptions, pack

pytestmark = pytest.mark.anyio

DOCS = {
    f"note{i:02}.md": f"# Note {i}\n\nreport number {i} about "
    + ("pumps and valves" if i % 2 else "ships and harbours")
    for i in range(20)
}


@pytest.fixture(scope="module")
def vectors(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the model's folder, a package whose passages it encoded)."""
    root = tmp_path_factory.mktemp("mcp-meaning")
    model = build_tiny_model(root / "models", dim=32, seed=0)
    for path, text in DOCS.items():
        write(root / "src", path, text)
    target = root / "notes.mdcx"
    pack(root / "src", target, KEY, PackOptions(kdf=FAST_KDF, multilingual=True, model=str(model)))
    return model, target


async def test_meaning_search_loads_the_encoder_and_idle_releases_it(vectors: tuple[Path, Path]) -> None:
    model, target = vectors
    settings = {"MDCX_FILE": str(target), "MDCX_KEY": KEY, "MDCX_MODEL": str(model)}
    # 0.05 minutes = 3 s: the calls made back to back below finish well inside it.
    async with spawn(**settings, MDCX_IDLE_UNLOAD_MINUTES="0.05") as client:
        before = reply(await client.call_tool("info", {}))
        question = {"question": "report number 7 about pumps and valves", "mode": "semantic"}
        meaning = reply(await client.call_tool("search", question))
        loaded = reply(await client.call_tool("info", {}))
        await anyio.sleep(6.0)
        released = reply(await client.call_tool("info", {}))
        again = reply(await client.call_tool("search", question))
        fused = reply(await client.call_tool("search", {**question, "mode": "auto", "limit": 10}))
    assert before["encoder"]["loaded"] is False and before["encoder"]["models"] == {}
    assert meaning["mode"] == "semantic" and meaning["similarity"] is not None
    assert meaning["similarity_at"] is not None and meaning["cross_language"] is False
    assert len(meaning["documents"]) == 5
    assert loaded["encoder"]["loaded"] is True and list(loaded["encoder"]["models"].values()) == [True]
    assert released["encoder"]["loaded"] is False and released["idle"]["unloads"] == 1
    assert again["documents"] == meaning["documents"]  # reloaded, same ranking
    # a random model's ranking is noise; fused with words, the note the words name stays near the top
    assert fused["mode"] == "auto" and "@/note07.md" in [d["document"] for d in fused["documents"]]


async def test_without_vectors_the_server_never_imports_the_encoder(tmp_path: Path) -> None:
    write(tmp_path / "src", "a.md", "# A\n\nplain words about pumps")
    target = tmp_path / "plain.mdcx"
    pack(tmp_path / "src", target, KEY, PackOptions(kdf=FAST_KDF))
    async with spawn(MDCX_FILE=str(target), MDCX_KEY=KEY) as client:
        found = reply(await client.call_tool("search", {"question": "pumps"}))
        info = reply(await client.call_tool("info", {}))
    assert found["mode"] == "lexical" and found["similarity"] is None
    assert info["encoder"] == {
        "loaded": False,
        "models": {},
        "note": "no search has needed an encoder yet (packages without vectors never do)",
    }
