"""tools/release on a temporary clone of the repository: bump, date the changelog, lock, commit, tag."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "release"
IDENTITY = {
    "GIT_AUTHOR_NAME": "Release Test",
    "GIT_AUTHOR_EMAIL": "release@example.org",
    "GIT_COMMITTER_NAME": "Release Test",
    "GIT_COMMITTER_EMAIL": "release@example.org",
}

pytestmark = pytest.mark.skipif(
    shutil.which("uv") is None or shutil.which("git") is None or not (ROOT / ".git").exists(),
    reason="needs git, uv and a git checkout to clone",
)


def tool(*args: str, root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(TOOL), *args, "--root", str(root)],
        capture_output=True,
        text=True,
        env={**os.environ, **IDENTITY},
        timeout=180,
    )


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout


def version(root: Path, folder: str) -> str:
    return tomllib.loads((root / "packages" / folder / "pyproject.toml").read_text())["project"]["version"]


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    target = tmp_path / "repo"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(target)], check=True)
    return target


def test_the_workspace_versions_agree() -> None:
    done = tool("--check", root=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("versions agree: ")


def test_release_bumps_dates_locks_commits_and_tags(clone: Path) -> None:
    head = git(clone, "rev-parse", "HEAD")
    dry = tool("mdcx-mcp", "patch", "--date", "2030-01-02", "--dry-run", root=clone)
    assert dry.returncode == 0, dry.stderr
    assert "dry run, nothing changed" in dry.stdout and "0.1.0 -> 0.1.1" in dry.stdout
    assert git(clone, "status", "--porcelain") == "" and git(clone, "rev-parse", "HEAD") == head

    done = tool("mdcx-mcp", "patch", "--date", "2030-01-02", root=clone)
    assert done.returncode == 0, done.stderr
    assert version(clone, "mdcx-mcp") == "0.1.1"
    changelog = (clone / "packages" / "mdcx-mcp" / "CHANGELOG.md").read_text()
    assert (
        "## [Unreleased]\n\n## [0.1.1] - 2030-01-02\n\n### Added\n- " in changelog
    )  # entries moved under it
    assert changelog.count("## [") == 2 and "- The MCP server over stdio" in changelog.split("## [0.1.1]")[1]
    listing = json.loads((clone / "packages" / "mdcx-mcp" / "server.json").read_text())
    assert listing["version"] == "0.1.1" and listing["packages"][0]["version"] == "0.1.1"
    lock = (clone / "uv.lock").read_text()
    assert 'name = "mdcx-mcp"\nversion = "0.1.1"' in lock
    assert git(clone, "log", "-1", "--format=%s") == "mdcx-mcp 0.1.1\n"
    assert git(clone, "tag", "--list", "mdcx-mcp-v*") == "mdcx-mcp-v0.1.1\n"
    assert git(clone, "status", "--porcelain") == ""
    assert tool("--check", root=clone).returncode == 0

    umbrella = tool("mdcx", "2.1.0", "--date", "2030-01-03", root=clone)
    assert umbrella.returncode == 0, umbrella.stderr
    citation = (clone / "CITATION.cff").read_text()
    assert 'version: 2.1.0\ndate-released: "2030-01-03"\n' in citation
    assert git(clone, "tag", "--list", "mdcx-v*") == "mdcx-v2.1.0\n"
    assert tool("--check", root=clone).returncode == 0

    again = tool("mdcx-mcp", "0.1.1", root=clone)
    assert again.returncode == 1 and "is not above it" in again.stderr
    empty = tool("mdcx-mcp", "patch", root=clone)  # its Unreleased section is empty now
    assert empty.returncode == 1 and "nothing to release" in empty.stderr


def test_release_refuses_what_would_break_a_sibling_or_a_dirty_tree(clone: Path) -> None:
    blocked = tool("mdcx-sources", "minor", root=clone)
    assert blocked.returncode == 1
    assert (
        "mdcx-sources 0.2.0 falls outside what mdcx-convert (mdcx-sources<0.2,>=0.1) accept" in blocked.stderr
    )
    assert blocked.stderr.count("\n") == 1
    (clone / "packages" / "mdcx-sources" / "README.md").write_text("edited\n")
    dirty = tool("mdcx-sources", "patch", root=clone)
    assert dirty.returncode == 1 and "uncommitted changes" in dirty.stderr
    assert version(clone, "mdcx-sources") == "0.1.0"
    unknown = tool("mdcx-nothing", "patch", root=clone)
    assert unknown.returncode == 1 and "no distribution 'mdcx-nothing'" in unknown.stderr
