"""mdcx-format stands alone: a fresh environment with only it, small, working."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("numpy", "torch", "docling", "sentence_transformers", "mcp", "transformers", "onnxruntime", "PIL")


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def test_import_is_light() -> None:
    code = "import sys, mdcx.format; print(__import__('json').dumps(sorted(sys.modules)))"
    modules = json.loads(subprocess.check_output([sys.executable, "-c", code]))
    assert not [m for m in modules if m.split(".")[0] in HEAVY]


@pytest.mark.skipif(shutil.which("uv") is None, reason="needs uv to build a fresh environment quickly")
def test_fresh_environment_with_only_mdcx_format(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run(["uv", "venv", "--quiet", "--python", sys.executable, str(venv)], check=True)
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    site = next(venv.glob("lib/python*/site-packages"), None) or venv / "Lib" / "site-packages"
    before = _size(site)
    subprocess.run(
        ["uv", "pip", "install", "--quiet", "--python", str(python), str(ROOT / "packages" / "mdcx-format")],
        check=True,
    )
    installed = _size(site) - before
    assert installed < 25 * 1_000_000, f"mdcx-format installs {installed / 1e6:.1f} MB"

    mdcx = venv / "bin" / "mdcx"
    assert subprocess.run([str(mdcx), "--help"], capture_output=True, text=True).returncode == 0
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.md").write_text("# Alpha\n\nThe reader finds this passage about lighthouses.\n")
    env = {**os.environ, "MDCX_KEY": "k"}
    subprocess.run(
        [str(mdcx), "pack", "--output", str(src), "--target", str(tmp_path / "a.mdcx")],
        check=True,
        env=env,
        capture_output=True,
    )
    out = subprocess.run(
        [str(mdcx), "search", str(tmp_path / "a.mdcx"), "lighthouses"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert out.returncode == 0 and "@/a.md" in out.stdout, out.stderr
    code = "import sys, json, mdcx.format; print(json.dumps(sorted(sys.modules)))"
    modules = json.loads(subprocess.check_output([str(python), "-c", code]))
    assert not [m for m in modules if m.split(".")[0] in HEAVY]
    freeze = subprocess.run(
        ["uv", "pip", "freeze", "--python", str(python)], capture_output=True, text=True
    ).stdout
    names = {line.split("==")[0].split(" @ ")[0].lower() for line in freeze.splitlines() if line}
    assert names <= {"mdcx-format", "apsw", "pycryptodomex", "pyyaml", "backports-zstd", "backports.zstd"}, (
        names
    )
