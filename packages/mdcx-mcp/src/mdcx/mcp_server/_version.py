"""The installed distribution's version, read from its metadata."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("mdcx-mcp")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"
