"""Running the ``mdcx`` command as a user would: a fresh process, no MDCX_ variable leaking in."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run_mdcx(
    *args: str,
    key: str | None = None,
    stdin: str | None = None,
    env: dict | None = None,
    cwd: Path | None = None,
    timeout: float = 300,
) -> subprocess.CompletedProcess:
    """``python -m mdcx.format ARGS``; ``key`` goes in MDCX_KEY, ``env`` on top of a clean environment."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("MDCX_")}
    if key is not None:
        full_env["MDCX_KEY"] = key
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "mdcx.format", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=full_env,
        cwd=cwd,
        timeout=timeout,
    )
