"""Unloading what the server holds once nobody has asked anything for a while.

A background thread waits for the idle time after the last call to end, then
calls ``release`` (see ``Service.release_idle``).  Calls hold ``in_use()``
while they run, so a release never overlaps a call, and a call that arrives
during a release waits for it to finish and then reloads what it needs.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager


class IdleUnloader:
    """Calls ``release`` after ``seconds`` without a call (never when ``seconds`` is 0).

    ``release`` returns whether it freed anything; only those count as unloads.
    """

    def __init__(
        self,
        seconds: float,
        release: Callable[[], bool],
        *,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.seconds = float(seconds)
        self._release = release
        self._clock = clock
        self._cond = threading.Condition()
        self._busy = 0
        self._last_used = clock()
        self._armed = False  # a call ended since the last release
        self._stopped = False
        self._thread: threading.Thread | None = None
        self._unloads = 0
        self._last_unload: float | None = None

    @property
    def enabled(self) -> bool:
        return self.seconds > 0

    def start(self) -> None:
        """Start watching (again, after ``stop``); nothing to watch when disabled."""
        if not self.enabled or (self._thread is not None and self._thread.is_alive()):
            return
        with self._cond:
            self._stopped = False
        self._thread = threading.Thread(target=self._watch, name="mdcx-idle-unload", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        with self._cond:
            self._stopped = True
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    @contextmanager
    def in_use(self) -> Iterator[None]:
        """Hold while a call runs; waits for a release in progress to end."""
        with self._cond:
            self._busy += 1
        try:
            yield
        finally:
            with self._cond:
                self._busy -= 1
                self._last_used = self._clock()
                self._armed = True
                self._cond.notify_all()

    def state(self) -> dict:
        """What ``info`` reports: the setting, how long the server has been idle, unloads so far."""
        with self._cond:
            now = self._clock()
            return {
                "unload_after_minutes": round(self.seconds / 60.0, 4) if self.enabled else 0,
                "idle_seconds": 0.0 if self._busy > 1 else round(now - self._last_used, 3),
                "unloads": self._unloads,
                "last_unload_seconds_ago": (
                    None if self._last_unload is None else round(now - self._last_unload, 3)
                ),
            }

    def _watch(self) -> None:
        with self._cond:
            while not self._stopped:
                if self._busy or not self._armed:
                    self._cond.wait()
                    continue
                remaining = self._last_used + self.seconds - self._clock()
                if remaining > 0:
                    # A wait longer than the platform's limit raises OverflowError: wait in steps.
                    self._cond.wait(min(remaining, threading.TIMEOUT_MAX))
                    continue
                # Holding the lock: no call can start until the release is done.
                self._armed = False
                try:
                    released = self._release()
                except Exception as exc:  # keep watching: the next call reopens what it needs
                    _warn(f"releasing idle resources failed ({type(exc).__name__}: {exc})")
                    released = False
                if released:
                    self._unloads += 1
                    self._last_unload = self._clock()


def _warn(message: str) -> None:
    try:
        print(f"mdcx-mcp: warning: {message}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass
