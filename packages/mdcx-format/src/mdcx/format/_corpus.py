"""Several packages as one corpus, opened only when a question reaches them.

Headers are read at once (a wrong path is reported before any key is used);
each package's key derivation and block table are paid on its first
question.  Used by ``mdcx search`` over several files and by the MCP server.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ._errors import InputError, MdcxError
from ._paths import shown_name
from ._reader import Header, Package, read_header
from ._results import SearchResult


def split_paths(value: str) -> list[str]:
    """``MDCX_FILE``-style lists: the platform's path separator or commas."""
    return [p.strip() for p in re.split(f"[,{re.escape(os.pathsep)}]", value) if p.strip()]


@dataclass(frozen=True)
class PackageStatus:
    name: str
    path: str
    open: bool
    memory_bytes: int
    header: dict


class Corpus:
    def __init__(
        self, paths: Sequence[str | Path], keys: str | Sequence[str], *, cache_bytes: int | None = None
    ):
        """``keys``: one passphrase for every package, or one per package, in order."""
        if not paths:
            raise InputError("no package given")
        if isinstance(keys, str):  # one for all (a string is a sequence too: never split it)
            keys = [keys] * len(paths)
        if len(keys) != len(paths):
            raise InputError(f"{len(keys)} passphrases for {len(paths)} packages")
        self.headers: list[Header] = [read_header(p) for p in paths]
        names = [Path(h.path).name for h in self.headers]
        if len(set(names)) != len(names):
            raise InputError("two packages share a file name; results name packages by file name")
        self._keys = list(keys)
        self._open: list[Package | None] = [None] * len(paths)
        self._cache = cache_bytes
        self._lock = threading.Lock()

    def package(self, index: int) -> Package:
        """The package, opened on first use; an error names the package it concerns."""
        with self._lock:
            pkg = self._open[index]
            if pkg is None:
                kwargs = {} if self._cache is None else {"cache_bytes": self._cache}
                name = Path(self.headers[index].path).name
                try:
                    pkg = Package(self.headers[index].path, self._keys[index], **kwargs)
                except MdcxError as exc:
                    message = str(exc)
                    if name not in message:
                        message = f"{name}: {message}"
                    raise type(exc)(message) from None
                self._open[index] = pkg
            return pkg

    @property
    def packages(self) -> list[Package]:
        return [self.package(i) for i in range(len(self.headers))]

    def search(self, question: str, **options) -> SearchResult:
        from ._search import search

        return search(self.packages, question, **options)

    def find(self, name: str) -> tuple[Package, str]:
        """The package holding a document named ``name`` (portable path or file name)."""
        errors = []
        for pkg in self.packages:
            try:
                info = pkg.find_document(name)
            except MdcxError as exc:
                errors.append(str(exc))
                continue
            return pkg, info.path
        raise InputError(
            errors[0] if len(errors) == 1 else f"no package holds a document named {shown_name(name)}"
        )

    def status(self) -> list[PackageStatus]:
        out = []
        for header, pkg in zip(self.headers, self._open):
            out.append(
                PackageStatus(
                    Path(header.path).name,
                    header.path,
                    pkg is not None,
                    pkg.memory_bytes if pkg is not None else 0,
                    header.fields,
                )
            )
        return out

    def close(self) -> None:
        with self._lock:
            for pkg in self._open:
                if pkg is not None:
                    pkg.close()
            self._open = [None] * len(self._open)

    def __enter__(self) -> Corpus:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
