"""Documentation that tests itself: every option and public name is in the README."""

from __future__ import annotations

from pathlib import Path

import mdcx.convert
from mdcx.convert._cli import parser

ROOT = Path(__file__).resolve().parents[2]


def test_every_option_is_documented() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    options = [o for action in parser()._actions for o in action.option_strings if o.startswith("--")]
    missing = [o for o in options if o not in ("--help", "--version") and o not in readme]
    assert not missing, missing


def test_every_public_name_is_documented() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8") + (
        ROOT / "packages" / "mdcx-convert" / "README.md"
    ).read_text(encoding="utf-8")
    missing = [name for name in mdcx.convert.__all__ if not name.startswith("_") and name not in text]
    assert not missing, missing
