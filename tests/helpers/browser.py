"""Debian's Chromium, driven by Playwright, for the browse page's tests.

Never downloads a browser: it uses the system's ``chromium`` (``apt-get
install chromium``; ``.ci/run`` installs it), or the one ``MDCX_CHROMIUM``
names, and skips with the reason when there is none.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

from chromium import FLAGS, MISSING, find

__all__ = ["FLAGS", "chromium_path"]


def chromium_path() -> str:
    """The Chromium to test with, or a skip that says how to get one."""
    path = find()
    if not path:
        pytest.skip(MISSING)
    return path
