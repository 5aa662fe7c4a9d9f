"""Running units: in this process (``--serial``) or on worker processes.

Workers are started with the *spawn* method on every platform (forking a
process that holds engine threads is what breaks conversion on CPU-only
Linux), each loads its engines once, and each is replaced after
``recycle_after`` units or when it stops answering.  A unit that outlives
``timeout`` is abandoned: its worker is killed and replaced, which also stops
the engine (a thread could not be stopped).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait

from ._engine import Engines, UnitResult, convert_unit
from ._options import ConvertOptions
from ._plan import Unit

OnResult = Callable[[UnitResult], None]


def timed_out(unit: Unit, seconds: float) -> UnitResult:
    return UnitResult(unit, "failed", f"did not finish within {seconds:g} s; abandoned", seconds=seconds)


def _into(box: list[UnitResult], unit: Unit, engines: Engines) -> None:
    box.append(convert_unit(unit, engines))


def run_serial(units: Iterable[Unit], engines: Engines, on_result: OnResult, timeout: float | None) -> None:
    """Units one after another in this process.

    With a timeout each unit runs on a helper thread; one that does not finish
    is abandoned: its result is dropped and the run goes on.  A thread cannot
    be stopped, so abandoned threads are waited for (a bounded time) once the
    run is over, letting the engines shut down cleanly; worker processes,
    the default, are killed instead.
    """
    abandoned: list[threading.Thread] = []
    for unit in units:
        if not timeout:
            on_result(convert_unit(unit, engines))
            continue
        box: list[UnitResult] = []
        thread = threading.Thread(target=_into, args=(box, unit, engines), daemon=True)
        thread.start()
        thread.join(timeout)
        if thread.is_alive():
            abandoned.append(thread)
        on_result(box[0] if box else timed_out(unit, timeout))
    for thread in abandoned:
        thread.join(max(60.0, 4 * (timeout or 0)))


def _worker_main(conn: Connection, options: ConvertOptions, use_gpu: bool) -> None:
    # Each worker uses one core; the engines' own thread pools must not multiply that.
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")
    engines = Engines(options, use_gpu=use_gpu)
    while True:
        try:
            unit = conn.recv()
        except (EOFError, OSError):
            return
        if unit is None:
            return
        conn.send(convert_unit(unit, engines))


@dataclass
class _Worker:
    process: multiprocessing.process.BaseProcess
    conn: Connection
    gpu: bool
    unit: Unit | None = None
    started: float = 0.0
    done: int = 0


def worker_counts(options: ConvertOptions, gpu_usable: bool, units: int) -> tuple[int, int]:
    """(cpu workers, gpu workers) for a run of ``units`` units."""
    cores = options.max_cores or os.cpu_count() or 1
    gpu = 0
    if gpu_usable and options.gpu:
        gpu = options.gpu_workers if options.gpu_workers is not None else 1
    cpu = options.cpu_workers if options.cpu_workers is not None else max(cores - gpu, 1 if not gpu else 0)
    cpu = min(cpu, cores)
    total = max(min(cpu + gpu, units), 1)
    gpu = min(gpu, total)
    return total - gpu, gpu


def run_pool(
    units: Iterable[Unit],
    options: ConvertOptions,
    on_result: OnResult,
    cpu_workers: int,
    gpu_workers: int = 0,
) -> None:
    """Units over ``cpu_workers + gpu_workers`` spawned worker processes."""
    ctx = multiprocessing.get_context("spawn")
    pending = deque(units)
    workers: list[_Worker] = []

    def start(gpu: bool) -> _Worker:
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_worker_main, args=(child, options, gpu), daemon=True)
        proc.start()
        child.close()
        w = _Worker(proc, parent, gpu)
        workers.append(w)
        return w

    def retire(w: _Worker, kill: bool = False) -> None:
        workers.remove(w)
        if kill:
            w.process.kill()
        else:
            try:
                w.conn.send(None)
            except OSError:
                pass
        w.process.join(5)
        if w.process.is_alive():
            w.process.kill()
            w.process.join(5)
        w.conn.close()

    for _ in range(gpu_workers):
        start(True)
    for _ in range(cpu_workers):
        start(False)
    try:
        while pending or any(w.unit is not None for w in workers):
            for w in list(workers):
                if w.unit is None and pending:
                    unit = pending.popleft()
                    try:
                        w.conn.send(unit)
                    except OSError:
                        pending.appendleft(unit)
                        retire(w, kill=True)
                        start(w.gpu)
                        continue
                    w.unit, w.started = unit, time.monotonic()
            busy = [w for w in workers if w.unit is not None]
            if not busy:
                continue
            wait_for = 1.0
            if options.timeout:
                now = time.monotonic()
                wait_for = max(0.01, min(options.timeout - (now - w.started) for w in busy))
            ready = wait([w.conn for w in busy], timeout=wait_for)
            for w in busy:
                if w.conn in ready:
                    unit = w.unit
                    try:
                        result = w.conn.recv()
                    except (EOFError, OSError):
                        w.process.join(1)
                        code = w.process.exitcode
                        why = f"signal {-code}" if code is not None and code < 0 else f"exit status {code}"
                        result = UnitResult(unit, "failed", f"the engine crashed on this document ({why})")
                        retire(w, kill=True)
                        start(w.gpu)
                        on_result(result)
                        continue
                    w.unit = None
                    w.done += 1
                    on_result(result)
                    if options.recycle_after and w.done >= options.recycle_after and pending:
                        retire(w)
                        start(w.gpu)
                elif options.timeout and time.monotonic() - w.started >= options.timeout:
                    unit = w.unit
                    retire(w, kill=True)
                    start(w.gpu)
                    on_result(timed_out(unit, options.timeout))
    finally:
        for w in list(workers):
            retire(w, kill=w.unit is not None)
