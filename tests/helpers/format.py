"""Building small real packages quickly."""

from __future__ import annotations

from pathlib import Path

from mdcx.format import KdfParams

# Cheap scrypt for library-level tests; CLI tests in subprocesses use the real default.
FAST_KDF = KdfParams(n=1 << 10, r=8, p=1)
KEY = "correct horse battery staple"


def write(root: Path, relative: str, text: str | bytes) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    return path
