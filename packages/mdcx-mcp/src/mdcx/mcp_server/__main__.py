"""``python -m mdcx.mcp_server``: the MCP server over stdio."""

import sys

from ._main import main

sys.exit(main())
