"""Every distribution builds on its own, passes ``twine check``, and installs alone from its wheel.

Wheels are built once per module (``uv build --package NAME``: the sdist,
then the wheel from the sdist, so a file missing from the sdist fails here).
Each install is a fresh virtual environment holding one distribution's
wheel, the wheels of the workspace siblings it depends on, and whatever
else its declared dependencies pull from the package index: nothing of the
workspace leaks in.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DISTRIBUTIONS = ("mdcx", "mdcx-format", "mdcx-convert", "mdcx-embed", "mdcx-mcp", "mdcx-sources")
HEAVY = ("numpy", "torch", "docling", "sentence_transformers", "mcp", "transformers", "onnxruntime", "PIL")
MB = 1_000_000

pytestmark = pytest.mark.skipif(shutil.which("uv") is None, reason="needs uv to build and install quickly")


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    for name in DISTRIBUTIONS:
        subprocess.run(
            ["uv", "build", "--package", name, "--out-dir", str(out), "--quiet"], cwd=ROOT, check=True
        )
    return out


def _wheel(dist: Path, name: str) -> Path:
    (found,) = dist.glob(name.replace("-", "_") + "-*.whl")
    return found


class Venv:
    """A fresh virtual environment, and what installing into it added."""

    def __init__(self, folder: Path) -> None:
        subprocess.run(["uv", "venv", "--quiet", "--python", sys.executable, str(folder)], check=True)
        self.bin = folder / ("Scripts" if os.name == "nt" else "bin")
        self.python = self.bin / "python"
        self.site = next(folder.glob("lib/python*/site-packages"), None) or folder / "Lib" / "site-packages"
        self.empty = _size(self.site)  # uv's venv holds no pip or setuptools: this is the baseline

    def install(self, *wheels: Path) -> int:
        """Install the wheels (dependencies from the index); returns the bytes added to site-packages."""
        subprocess.run(
            ["uv", "pip", "install", "--quiet", "--python", str(self.python), *map(str, wheels)], check=True
        )
        return _size(self.site) - self.empty

    def names(self) -> set[str]:
        freeze = subprocess.run(
            ["uv", "pip", "freeze", "--python", str(self.python)], capture_output=True, text=True, check=True
        ).stdout
        return {
            line.split("==")[0].split(" @ ")[0].lower().replace("_", "-")
            for line in freeze.splitlines()
            if line
        }

    def run(self, *args: str, **kwargs) -> subprocess.CompletedProcess[str]:
        return subprocess.run(args, capture_output=True, text=True, timeout=120, **kwargs)

    def modules_after(self, statement: str) -> list[str]:
        code = f"import sys, json; {statement}; print(json.dumps(sorted(sys.modules)))"
        return json.loads(self.run(str(self.python), "-c", code).stdout)


def test_every_distribution_builds_and_passes_twine_check(dist: Path) -> None:
    for name in DISTRIBUTIONS:
        stem = name.replace("-", "_")
        assert list(dist.glob(f"{stem}-*.whl")) and list(dist.glob(f"{stem}-*.tar.gz")), name
    for wheel in dist.glob("*.whl"):  # the licence travels with every wheel
        with zipfile.ZipFile(wheel) as zf:
            assert any(n.endswith(".dist-info/licenses/LICENSE") for n in zf.namelist()), wheel.name
    files = sorted(str(p) for p in dist.iterdir() if p.name.endswith((".whl", ".tar.gz")))
    done = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *files], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2 * len(DISTRIBUTIONS)


def test_mdcx_format_installs_alone_small_and_light(dist: Path, tmp_path: Path) -> None:
    venv = Venv(tmp_path / "venv")
    installed = venv.install(_wheel(dist, "mdcx-format"))
    assert installed < 25 * MB, f"mdcx-format installs {installed / MB:.1f} MB"
    assert venv.names() <= {"mdcx-format", "apsw", "pycryptodomex", "pyyaml", "backports-zstd"}, venv.names()
    assert not [m for m in venv.modules_after("import mdcx.format") if m.split(".")[0] in HEAVY]

    mdcx = str(venv.bin / "mdcx")
    version = venv.run(mdcx, "--version")
    assert version.returncode == 0 and version.stdout.startswith("mdcx"), version.stderr
    usage = venv.run(mdcx, "--help")
    assert usage.returncode == 0 and "pack" in usage.stdout and "search" in usage.stdout, usage.stderr
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.md").write_text("# Alpha\n\nThe reader finds this passage about lighthouses.\n")
    env = {**os.environ, "MDCX_KEY": "k"}
    packed = venv.run(mdcx, "pack", "--output", str(src), "--target", str(tmp_path / "a.mdcx"), env=env)
    assert packed.returncode == 0, packed.stderr
    found = venv.run(mdcx, "search", str(tmp_path / "a.mdcx"), "lighthouses", env=env)
    assert found.returncode == 0 and "@/a.md" in found.stdout, found.stderr


def test_mdcx_mcp_installs_with_only_mdcx_format_beside_it(dist: Path, tmp_path: Path) -> None:
    venv = Venv(tmp_path / "venv")
    venv.install(_wheel(dist, "mdcx-mcp"), _wheel(dist, "mdcx-format"))
    names = venv.names()
    assert {"mdcx-mcp", "mdcx-format", "mcp"} <= names
    assert not names & {"mdcx-embed", "mdcx-convert", "mdcx-sources", "torch", "numpy", "onnxruntime"}, names
    version = venv.run(str(venv.bin / "mdcx-mcp"), "--version")
    assert version.returncode == 0 and version.stdout.startswith("mdcx-mcp"), version.stderr
    assert "mcp" not in {m.split(".")[0] for m in venv.modules_after("import mdcx.mcp_server")}
    # No package configured: one line and status 1, from the installed server.
    env = {k: v for k, v in os.environ.items() if not k.startswith("MDCX_")}
    started = venv.run(str(venv.bin / "mdcx-mcp"), env=env)
    assert started.returncode == 1 and started.stderr.startswith("mdcx-mcp: error: "), started.stderr


def test_mdcx_sources_installs_with_nothing_else(dist: Path, tmp_path: Path) -> None:
    venv = Venv(tmp_path / "venv")
    venv.install(_wheel(dist, "mdcx-sources"))
    assert venv.names() == {"mdcx-sources"}
    listed = venv.run(str(venv.python), "-m", "mdcx.sources")
    assert listed.returncode == 0 and "no sources installed" in listed.stdout, listed.stderr


def test_the_umbrella_installs_the_reader(dist: Path, tmp_path: Path) -> None:
    venv = Venv(tmp_path / "venv")
    venv.install(_wheel(dist, "mdcx"), _wheel(dist, "mdcx-format"))
    assert {"mdcx", "mdcx-format"} <= venv.names()
    assert venv.run(str(venv.bin / "mdcx"), "--version").returncode == 0
    metadata = venv.run(
        str(venv.python),
        "-c",
        "from importlib.metadata import metadata; print(metadata('mdcx').get_all('Provides-Extra'))",
    ).stdout
    for extra in ("convert", "ocr", "mcp", "multilingual", "zstd", "all", "all-gpu"):
        assert f"'{extra}'" in metadata, extra
