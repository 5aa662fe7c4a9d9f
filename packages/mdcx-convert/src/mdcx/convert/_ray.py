"""Scale-out over Ray: the same units, run by long-lived engine actors.

Each actor loads its engines once and converts the units it is given; the
driver writes every result through the same code as a local run, so the
output tree and the run index are the same.  Workers read the documents from
their paths: the input folder must be visible to every node (a shared file
system), as it is for a local Ray instance.
"""

from __future__ import annotations

import socket
import time
from collections import deque
from collections.abc import Iterable

from ._engine import Engines, UnitResult, convert_unit
from ._errors import ConversionError, MissingDependency
from ._options import ConvertOptions
from ._plan import Unit
from ._workers import OnResult, timed_out


class EngineActor:
    """Holds loaded engines for the life of the actor."""

    def __init__(self, options: ConvertOptions) -> None:
        self.engines = Engines(options)

    def convert(self, unit: Unit) -> UnitResult:
        return convert_unit(unit, self.engines)


def _reachable(address: str | None, seconds: float = 5.0) -> None:
    """Fail at once on a ``host:port`` nothing answers at: Ray itself retries for minutes.

    ``auto`` and ``local`` (and an address without a port) are left to Ray.
    """
    if not address or address in ("auto", "local"):
        return
    host, _, port = address.split("://", 1)[-1].rpartition(":")
    if not host or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=seconds).close()
    except (OSError, ValueError) as exc:
        raise ConversionError(f"cannot reach the Ray cluster at {address}: {exc.strerror or exc}") from None


def run_ray(units: Iterable[Unit], options: ConvertOptions, on_result: OnResult) -> str:
    try:
        import ray
    except ImportError as exc:
        raise MissingDependency("--ray needs Ray: pip install 'mdcx-convert[ray]'") from exc
    started_here = False
    if not ray.is_initialized():
        address = options.ray
        _reachable(address)
        try:
            if address == "local":
                ray.init(num_cpus=options.max_cores, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise ConversionError(f"cannot join the Ray cluster at {address}: {exc}") from exc
        started_here = True
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        pending = deque(units)
        n = max(1, min(options.max_cores or cpus, cpus, len(pending) or 1))
        actor_class = ray.remote(num_cpus=1, max_restarts=0)(EngineActor)
        idle = [actor_class.remote(options) for _ in range(n)]
        running: dict = {}  # object ref -> (actor, unit, started)
        while pending or running:
            while idle and pending:
                actor = idle.pop()
                unit = pending.popleft()
                running[actor.convert.remote(unit)] = (actor, unit, time.monotonic())
            timeout = 1.0
            if options.timeout:
                now = time.monotonic()
                timeout = max(0.01, min(options.timeout - (now - s) for _, _, s in running.values()))
            ready, _ = ray.wait(list(running), num_returns=1, timeout=timeout)
            for ref in ready:
                actor, unit, _ = running.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayError as exc:
                    result = UnitResult(unit, "failed", f"the engine actor failed ({type(exc).__name__})")
                    ray.kill(actor)
                    actor = actor_class.remote(options)
                idle.append(actor)
                on_result(result)
            if options.timeout:
                now = time.monotonic()
                for ref, (actor, unit, started) in list(running.items()):
                    if now - started >= options.timeout:
                        running.pop(ref)
                        ray.kill(actor)
                        idle.append(actor_class.remote(options))
                        on_result(timed_out(unit, options.timeout))
        for actor in idle:
            ray.kill(actor)
        return f"ray ({n} actors)"
    finally:
        if started_here:
            ray.shutdown()
