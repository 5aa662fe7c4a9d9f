"""The installed version, read from package metadata (one source of truth: pyproject)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("mdcx-format")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0+unknown"


def generator() -> str:
    return f"mdcx-format {__version__}"
