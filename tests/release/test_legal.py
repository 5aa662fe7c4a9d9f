"""The licence travels with every distribution, and NOTICE names every third-party dependency."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_distribution_carries_the_licence() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.lstrip().startswith("Apache License") and "END OF TERMS AND CONDITIONS" in text
    for folder in sorted((ROOT / "packages").iterdir()):
        if (folder / "pyproject.toml").is_file():
            assert (folder / "LICENSE").read_text(encoding="utf-8") == text, folder.name


def test_notice_is_current() -> None:
    """NOTICE is what tools/notice writes: a new dependency cannot land without its licence."""
    fresh = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "notice"), "--stdout"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert fresh == (ROOT / "NOTICE").read_text(encoding="utf-8"), "run: uv run python tools/notice"
