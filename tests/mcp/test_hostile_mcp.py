"""Hostile input over stdio: every refusal is one short line, and the server goes on serving."""

from __future__ import annotations

import os

import anyio
import pytest
from helpers.format import KEY
from helpers.mcp import OTHER_KEY, Packages, PipeTransport, error_text, open_server, read_all, reply, spawn
from mcp import Client

pytestmark = pytest.mark.anyio


def both(packages: Packages) -> dict[str, str]:
    keys = packages.folder / "hostile-keys.txt"
    keys.write_text(f"{KEY}\n{OTHER_KEY}\n", encoding="utf-8")
    return {"MDCX_FILE": f"{packages.lab}{os.pathsep}{packages.archive}", "MDCX_KEY_FILE": str(keys)}


def one_line(text: str) -> str:
    assert "\n" not in text and "Traceback" not in text, text
    return text


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        ("search", {}, "question: field required"),
        ("search", {"question": None}, "question: input should be a valid string"),
        (
            "search",
            {"question": "reagents", "limit": -1},
            "limit: input should be greater than or equal to 1",
        ),
        (
            "search",
            {"question": "reagents", "limit": 10**30},
            "limit: input should be less than or equal to 20",
        ),
        ("search", {"question": "reagents", "limit": 2.5}, "limit: input should be a valid integer"),
        ("search", {"question": "reagents", "mode": "evil"}, "mode: input should be 'auto'"),
        ("document", {"name": "manual.md", "offset": -1}, "offset: input should be greater than or equal"),
        ("document", {}, "name: field required"),
        ("info", {"list_documents": [1]}, "list_documents: input should be a valid boolean"),
    ],
)
async def test_arguments_outside_the_schema_are_one_line_naming_the_field(
    packages: Packages, tool: str, arguments: dict, field: str
) -> None:
    async with spawn(MDCX_FILE=str(packages.lab), MDCX_KEY=KEY) as client:
        text = one_line(error_text(await client.call_tool(tool, arguments)))
        after = reply(await client.call_tool("search", {"question": "storage temperature", "limit": 1}))
    assert text.startswith(f"Error executing tool {tool}: invalid arguments: {field}"), text
    assert "pydantic" not in text and "input_value" not in text
    assert after["documents"]


async def test_long_names_are_cut_short_in_errors(packages: Packages) -> None:
    long = "x" * 100_000
    async with spawn(**both(packages)) as client:
        results = [
            await client.call_tool("document", {"name": long}),
            await client.call_tool("document", {"name": "storage.md", "package": long}),
            await client.call_tool("info", {"package": long}),
            await client.call_tool("search", {"question": "reagents", "cursor": long}),
        ]
        after = reply(await client.call_tool("document", {"name": "@/reports/storage.md"}))
    for result in results:
        text = one_line(error_text(result))
        assert len(text.encode("utf-8")) < 1_200, text[:200]
    assert "100,000 characters" in error_text(results[0])
    assert "100,000 characters" in error_text(results[1]) and "lab.mdcx, archive.mdcx" in error_text(
        results[1]
    )
    assert after["package"] == "lab.mdcx"


async def test_forged_cursors_are_refused(packages: Packages) -> None:
    forged = "eyJ2IjoxLCJvIjp0cnVlLCJxIjoiMCJ9"  # {"v":1,"o":true,"q":"0"}: a boolean for an offset
    async with spawn(MDCX_FILE=str(packages.lab), MDCX_KEY=KEY) as client:
        first = reply(await client.call_tool("search", {"question": "reagents", "limit": 1}))
        cursor = first["next_cursor"]
        texts = [
            error_text(await client.call_tool("search", {"question": "reagents", "cursor": c}))
            for c in (forged, cursor[:-4], cursor + "A" * 10_000)
        ]
        other = error_text(await client.call_tool("search", {"question": "storage", "cursor": cursor}))
    for text in texts:
        assert "the cursor is not one this server gave" in one_line(text)
    assert "the cursor continues another search" in one_line(other)


async def test_idle_time_beyond_the_platform_limit_waits_without_failing(packages: Packages) -> None:
    # 1e300 minutes is a number, so it is accepted; no wait that long can be asked of the platform at once.
    process = await open_server(MDCX_FILE=str(packages.lab), MDCX_KEY=KEY, MDCX_IDLE_UNLOAD_MINUTES="1e300")
    try:
        async with Client(PipeTransport(process)) as client:
            reply(await client.call_tool("search", {"question": "reagents"}))
            await anyio.sleep(0.5)  # the idle watch now waits for the next call
            info = reply(await client.call_tool("info", {}))
        with anyio.fail_after(15):
            code = await process.wait()
        stderr = await read_all(process.stderr)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert info["idle"]["unloads"] == 0 and info["packages"][0]["open"] is True
    assert code == 0 and stderr == ""
