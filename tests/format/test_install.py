"""mdcx-format stays light to import (installing it alone, from its wheel: tests/release)."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("numpy", "torch", "docling", "sentence_transformers", "mcp", "transformers", "onnxruntime", "PIL")


def test_import_is_light() -> None:
    code = "import sys, mdcx.format; print(__import__('json').dumps(sorted(sys.modules)))"
    modules = json.loads(subprocess.check_output([sys.executable, "-c", code]))
    assert not [m for m in modules if m.split(".")[0] in HEAVY]
