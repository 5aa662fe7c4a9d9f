"""The README's first command: convert the sample documents, pack them, ask them a question."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_readme_command_converts_packs_and_answers(tmp_path: Path) -> None:
    md, package = tmp_path / "demo-md", tmp_path / "demo.mdcx"
    run = [sys.executable, "-m"]
    subprocess.run([*run, "mdcx.convert", "--input", str(ROOT / "examples" / "documents"), "--output", str(md)],
                   check=True, capture_output=True)  # fmt: skip
    subprocess.run([*run, "mdcx.format", "pack", "--output", str(md), "--target", str(package), "--key", "demo"],
                   check=True, capture_output=True)  # fmt: skip
    found = subprocess.run(
        [
            *run,
            "mdcx.format",
            "search",
            str(package),
            "which fog signal carried furthest",
            "--key",
            "demo",
            "--json",
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    answer = json.loads(found.stdout)
    best = answer["documents"][0]
    assert best["document"] == "@/fog-signal-trials.md"
    assert best["passages"][0]["page"] == 2
    index = json.loads((md / "_mdcx" / "run.json").read_text(encoding="utf-8"))
    assert index["summary"]["converted"] == 3 and index["summary"]["coverage"] == 1.0
