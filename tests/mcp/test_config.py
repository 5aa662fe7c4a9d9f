"""Configuration from the environment: packages, passphrases, idle time; one clear line when wrong."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.format import KEY
from helpers.mcp import OTHER_KEY, SERVER, Packages, server_env
from mdcx.format import PassphraseError
from mdcx.mcp_server import DEFAULT_IDLE_MINUTES, ConfigError, read_config


def test_one_package_one_key() -> None:
    config = read_config({"MDCX_FILE": "a.mdcx", "MDCX_KEY": "k"})
    assert config.paths == ("a.mdcx",) and config.keys == ("k",)
    assert config.idle_minutes == DEFAULT_IDLE_MINUTES == 30


@pytest.mark.parametrize("separator", [",", os.pathsep])
def test_several_packages_one_key_each_or_one_for_all(separator: str) -> None:
    files = separator.join(["a.mdcx", "b.mdcx", "c.mdcx"])
    assert read_config({"MDCX_FILE": files, "MDCX_KEY": "k"}).keys == ("k", "k", "k")
    each = read_config({"MDCX_FILE": files, "MDCX_KEY": separator.join(["k1", "k2", "k3"])})
    assert each.paths == ("a.mdcx", "b.mdcx", "c.mdcx") and each.keys == ("k1", "k2", "k3")


def test_key_file_takes_precedence_and_keeps_commas_and_colons(tmp_path: Path) -> None:
    keys = tmp_path / "keys.txt"
    keys.write_text(f"{KEY}\n{OTHER_KEY}: with a colon\n", encoding="utf-8")
    config = read_config({"MDCX_FILE": "a.mdcx,b.mdcx", "MDCX_KEY": "ignored", "MDCX_KEY_FILE": str(keys)})
    assert config.keys == (KEY, f"{OTHER_KEY}: with a colon")
    one = tmp_path / "one.txt"
    one.write_text("only, one\n", encoding="utf-8")
    assert read_config({"MDCX_FILE": "a.mdcx,b.mdcx", "MDCX_KEY_FILE": str(one)}).keys == ("only, one",) * 2


def test_key_is_not_in_the_config_repr() -> None:
    assert "secret-words" not in repr(read_config({"MDCX_FILE": "a.mdcx", "MDCX_KEY": "secret-words"}))


@pytest.mark.parametrize(("value", "minutes"), [("0", 0.0), ("5", 5.0), ("0.05", 0.05), (" ", 30.0)])
def test_idle_minutes(value: str, minutes: float) -> None:
    config = read_config({"MDCX_FILE": "a.mdcx", "MDCX_KEY": "k", "MDCX_IDLE_UNLOAD_MINUTES": value})
    assert config.idle_minutes == minutes and config.idle_seconds == minutes * 60


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"MDCX_KEY": "k"}, "MDCX_FILE is not set"),
        ({"MDCX_FILE": " , ", "MDCX_KEY": "k"}, "MDCX_FILE is not set"),
        ({"MDCX_FILE": "a.mdcx"}, "no passphrase: set MDCX_KEY_FILE"),
        (
            {"MDCX_FILE": "a.mdcx", "MDCX_KEY": "k", "MDCX_IDLE_UNLOAD_MINUTES": "soon"},
            "MDCX_IDLE_UNLOAD_MINUTES",
        ),
        ({"MDCX_FILE": "a.mdcx", "MDCX_KEY": "k", "MDCX_IDLE_UNLOAD_MINUTES": "-1"}, "0 or more"),
        ({"MDCX_FILE": "a.mdcx", "MDCX_KEY": "k", "MDCX_IDLE_UNLOAD_MINUTES": "nan"}, "0 or more"),
    ],
)
def test_bad_configuration(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        read_config(env)


def test_key_file_problems(tmp_path: Path) -> None:
    with pytest.raises(PassphraseError, match="does not exist"):
        read_config({"MDCX_FILE": "a.mdcx", "MDCX_KEY_FILE": str(tmp_path / "absent.txt")})
    three = tmp_path / "three.txt"
    three.write_text("a\nb\nc\n", encoding="utf-8")
    with pytest.raises(PassphraseError, match="3 passphrases for 2 packages"):
        read_config({"MDCX_FILE": "a.mdcx,b.mdcx", "MDCX_KEY_FILE": str(three)})


def _start(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*SERVER, *args],
        env={**server_env(**env), "PATH": os.environ.get("PATH", "")},
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_bad_configuration_at_start_is_one_line_and_exit_1(packages: Packages, tmp_path: Path) -> None:
    not_a_package = tmp_path / "notes.mdcx"
    not_a_package.write_text("just text\n", encoding="utf-8")
    cases = [
        ({}, "MDCX_FILE is not set"),
        ({"MDCX_FILE": str(packages.lab)}, "no passphrase"),
        ({"MDCX_FILE": str(tmp_path / "absent.mdcx"), "MDCX_KEY": KEY}, "absent.mdcx: no such file"),
        ({"MDCX_FILE": str(not_a_package), "MDCX_KEY": KEY}, "notes.mdcx: not an .mdcx package"),
        ({"MDCX_FILE": str(packages.lab), "MDCX_KEY_FILE": str(tmp_path / "k.txt")}, "does not exist"),
        ({"MDCX_FILE": str(packages.lab), "MDCX_KEY": KEY, "MDCX_IDLE_UNLOAD_MINUTES": "x"}, "MINUTES"),
        ({"MDCX_FILE": f"{packages.lab},{packages.lab}", "MDCX_KEY": KEY}, "share a file name"),
    ]
    for env, message in cases:
        done = _start(env)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 1, (env, done.stderr)
        assert len(lines) == 1 and lines[0].startswith("mdcx-mcp: error: ") and message in lines[0], lines
        assert done.stdout == ""


def test_help_names_the_environment_and_no_key_option() -> None:
    done = _start({}, "--help")
    assert done.returncode == 0
    for name in ("MDCX_FILE", "MDCX_KEY", "MDCX_KEY_FILE", "MDCX_IDLE_UNLOAD_MINUTES"):
        assert name in done.stdout
    assert "--key" not in done.stdout
    refused = _start({}, "--key", "secret")
    assert refused.returncode == 2 and "unrecognized arguments" in refused.stderr


def test_importing_the_package_imports_no_server_machinery() -> None:
    code = (
        "import sys, mdcx.mcp_server; "
        "print(sorted(m for m in ('mcp', 'pydantic', 'starlette', 'anyio', 'uvicorn') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[]"


def test_console_script_is_the_same_program() -> None:
    script = Path(sys.executable).with_name("mdcx-mcp.exe" if os.name == "nt" else "mdcx-mcp")
    done = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip().startswith("mdcx-mcp 0.")
    missing = subprocess.run(
        [str(script)], env={"PATH": os.environ.get("PATH", "")}, capture_output=True, text=True, timeout=60
    )
    assert missing.returncode == 1 and missing.stderr.startswith("mdcx-mcp: error: MDCX_FILE is not set")
