"""The idle unloader's mechanics, on a real clock with short intervals."""

from __future__ import annotations

import threading
import time

from helpers.format import KEY
from helpers.mcp import Packages
from mdcx.mcp_server import Config, IdleUnloader, Service


class Releases:
    def __init__(self, pause: float = 0.0, fail_first: bool = False):
        self.times: list[tuple[float, float]] = []
        self.pause = pause
        self.fail_first = fail_first

    def __call__(self) -> bool:
        start = time.monotonic()
        if self.fail_first:
            self.fail_first = False
            raise RuntimeError("boom")
        time.sleep(self.pause)
        self.times.append((start, time.monotonic()))
        return True


def wait_for(condition, timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def test_releases_once_after_the_idle_time_following_a_call() -> None:
    releases = Releases()
    idle = IdleUnloader(0.2, releases)
    idle.start()
    try:
        time.sleep(0.4)
        assert releases.times == []  # nothing was used yet: nothing to release
        with idle.in_use():
            pass
        ended = time.monotonic()
        assert wait_for(lambda: len(releases.times) == 1)
        assert releases.times[0][0] - ended >= 0.19
        time.sleep(0.4)
        assert len(releases.times) == 1  # not again until another call
        state = idle.state()
        assert state["unloads"] == 1 and state["unload_after_minutes"] == round(0.2 / 60, 4)
        assert state["idle_seconds"] >= 0.5 and state["last_unload_seconds_ago"] >= 0.3
    finally:
        idle.stop()


def test_never_releases_while_a_call_runs() -> None:
    releases = Releases()
    idle = IdleUnloader(0.1, releases)
    idle.start()
    try:
        with idle.in_use():
            pass
        with idle.in_use():  # a long call begins before the idle time is up
            time.sleep(0.5)
            assert releases.times == []
        assert wait_for(lambda: len(releases.times) == 1)
    finally:
        idle.stop()


def test_a_call_arriving_during_a_release_waits_for_it() -> None:
    releases = Releases(pause=0.4)
    idle = IdleUnloader(0.1, releases)
    idle.start()
    try:
        with idle.in_use():
            pass
        assert wait_for(lambda: idle.state()["idle_seconds"] > 0.15)
        time.sleep(0.05)  # the release is under way
        entered = []

        def call() -> None:
            with idle.in_use():
                entered.append(time.monotonic())

        worker = threading.Thread(target=call)
        worker.start()
        worker.join(5)
        assert releases.times and entered[0] >= releases.times[0][1]
    finally:
        idle.stop()


def test_a_failing_release_does_not_stop_the_watch(capfd) -> None:
    releases = Releases(fail_first=True)
    idle = IdleUnloader(0.1, releases)
    idle.start()
    try:
        with idle.in_use():
            pass
        assert wait_for(
            lambda: "releasing idle resources failed (RuntimeError: boom)" in capfd.readouterr().err
        )
        with idle.in_use():
            pass
        assert wait_for(lambda: len(releases.times) == 1)
    finally:
        idle.stop()


def test_watching_starts_again_after_a_stop() -> None:
    releases = Releases()
    idle = IdleUnloader(0.1, releases)
    idle.start()
    idle.stop()
    idle.start()  # a server run again with the same service
    try:
        with idle.in_use():
            pass
        assert wait_for(lambda: len(releases.times) == 1)
    finally:
        idle.stop()


def test_zero_means_never() -> None:
    releases = Releases()
    idle = IdleUnloader(0, releases)
    idle.start()
    with idle.in_use():
        pass
    time.sleep(0.3)
    assert releases.times == [] and not idle.enabled
    assert idle.state()["unload_after_minutes"] == 0
    idle.stop()


def test_service_release_closes_open_packages_and_they_reopen(packages: Packages, monkeypatch) -> None:
    # The dense searcher is process-wide: start from a fresh one, as a server process does.
    from mdcx.embed import _dense

    monkeypatch.setattr(_dense, "_default", None)
    service = Service(Config((str(packages.lab),), (KEY,), idle_minutes=0))
    try:
        assert service.release_idle() is False  # nothing open yet
        first = service.search("storage temperature")
        assert [s.open for s in service.corpus.status()] == [True]
        assert service.release_idle() is True
        assert [(s.open, s.memory_bytes) for s in service.corpus.status()] == [(False, 0)]
        assert service.release_encoder() is False  # no package here holds vectors: no encoder
        assert service.search("storage temperature")["documents"] == first["documents"]
    finally:
        service.close()
