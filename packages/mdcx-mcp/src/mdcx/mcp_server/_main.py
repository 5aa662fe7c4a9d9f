"""``mdcx-mcp`` and ``python -m mdcx.mcp_server``: read the environment, serve over stdio.

Configuration comes only from the environment (see ``_config``); the only
arguments are ``--help`` and ``--version``.  A configuration that cannot
work (no package, a wrong path, no key, an unreadable key file) ends in one
line on standard error and exit status 1 before anything is served; once
serving, the process ends when its client closes standard input.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from mdcx.format import MdcxError

from ._config import DEFAULT_IDLE_MINUTES
from ._version import __version__

EXIT_ERROR = 1
EXIT_INTERRUPTED = 130

ENVIRONMENT = f"""environment:
  MDCX_FILE                 the .mdcx package to serve, or several separated by commas or {os.pathsep!r}
  MDCX_KEY_FILE             file holding the passphrase: one line for all packages, or one per package
  MDCX_KEY                  the passphrase (one for all, or one per package separated like MDCX_FILE);
                            MDCX_KEY_FILE takes precedence, and is the way for passphrases holding , or {os.pathsep}
  MDCX_IDLE_UNLOAD_MINUTES  release open packages and the encoder after this long idle
                            (default {DEFAULT_IDLE_MINUTES:g}, 0 = never)
The passphrase is never taken from the command line, where the process table would show it."""


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mdcx-mcp",
        description="Model Context Protocol server (stdio) answering questions from mdcx packages.",
        epilog=ENVIRONMENT,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"mdcx-mcp {__version__}")
    return parser


def _fail(message: str) -> None:
    first = message.strip().splitlines()[0] if message.strip() else "failed"
    try:
        print(f"mdcx-mcp: error: {first}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    try:
        sys.stderr.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    except (AttributeError, ValueError):
        pass
    parser().parse_args(argv)
    try:
        from ._config import read_config
        from ._service import Service

        service = Service(read_config())
        from ._server import create_server

        create_server(service).run("stdio")
        return 0
    except MdcxError as exc:
        _fail(str(exc))
        return EXIT_ERROR
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except Exception as exc:  # a bug: still one line, unless asked for more
        if os.environ.get("MDCX_DEBUG"):
            raise
        _fail(
            f"internal error ({type(exc).__name__}: {exc}); set MDCX_DEBUG=1 for details and please report it"
        )
        return EXIT_ERROR
