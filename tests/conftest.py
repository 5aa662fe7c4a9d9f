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


@pytest.fixture
def source_plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The test source plugins (``helpers.sources``) installed through a real entry point.

    In this process ``importlib.metadata`` finds them at once; the returned
    environment lets a child process (``python -m mdcx.sources``,
    ``mdcx-convert``) find them too.
    """
    from helpers.sources import install

    site = install(tmp_path / "site-packages")
    monkeypatch.syspath_prepend(str(site))
    tests = Path(__file__).resolve().parent
    path = os.pathsep.join([str(site), str(tests), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return {**os.environ, "PYTHONPATH": path}
