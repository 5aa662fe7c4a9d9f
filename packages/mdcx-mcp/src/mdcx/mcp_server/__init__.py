"""mdcx.mcp_server: mdcx packages as tools for agents over the Model Context Protocol.

Not implemented yet: this distribution holds its place in the workspace so the
layout is final.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("mdcx-mcp")
except PackageNotFoundError:
    __version__ = "0+unknown"
