"""The MCP registry listing: server.json valid against the registry's schema, and agreeing with the package."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "packages" / "mdcx-mcp"
SCHEMA = Path(__file__).parent / "data" / "server-schema-2025-12-11" / "server.schema.json"


@pytest.fixture(scope="module")
def server() -> dict:
    return json.loads((PACKAGE / "server.json").read_text(encoding="utf-8"))


def test_valid_against_the_registry_schema(server: dict) -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert server["$schema"] == schema["$id"]
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    assert [e.message for e in validator.iter_errors(server)] == []


def test_the_schema_check_catches_what_the_registry_refuses(server: dict) -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.Draft7Validator(schema)
    for broken in (
        {**server, "description": "x" * 101},
        {**server, "name": "no-namespace"},
        {k: v for k, v in server.items() if k != "version"},
        {**server, "packages": [{**server["packages"][0], "version": "latest"}]},
    ):
        assert list(validator.iter_errors(broken))


def test_agrees_with_the_distribution(server: dict) -> None:
    project = tomllib.loads((PACKAGE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    (package,) = server["packages"]
    assert package["registryType"] == "pypi" and package["registryBaseUrl"] == "https://pypi.org"
    assert package["identifier"] == project["name"] == "mdcx-mcp"
    assert package["version"] == server["version"] == project["version"]
    assert package["runtimeHint"] == "uvx" and package["transport"] == {"type": "stdio"}
    assert len(server["description"]) <= 100


def test_environment_variables_say_which_are_required_and_secret(server: dict) -> None:
    env = {v["name"]: v for v in server["packages"][0]["environmentVariables"]}
    assert set(env) == {"MDCX_FILE", "MDCX_KEY", "MDCX_KEY_FILE", "MDCX_IDLE_UNLOAD_MINUTES"}
    assert all({"isRequired", "isSecret", "description"} <= set(v) for v in env.values())
    assert env["MDCX_FILE"]["isRequired"] is True
    assert [name for name, v in env.items() if v["isSecret"]] == ["MDCX_KEY"]
    assert env["MDCX_IDLE_UNLOAD_MINUTES"]["default"] == "30"


def test_readme_carries_the_registry_name_marker(server: dict) -> None:
    readme = (PACKAGE / "README.md").read_text(encoding="utf-8")
    assert re.findall(r"mcp-name: (\S+)", readme) == [server["name"]]
