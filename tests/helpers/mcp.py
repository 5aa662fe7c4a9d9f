"""Talking to a spawned ``python -m mdcx.mcp_server`` as a real MCP client does."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
from anyio.abc import Process
from anyio.streams.text import TextReceiveStream
from mcp import Client, StdioServerParameters
from mcp.shared.message import SessionMessage

SERVER = [sys.executable, "-m", "mdcx.mcp_server"]
OTHER_KEY = "a second, different passphrase"


@dataclass(frozen=True)
class Packages:
    """The test packages: ``lab`` (key ``helpers.format.KEY``) and ``archive`` (key ``OTHER_KEY``)."""

    lab: Path
    archive: Path
    folder: Path


def server_env(**values: str) -> dict[str, str]:
    """The environment a client gives the server: MDCX_* settings and no model hub."""
    env = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PYTHONUTF8": "1"}
    env.update(values)
    return env


def spawn(**values: str) -> Client:
    """A client that starts the server over stdio with these MDCX_* settings."""
    return Client(StdioServerParameters(command=SERVER[0], args=SERVER[1:], env=server_env(**values)))


def reply(result: types.CallToolResult) -> dict[str, Any]:
    """The structured reply of a successful call, checked against its text rendering."""
    assert result.is_error is False, result.content
    assert result.structured_content is not None
    assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content


def error_text(result: types.CallToolResult) -> str:
    assert result.is_error is True
    return result.content[0].text


class PipeTransport:
    """Stdio transport over a process the test owns, so the test sees whether it exits by itself.

    Leaving the context only closes the server's standard input, as a client
    that disconnects does; it never signals or kills the process.
    """

    def __init__(self, process: Process):
        self.process = process

    @asynccontextmanager
    async def _streams(self) -> AsyncIterator[tuple[Any, Any]]:
        incoming_writer, incoming = anyio.create_memory_object_stream[SessionMessage | Exception](16)
        outgoing, outgoing_reader = anyio.create_memory_object_stream[SessionMessage](16)

        async def read() -> None:
            buffer = ""
            async with incoming_writer:
                async for chunk in TextReceiveStream(self.process.stdout):
                    lines = (buffer + chunk).split("\n")
                    buffer = lines.pop()
                    for line in lines:
                        if line.strip():
                            message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
                            await incoming_writer.send(SessionMessage(message))

        async def write() -> None:
            async with outgoing_reader:
                async for message in outgoing_reader:
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
                    await self.process.stdin.send(data.encode())

        async with anyio.create_task_group() as tg:
            tg.start_soon(read)
            tg.start_soon(write)
            try:
                yield incoming, outgoing
            finally:
                await outgoing.aclose()
                await self.process.stdin.aclose()  # the disconnect
                tg.cancel_scope.cancel()

    async def __aenter__(self):
        self._context = self._streams()
        return await self._context.__aenter__()

    async def __aexit__(self, *exc: object) -> None:
        await self._context.__aexit__(*exc)


async def open_server(**values: str) -> Process:
    env = {**os.environ, **server_env(**values)}
    return await anyio.open_process(SERVER, env=env)


async def read_all(stream: Any) -> str:
    chunks = []
    try:
        while True:
            chunks.append(await stream.receive())
    except anyio.EndOfStream:
        pass
    return b"".join(chunks).decode("utf-8", "replace")
