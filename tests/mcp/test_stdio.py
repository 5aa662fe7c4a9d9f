"""End to end: a real MCP client talks to ``python -m mdcx.mcp_server`` spawned over stdio."""

from __future__ import annotations

import os
import shutil

import anyio
import pytest
from helpers.format import KEY
from helpers.mcp import OTHER_KEY, Packages, PipeTransport, error_text, open_server, read_all, reply, spawn
from helpers.mcp_corpus import RUN_SUMMARY
from mcp import Client

pytestmark = pytest.mark.anyio


def both(packages: Packages) -> dict[str, str]:
    """Both packages, one passphrase each: in a key file, since the second holds a comma."""
    keys = packages.folder / "keys.txt"
    keys.write_text(f"{KEY}\n{OTHER_KEY}\n", encoding="utf-8")
    return {"MDCX_FILE": f"{packages.lab}{os.pathsep}{packages.archive}", "MDCX_KEY_FILE": str(keys)}


async def test_lists_three_read_only_tools_with_schemas(packages: Packages) -> None:
    async with spawn(MDCX_FILE=str(packages.lab), MDCX_KEY=KEY) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == {"search", "document", "info"}
    for tool in tools.values():
        assert tool.annotations.read_only_hint is True and tool.annotations.destructive_hint is False
        assert tool.annotations.open_world_hint is False
        assert tool.output_schema and tool.output_schema["type"] == "object"
        assert 40 < len(tool.description) < 700
    assert tools["search"].input_schema["required"] == ["question"]
    assert set(tools["search"].input_schema["properties"]) == {
        "question",
        "limit",
        "cursor",
        "mode",
        "only",
        "prefer",
    }
    assert tools["search"].input_schema["properties"]["limit"]["maximum"] == 20
    assert "next_cursor" in tools["search"].output_schema["properties"]
    assert tools["document"].input_schema["required"] == ["name"]
    assert {"package", "open", "memory_bytes", "record"} <= set(
        tools["info"].output_schema["$defs"]["PackageState"]["properties"]
    )


async def test_info_gives_each_package_record_with_conversion_fidelity(packages: Packages) -> None:
    async with spawn(**both(packages)) as client:
        info = reply(await client.call_tool("info", {}))
    lab, archive = info["packages"]
    assert (lab["package"], archive["package"]) == ("lab.mdcx", "archive.mdcx")
    assert lab["record"]["conversion"] == RUN_SUMMARY and archive["record"]["conversion"] is None
    assert (lab["record"]["documents"], lab["record"]["attachments"]) == (33, 1)
    assert lab["record"]["language"] == "en" and lab["record"]["signed"] is False
    assert not {"kdf", "body_digest", "package_id", "cipher"} & set(lab["record"])
    assert (lab["open"], lab["memory_bytes"]) == (False, 0)
    assert info["encoder"]["loaded"] is False and info["server"]["name"] == "mdcx"


async def test_search_with_hits_cites_document_page_and_passage(packages: Packages) -> None:
    async with spawn(MDCX_FILE=str(packages.lab), MDCX_KEY=KEY) as client:
        found = reply(await client.call_tool("search", {"question": "storage temperature of the reagents"}))
    assert found["answerable"] is True and found["warning"] is None
    top = found["documents"][0]
    assert top["rank"] == 1 and top["package"] == "lab.mdcx"
    assert top["document"] == "@/reports/storage.md" and top["title"] == "Storage of reagents"
    passage = top["passages"][0]
    assert "4 degrees Celsius" in passage["text"] and "<!-- page" not in passage["text"]
    assert passage["page"] == 1 and passage["position"] == 0 and isinstance(passage["passage"], int)
    assert passage["truncated"] is False


async def test_search_with_no_hits_is_an_answer_with_its_reason(packages: Packages) -> None:
    async with spawn(MDCX_FILE=str(packages.lab), MDCX_KEY=KEY) as client:
        result = await client.call_tool("search", {"question": "zeppelin airship"})
    found = reply(result)  # not an error
    assert found["documents"] == [] and found["next_cursor"] is None
    assert found["unknown_terms"] == {"lab.mdcx": ["zeppelin", "airship"]}
    assert "none of the question's words occur" in found["warning"]


async def test_several_packages_searched_as_one_corpus(packages: Packages) -> None:
    async with spawn(**both(packages)) as client:
        found = reply(await client.call_tool("search", {"question": "zeppelin reagents", "limit": 20}))
        letters = reply(await client.call_tool("search", {"question": "invoice", "only": "received"}))
    assert set(found["answerable_at_by_package"]) == {"lab.mdcx", "archive.mdcx"}
    assert set(found["languages"]) == {"lab.mdcx", "archive.mdcx"}
    # "zeppelin" is only in the archive: the lab package says it never saw it.
    assert found["unknown_terms"] == {"lab.mdcx": ["zeppelin"]}
    top = found["documents"][0]
    assert (top["package"], top["document"]) == ("archive.mdcx", "@/zeppelins.md")
    assert {d["package"] for d in found["documents"]} == {"lab.mdcx", "archive.mdcx"}
    assert [d["document"] for d in letters["documents"]] == ["@/received/2020-letter.md"]
    assert letters["documents"][0]["direction"] == "received"


async def test_document_by_portable_path_and_attachment(packages: Packages) -> None:
    async with spawn(**both(packages)) as client:
        storage = reply(await client.call_tool("document", {"name": "@/reports/storage.md"}))
        attachment = reply(await client.call_tool("document", {"name": "@/appendix/coordinates.md"}))
        letter = reply(
            await client.call_tool("document", {"name": "2020-letter.md", "package": "archive.mdcx"})
        )
        listed = reply(await client.call_tool("info", {"list_documents": True, "package": "lab.mdcx"}))
    source = (packages.folder / "src-lab" / "reports" / "storage.md").read_text(encoding="utf-8")
    assert storage["text"] == source and storage["next_offset"] is None
    assert (
        storage["package"] == "lab.mdcx"
        and storage["attachment"] is False
        and storage["dated"] == "2021-05-03"
    )
    assert attachment["attachment"] is True and "| 1 | 2 |" in attachment["text"]
    assert letter["document"] == "@/received/2020-letter.md" and letter["package"] == "archive.mdcx"
    attachments = [d["document"] for d in listed["documents"] if d["attachment"]]
    assert attachments == ["@/appendix/coordinates.md"]


async def test_long_document_is_read_in_pages(packages: Packages) -> None:
    source = (packages.folder / "src-lab" / "manual.md").read_text(encoding="utf-8")
    pages = []
    async with spawn(MDCX_FILE=str(packages.lab), MDCX_KEY=KEY) as client:
        offset = 0
        while offset is not None:
            page = reply(await client.call_tool("document", {"name": "manual.md", "offset": offset}))
            assert page["offset"] == offset and page["length"] == len(source)
            pages.append(page["text"])
            offset = page["next_offset"]
    assert len(pages) >= 2 and "".join(pages) == source


async def test_wrong_key_is_a_tool_error_naming_the_package(packages: Packages) -> None:
    # One passphrase for both packages: the archive's is another.
    env = {"MDCX_FILE": f"{packages.lab},{packages.archive}", "MDCX_KEY": KEY}
    async with spawn(**env) as client:
        searched = error_text(await client.call_tool("search", {"question": "reagents"}))
        read = error_text(await client.call_tool("document", {"name": "zeppelins.md", "package": "archive"}))
        # The package whose key is right still serves documents, and info still describes both.
        storage = reply(
            await client.call_tool("document", {"name": "@/reports/storage.md", "package": "lab"})
        )
        info = reply(await client.call_tool("info", {}))
    for text in (searched, read):
        assert "archive.mdcx" in text and "decryption failed" in text and "Traceback" not in text
    assert storage["package"] == "lab.mdcx"
    assert [(p["package"], p["open"]) for p in info["packages"]] == [
        ("lab.mdcx", True),
        ("archive.mdcx", False),
    ]


async def test_missing_document_and_bad_arguments_are_tool_errors(packages: Packages) -> None:
    async with spawn(MDCX_FILE=str(packages.lab), MDCX_KEY=KEY) as client:
        missing = error_text(await client.call_tool("document", {"name": "@/no/such.md"}))
        unknown_package = error_text(await client.call_tool("document", {"name": "x.md", "package": "other"}))
        empty = error_text(await client.call_tool("search", {"question": "   "}))
        bad_cursor = error_text(await client.call_tool("search", {"question": "reagents", "cursor": "xyz"}))
        too_many = error_text(await client.call_tool("search", {"question": "reagents", "limit": 500}))
    assert "no document named '@/no/such.md'" in missing
    assert "no package is named 'other'" in unknown_package and "lab.mdcx" in unknown_package
    assert "the question is empty" in empty
    assert "cursor" in bad_cursor
    assert "limit" in too_many


async def test_missing_package_file_stops_the_server_at_start(packages: Packages) -> None:
    missing = packages.folder / "absent.mdcx"
    process = await open_server(MDCX_FILE=f"{packages.lab},{missing}", MDCX_KEY=KEY)
    async with process:
        with anyio.fail_after(30):
            code = await process.wait()
        stderr = await read_all(process.stderr)
    assert code == 1
    assert stderr.strip() == f"mdcx-mcp: error: {missing}: no such file"


async def test_client_disconnect_ends_the_server_process(packages: Packages) -> None:
    process = await open_server(MDCX_FILE=str(packages.lab), MDCX_KEY=KEY)
    try:
        async with Client(PipeTransport(process)) as client:
            found = reply(await client.call_tool("search", {"question": "reagents"}))
            assert found["documents"]
            assert process.returncode is None  # serving while connected
        # The client has gone: only the server's standard input was closed, nothing signalled it.
        with anyio.fail_after(15):
            code = await process.wait()
        assert code == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_idle_unload_releases_packages_and_the_next_call_reloads_them(packages: Packages) -> None:
    # 0.04 minutes = 2.4 s: long enough that the calls made back to back below do not straddle it.
    async with spawn(**both(packages), MDCX_IDLE_UNLOAD_MINUTES="0.04") as client:
        before = reply(await client.call_tool("info", {}))
        first = reply(await client.call_tool("search", {"question": "storage temperature"}))
        loaded = reply(await client.call_tool("info", {}))
        await anyio.sleep(5.0)
        unloaded = reply(await client.call_tool("info", {}))
        again = reply(await client.call_tool("search", {"question": "storage temperature"}))
        reloaded = reply(await client.call_tool("info", {}))
    assert [p["open"] for p in before["packages"]] == [False, False]  # opened lazily
    assert before["idle"]["unload_after_minutes"] == 0.04 and before["idle"]["unloads"] == 0
    assert [p["open"] for p in loaded["packages"]] == [True, True]
    assert all(p["memory_bytes"] > 0 for p in loaded["packages"])
    assert [p["open"] for p in unloaded["packages"]] == [False, False]
    assert [p["memory_bytes"] for p in unloaded["packages"]] == [0, 0]
    assert unloaded["idle"]["unloads"] == 1 and unloaded["idle"]["idle_seconds"] >= 2.4
    assert unloaded["idle"]["last_unload_seconds_ago"] is not None
    assert again["documents"] == first["documents"]
    assert [p["open"] for p in reloaded["packages"]] == [True, True]


async def test_idle_unload_zero_never_unloads(packages: Packages) -> None:
    async with spawn(MDCX_FILE=str(packages.lab), MDCX_KEY=KEY, MDCX_IDLE_UNLOAD_MINUTES="0") as client:
        reply(await client.call_tool("search", {"question": "storage temperature"}))
        await anyio.sleep(1.5)
        info = reply(await client.call_tool("info", {}))
    assert info["idle"]["unload_after_minutes"] == 0 and info["idle"]["unloads"] == 0
    assert info["packages"][0]["open"] is True


async def test_a_hundred_packages_start_closed_and_open_when_reached(packages: Packages, tmp_path) -> None:
    copies = []
    for i in range(100):
        copy = tmp_path / f"lab-{i:03}.mdcx"
        shutil.copyfile(packages.lab, copy)
        copies.append(str(copy))
    async with spawn(MDCX_FILE=",".join(copies), MDCX_KEY=KEY) as client:
        before = reply(await client.call_tool("info", {}))
        found = reply(await client.call_tool("search", {"question": "storage temperature", "limit": 20}))
        after = reply(await client.call_tool("info", {}))
    assert len(before["packages"]) == 100 and not any(p["open"] for p in before["packages"])
    assert all((p["record"]["documents"], p["record"]["attachments"]) == (33, 1) for p in before["packages"])
    assert len({d["package"] for d in found["documents"]}) == 20
    assert all(p["open"] for p in after["packages"])
