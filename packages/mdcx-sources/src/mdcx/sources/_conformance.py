"""Does a source keep the contract?  The check behind ``python -m mdcx.sources --check``.

It walks the first candidates (never the whole catalogue: a real one may
hold millions), checks every field a candidate must have, fetches a few
through ``patiently`` and identifies what came back.  *Problems* break the
contract; *notes* are worth knowing but break nothing, such as most
candidates coming from one host (the plugin's politeness towards that server
then decides how fast a run can go).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from ._contract import Source
from ._errors import SourceError
from ._patience import patiently
from ._signatures import identify

_DATE = re.compile(r"^\d{4}(?:-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\d|3[01]))?)?$")
CANDIDATES = 200  # how many candidates the check walks by default
FETCHES = 1  # how many it fetches by default


@dataclass(frozen=True)
class Fetched:
    identifier: str
    kind: str | None  # what ``identify`` made of the bytes (None: no signature, e.g. text)
    size: int


@dataclass(frozen=True)
class Conformance:
    """The report of ``conforms``: ``ok`` when there are no problems."""

    problems: tuple[str, ...]
    notes: tuple[str, ...]
    candidates: int  # candidates examined
    hosts: tuple[tuple[str, int], ...] = ()  # candidates per host, busiest first
    fetched: tuple[Fetched, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.problems


def _field_problems(candidate: Any, position: int) -> list[str]:
    where = f"candidate {position + 1}"
    identifier = getattr(candidate, "identifier", None)
    if isinstance(identifier, str) and identifier.strip():
        where += f" ({identifier})"
    problems = []
    for name in ("identifier", "title", "date", "download", "host"):
        if not hasattr(candidate, name):
            problems.append(f"{where} has no {name!r} attribute")
    if problems:
        return problems
    c = candidate
    if not isinstance(c.identifier, str) or not c.identifier.strip():
        problems.append(f"{where}: identifier must be a non-empty string, not {c.identifier!r}")
    if c.title is not None and not isinstance(c.title, str):
        problems.append(f"{where}: title must be a string or None, not {type(c.title).__name__}")
    date = c.date
    if date is not None and not (isinstance(date, str) and _DATE.match(date)):
        problems.append(f"{where}: date must be ISO 8601 (YYYY, YYYY-MM or YYYY-MM-DD) or None, not {date!r}")
    download, host = c.download, c.host
    if download is not None and (not isinstance(download, str) or not download.strip()):
        problems.append(f"{where}: download must be a non-empty string or None, not {download!r}")
    if host is not None and (not isinstance(host, str) or not host.strip()):
        problems.append(f"{where}: host must be a non-empty string or None, not {host!r}")
    if isinstance(download, str) and "://" in download and host is None:
        problems.append(f"{where}: download {download!r} names a server but host is None")
    return problems


def _methods(source: object) -> list[str]:
    return [
        f"the source has no {name}() method"
        for name in ("candidates", "fetch")
        if not callable(getattr(source, name, None))
    ]


def conforms(
    source: Source,
    *,
    candidates: int = CANDIDATES,
    fetch: int = FETCHES,
    sleep: Callable[[float], object] | None = None,
) -> Conformance:
    """Check ``source`` against the contract; returns a ``Conformance`` report.

    Walks at most ``candidates`` candidates and fetches the first ``fetch``
    of them (0: fetch nothing, for a check without network).  ``sleep`` is
    passed to ``patiently`` (tests give one that does not wait).
    """
    problems = _methods(source)
    if problems:
        return Conformance(tuple(problems), (), 0)
    notes: list[str] = []
    seen: list[Any] = []
    try:
        listed = source.candidates()
        for candidate in islice(iter(listed), candidates):
            seen.append(candidate)
    except TypeError as exc:
        if not seen:
            return Conformance((f"candidates() did not return an iterable ({exc})",), (), 0)
        problems.append(f"candidates() failed after {len(seen)}: TypeError: {exc}")
    except Exception as exc:
        problems.append(f"candidates() failed after {len(seen)}: {type(exc).__name__}: {exc}")
    if not seen and not problems:
        problems.append("candidates() yielded nothing: a check needs at least one candidate")
    identifiers: Counter[str] = Counter()
    hosts: Counter[str] = Counter()
    untitled = undated = unplaced = 0
    valid = []
    for position, c in enumerate(seen):
        found = _field_problems(c, position)
        problems.extend(found)
        if isinstance(getattr(c, "identifier", None), str) and c.identifier.strip():
            identifiers[c.identifier] += 1
        if found:
            continue
        valid.append(c)
        untitled += not c.title
        undated += c.date is None
        if c.host:
            hosts[c.host.lower()] += 1
        else:
            unplaced += 1
    problems.extend(
        f"identifier {name!r} is given to {n} candidates; identifiers must be unique"
        for name, n in identifiers.items()
        if n > 1
    )
    total = len(seen)
    if hosts:
        host, count = hosts.most_common(1)[0]
        if count * 2 > total:
            notes.append(
                f"{count} of {total} candidates ({count / total:.0%}) come from one host, {host}: "
                "a run's speed is that host's rate limit"
            )
    for count, what in (
        (untitled, "have no title"),
        (undated, "have no date"),
        (unplaced, "have no download location (their host is known only once fetched)"),
    ):
        if count:
            notes.append(f"{count} of {total} candidates {what}")
    fetched = []
    wait = {"sleep": sleep} if sleep is not None else {}
    for candidate in valid[:fetch]:
        ident = candidate.identifier
        try:
            data = patiently(lambda c=candidate: source.fetch(c), **wait)
        except SourceError as exc:
            problems.append(f"fetch({ident}) failed: {exc}")
            continue
        except Exception as exc:  # a plugin must raise FetchError, not whatever its client raised
            problems.append(
                f"fetch({ident}) raised {type(exc).__name__} ({exc}); a source raises FetchError when it cannot fetch"
            )
            continue
        if not isinstance(data, bytes | bytearray | memoryview):
            problems.append(f"fetch({ident}) returned {type(data).__name__}, not bytes")
            continue
        if not len(data):
            problems.append(f"fetch({ident}) returned no bytes")
            continue
        fetched.append(Fetched(ident, identify(bytes(data)), len(data)))
    return Conformance(tuple(problems), tuple(notes), total, tuple(hosts.most_common()), tuple(fetched))
