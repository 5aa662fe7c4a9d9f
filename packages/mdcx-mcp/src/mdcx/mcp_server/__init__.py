"""mdcx.mcp_server: mdcx packages as tools for agents over the Model Context Protocol.

Run it as ``mdcx-mcp`` or ``python -m mdcx.mcp_server``, configured by the
environment (``MDCX_FILE``, ``MDCX_KEY`` or ``MDCX_KEY_FILE``,
``MDCX_IDLE_UNLOAD_MINUTES``).  From Python::

    from mdcx.mcp_server import Service, create_server, read_config

    server = create_server(Service(read_config()))   # an mcp.server.MCPServer
    server.run("stdio")

Importing this module imports neither the MCP SDK nor pydantic; they are
loaded when a server is created.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._config import DEFAULT_IDLE_MINUTES, Config, ConfigError, read_config
from ._idle import IdleUnloader
from ._main import main
from ._replies import REPLY_BYTES
from ._service import Service
from ._version import __version__

if TYPE_CHECKING:
    from mcp.server import MCPServer


def create_server(service: Service) -> MCPServer:
    """An ``mcp.server.MCPServer`` with the tools ``search``, ``document`` and ``info``."""
    from ._server import create_server as create

    return create(service)


__all__ = [
    "DEFAULT_IDLE_MINUTES",
    "REPLY_BYTES",
    "Config",
    "ConfigError",
    "IdleUnloader",
    "Service",
    "__version__",
    "create_server",
    "main",
    "read_config",
]
