"""Debian's Chromium for the tools and tests that drive ``mdcx browse``'s page.

One list of launch flags and one way to find the browser, shared by
``tools/bench-browse``, ``tools/browse-screenshots`` and the tests
(``tests/helpers/browser.py``).  Nothing is ever downloaded.
"""

from __future__ import annotations

import os
import shutil

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
MISSING = "no Chromium: install Debian's (apt-get install chromium) or set MDCX_CHROMIUM"


def find() -> str | None:
    """The Chromium ``MDCX_CHROMIUM`` names, else the system's, else None."""
    return os.environ.get("MDCX_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
