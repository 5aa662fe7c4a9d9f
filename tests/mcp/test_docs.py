"""The package README documents every tool, parameter, reply field and setting the server has."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers.format import KEY
from helpers.mcp import Packages
from mcp import Client
from mdcx.mcp_server import Config, Service, create_server

pytestmark = pytest.mark.anyio

README = (Path(__file__).resolve().parents[2] / "packages" / "mdcx-mcp" / "README.md").read_text(
    encoding="utf-8"
)


def properties(schema: dict, root: dict | None = None) -> set[str]:
    """Every property name in a JSON schema, nested definitions included."""
    root = root or schema
    names = set(schema.get("properties", {}))
    for value in [*schema.get("properties", {}).values(), *schema.get("$defs", {}).values()]:
        names |= properties(value, root)
    for key in ("anyOf", "allOf", "oneOf"):
        for value in schema.get(key, []):
            names |= properties(value, root)
    if "items" in schema:
        names |= properties(schema["items"], root)
    return names


async def test_every_tool_parameter_and_reply_field_is_documented(packages: Packages) -> None:
    service = Service(Config((str(packages.lab),), (KEY,), idle_minutes=0))
    async with Client(create_server(service)) as client:
        tools = (await client.list_tools()).tools
    assert tools
    for tool in tools:
        assert f"### `{tool.name}`" in README
        section = README.split(f"### `{tool.name}`")[1].split("\n## ")[0].split("\n### ")[0]
        for name in tool.input_schema["properties"]:
            assert f"| `{name}` |" in section, (tool.name, name)
        for name in properties(tool.output_schema):
            assert f"`{name}`" in README, (tool.name, name)


def test_every_setting_is_documented() -> None:
    source = (Path(__file__).resolve().parents[2] / "packages" / "mdcx-mcp" / "src").rglob("*.py")
    names = set()
    for path in source:
        names |= set(re.findall(r"MDCX_[A-Z_]+", path.read_text(encoding="utf-8")))
    assert names >= {"MDCX_FILE", "MDCX_KEY", "MDCX_KEY_FILE", "MDCX_IDLE_UNLOAD_MINUTES"}
    for name in names:
        assert f"| `{name}` |" in README, name
