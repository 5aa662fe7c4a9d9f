"""Fixtures shared by every package's tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# No test may reach a model hub: fail at once instead of retrying for a minute.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPORA = Path(os.environ.get("MDCX_CORPORA", SHARED / "corpora"))


def corpus_path(*parts: str) -> Path:
    """A folder of the shared corpora, or a skip saying why it is absent."""
    path = CORPORA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared corpus {path} is absent (set MDCX_CORPORA to its folder)")
    return path
