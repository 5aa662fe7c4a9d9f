"""The contract between a catalogue plugin and mdcx.

A *source* is what the entry point named in the group ``mdcx.sources``
loads: a class (instantiated with no arguments), or any object or module
with the two methods below.  It yields *candidates*, records of documents
it can fetch, and fetches a candidate's bytes on request.  mdcx itself never
opens a connection: the plugin holds the catalogue's knowledge (paging,
identifiers, how downloads are reached) and its network client.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable
from urllib.parse import urlsplit

GROUP = "mdcx.sources"


@dataclass(frozen=True)
class Candidate:
    """One document a catalogue offers.

    ``date`` is ISO 8601 at year, month or day precision (``2021``,
    ``2021-03``, ``2021-03-04``), or None when the catalogue holds no
    trustworthy date.  ``download`` is where the bytes will be fetched from,
    when the catalogue knows it without another request; None otherwise.
    """

    identifier: str
    title: str | None = None
    date: str | None = None
    download: str | None = None

    @property
    def host(self) -> str | None:
        """The server named by ``download`` (lower case), or None when it is not known."""
        if not self.download:
            return None
        try:
            return urlsplit(self.download).hostname or None
        except ValueError:  # a malformed address (bad port, bad IPv6 literal) names no host
            return None


@runtime_checkable
class Source(Protocol):
    """What a catalogue plugin provides."""

    def candidates(self) -> Iterable[Candidate]:
        """The documents on offer, in the catalogue's own order; may be a lazy generator."""
        ...

    def fetch(self, candidate: Candidate) -> bytes:
        """The candidate's bytes; raises ``FetchError`` (``RateLimited`` when told to wait)."""
        ...
