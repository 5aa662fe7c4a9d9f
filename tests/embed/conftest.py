"""Fixtures for mdcx-embed: tiny local models, no downloads."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.embed import build_tiny_model


@pytest.fixture(scope="session")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_model(tmp_path_factory.mktemp("models"), dim=32, seed=0)


@pytest.fixture(scope="session")
def tiny_other(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Another model (other width and weights): its vectors live in another space."""
    return build_tiny_model(tmp_path_factory.mktemp("models-b"), dim=48, seed=1)
