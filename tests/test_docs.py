"""Documentation that tests itself: nothing a user can call goes undocumented.

Which README documents what:

- the ``mdcx`` command (every subcommand in its own ``### `mdcx NAME` ``
  section, with all its options) and mdcx.format's errors:
  ``packages/mdcx-format/README.md``;
- ``mdcx-convert``'s options, mdcx.convert's public names and errors:
  ``packages/mdcx-convert/README.md``;
- ``mdcx-mcp``'s options and errors: ``packages/mdcx-mcp/README.md``; its MCP
  tools, their parameters and reply fields, and its settings are checked by
  ``tests/mcp/test_docs.py`` (it needs a running server);
- ``python -m mdcx.sources``, every member of the plugin contract and kit,
  and mdcx-sources' errors: ``packages/mdcx-sources/README.md``;
- the umbrella's extras: ``packages/mdcx/README.md``;
- every console command also in the project README.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import tomllib
from collections.abc import Callable
from pathlib import Path

import mdcx.convert
import mdcx.embed
import mdcx.format
import mdcx.mcp_server
import mdcx.sources
import pytest
from mdcx.convert._cli import parser as convert_parser
from mdcx.format._cli import parser as mdcx_parser
from mdcx.mcp_server._main import parser as mcp_parser
from mdcx.sources._cli import parser as sources_parser

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ROOT / "packages"


def readme(folder: str | None = None) -> str:
    path = (PACKAGES / folder / "README.md") if folder else ROOT / "README.md"
    return path.read_text(encoding="utf-8")


def options(parser: argparse.ArgumentParser) -> list[str]:
    return [o for a in parser._actions for o in a.option_strings if o.startswith("--") and o != "--help"]


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    found: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found.update(action.choices)
    return found


def section(text: str, heading: str) -> str:
    """The text under ``heading`` up to the next heading of its level or above."""
    assert heading in text, f"no section {heading!r}"
    level = heading.split(" ", 1)[0]
    rest = text.split(heading, 1)[1]
    ends = [m.start() for m in re.finditer(rf"^#{{1,{len(level)}}} ", rest, re.M)]
    return rest[: ends[0]] if ends else rest


COMMANDS: list[tuple[str, str, Callable[[], argparse.ArgumentParser]]] = [
    ("mdcx", "mdcx-format", mdcx_parser),
    ("mdcx-convert", "mdcx-convert", convert_parser),
    ("mdcx-mcp", "mdcx-mcp", mcp_parser),
    ("python -m mdcx.sources", "mdcx-sources", sources_parser),
]


def test_every_console_command_is_documented() -> None:
    scripts = {}
    for pyproject in PACKAGES.glob("*/pyproject.toml"):
        project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
        scripts.update({name: pyproject.parent.name for name in project.get("scripts", {})})
    assert set(scripts) == {"mdcx", "mdcx-convert", "mdcx-mcp"}
    for name, folder in [*scripts.items(), ("python -m mdcx.sources", "mdcx-sources")]:
        assert f"{name} " in readme(folder), (name, folder)
        assert f"{name} " in readme(), name


@pytest.mark.parametrize(("command", "folder", "make"), COMMANDS, ids=[c[0] for c in COMMANDS])
def test_every_option_is_documented(command: str, folder: str, make: Callable) -> None:
    text = readme(folder)
    parser = make()
    missing = [o for o in options(parser) if o not in text]
    for name, sub in subcommands(parser).items():
        part = section(text, f"### `{command} {name}`")
        missing += [f"{name} {o}" for o in options(sub) if o not in part]
    assert not missing, f"undocumented in packages/{folder}/README.md: {missing}"


def _contract_members() -> set[str]:
    """Every name a plugin author or a caller of the kit meets."""
    s = mdcx.sources
    names = {n for n in s.__all__ if n != "__version__"}
    for cls in (s.Candidate, s.Conformance, s.Fetched, s.Plugin, s.Failure):
        names |= {f.name for f in dataclasses.fields(cls)}
    names |= {"host", "ok", "candidates", "fetch", "retry_after"}
    return names


def test_every_plugin_contract_member_is_documented() -> None:
    text = readme("mdcx-sources")
    missing = sorted(n for n in _contract_members() if not re.search(rf"`(?:\w+\.)?{re.escape(n)}\b", text))
    assert not missing, f"undocumented in packages/mdcx-sources/README.md: {missing}"


PUBLIC = [
    (mdcx.format, "mdcx-format"),
    (mdcx.convert, "mdcx-convert"),
    (mdcx.embed, "mdcx-embed"),
    (mdcx.mcp_server, "mdcx-mcp"),
    (mdcx.sources, "mdcx-sources"),
]


def _errors(module) -> list[str]:
    return [
        n
        for n in module.__all__
        if isinstance(getattr(module, n), type) and issubclass(getattr(module, n), Exception)
    ]


@pytest.mark.parametrize(("module", "folder"), PUBLIC, ids=[p[1] for p in PUBLIC])
def test_every_public_error_is_documented(module, folder: str) -> None:
    text = readme(folder)
    missing = [n for n in _errors(module) if f"`{n}`" not in text]
    assert not missing, f"undocumented in packages/{folder}/README.md: {missing}"


def test_every_error_of_the_tree_is_public() -> None:
    """An MdcxError subclass that no package exports could not be caught by name, nor documented."""

    def tree(cls: type) -> set[type]:
        return {cls} | {c for sub in cls.__subclasses__() for c in tree(sub)}

    exported = {getattr(m, n) for m, _ in PUBLIC for n in _errors(m)}
    hidden = sorted(f"{c.__module__}.{c.__qualname__}" for c in tree(mdcx.format.MdcxError) - exported)
    assert not hidden, hidden


def test_every_public_name_of_mdcx_convert_is_documented() -> None:
    text = readme() + readme("mdcx-convert")
    missing = [n for n in mdcx.convert.__all__ if not n.startswith("_") and n not in text]
    assert not missing, missing


def test_every_extra_of_the_umbrella_is_documented() -> None:
    project = tomllib.loads((PACKAGES / "mdcx" / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    text = readme("mdcx")
    missing = [e for e in project["optional-dependencies"] if f'"mdcx[{e}]"' not in text]
    assert not missing, missing
    tiers = section(readme(), "## Install tiers")
    assert '"mdcx[all]"' in tiers and '"mdcx[all-gpu]"' in tiers and "not yet" not in tiers
