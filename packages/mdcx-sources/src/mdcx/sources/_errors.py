"""The errors of mdcx-sources.

mdcx-sources depends on the standard library only (so a catalogue plugin
installs nothing of mdcx's heavy side), which keeps it out of mdcx.format's
``MdcxError`` tree: its root is ``SourceError``.  mdcx-convert translates
these into ``MdcxError``s at its boundary, like any other third-party error.
"""

from __future__ import annotations


class SourceError(Exception):
    """Root of every error mdcx-sources raises on purpose."""


class PluginError(SourceError):
    """A source plugin is not installed, cannot be loaded, or is not a source."""


class FetchError(SourceError):
    """A candidate's bytes cannot be had; plugins raise it (or a subclass) from ``fetch``."""


class RateLimited(FetchError):
    """The server asked the caller to slow down (HTTP 429 or 503 with ``Retry-After``).

    ``retry_after`` is the server's ``Retry-After`` as given: seconds (a number
    or a string of digits), an HTTP date, or None when the server named no
    delay.  ``patiently`` honours it.
    """

    def __init__(self, message: str = "rate limited", retry_after: object = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after
