"""Retrying a call the server asked to slow down, within bounds the caller sets.

A catalogue that answers 429 or 503 usually says how long to wait in
``Retry-After``: seconds, or an HTTP date.  ``patiently`` waits that long (or
backs off exponentially when no delay was named) and tries again, but never
more than ``attempts`` times and never past ``longest`` seconds of waiting in
all, so a server that keeps refusing cannot stall a run for ever.  ``sleep``
and ``now`` are injectable so tests do not wait.
"""

from __future__ import annotations

import datetime as _dt
import time
from collections.abc import Callable
from typing import TypeVar

from ._errors import RateLimited

T = TypeVar("T")

ATTEMPTS = 5
LONGEST = 300.0  # seconds of waiting in all, per call
FIRST_BACKOFF = 1.0  # seconds before the second attempt when the server named no delay


def retry_after_seconds(value: object, now: float) -> float | None:
    """Seconds to wait for a ``Retry-After`` value at wall-clock time ``now``, or None if unreadable.

    Accepts a number of seconds (int, float, or a string of them), an HTTP
    date (``Wed, 21 Oct 2015 07:28:00 GMT``) or a ``datetime``.  A date in
    the past means no wait.
    """
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return max(float(value), 0.0) if value == value else None
    when: _dt.datetime | None = None
    if isinstance(value, _dt.datetime):
        when = value
    elif isinstance(value, str | bytes):
        text = value.decode("latin-1") if isinstance(value, bytes) else value
        text = text.strip()
        try:
            seconds = float(text)
        except ValueError:
            pass
        else:
            return max(seconds, 0.0) if seconds == seconds and seconds != float("inf") else None
        from email.utils import parsedate_to_datetime  # here: importing email costs 12 ms at start-up

        try:
            when = parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
    if when is None:
        return None
    if when.tzinfo is None:  # HTTP dates are GMT; a naive datetime is taken as UTC too
        when = when.replace(tzinfo=_dt.UTC)
    return max(when.timestamp() - now, 0.0)


def patiently(
    call: Callable[[], T],
    *,
    attempts: int = ATTEMPTS,
    longest: float = LONGEST,
    sleep: Callable[[float], object] = time.sleep,
    now: Callable[[], float] = time.time,
) -> T:
    """``call()``, retried while it raises ``RateLimited``, honouring ``Retry-After``.

    Waits the server's ``retry_after`` when it names one, else 1, 2, 4, ...
    seconds.  Gives up (raising ``RateLimited`` that says so) after
    ``attempts`` calls, or as soon as the next wait would take the total past
    ``longest`` seconds.  Any other exception passes through at once.
    """
    if attempts < 1:
        raise ValueError("attempts must be 1 or more")
    waited = 0.0
    for attempt in range(1, attempts + 1):
        try:
            return call()
        except RateLimited as exc:
            if attempt == attempts:
                raise RateLimited(
                    f"{exc}; gave up after {attempts} attempts ({waited:.0f} s waited)", exc.retry_after
                ) from exc
            delay = retry_after_seconds(exc.retry_after, now())
            if delay is None:
                delay = FIRST_BACKOFF * 2 ** (attempt - 1)
            if waited + delay > longest:
                raise RateLimited(
                    f"{exc}; asked to wait {delay:.0f} s more, past the {longest:.0f} s allowed "
                    f"({waited:.0f} s waited)",
                    exc.retry_after,
                ) from exc
            sleep(delay)
            waited += delay
    raise AssertionError("unreachable")  # the loop returns or raises
