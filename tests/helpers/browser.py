"""Debian's Chromium, driven by Playwright, for the browse page's tests.

Never downloads a browser: it uses the system's ``chromium`` (``apt-get
install chromium``; ``.ci/run`` installs it), or the one ``MDCX_CHROMIUM``
names, and skips with the reason when there is none.
"""

from __future__ import annotations

import os
import shutil

import pytest

# Root in a container: no sandbox.  The network flags stop Chromium reaching
# for Google's services, which these machines refuse.
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def chromium_path() -> str:
    """The Chromium to test with, or a skip that says how to get one."""
    path = os.environ.get("MDCX_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        pytest.skip("no Chromium: install Debian's (apt-get install chromium) or set MDCX_CHROMIUM")
    return path
