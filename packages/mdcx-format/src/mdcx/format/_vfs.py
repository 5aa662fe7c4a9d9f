"""A read-only SQLite VFS (apsw) over sealed package bodies.

SQLite asks for pages; this VFS maps each read to the blocks that hold it and
lets ``SealedBody`` authenticate, inflate and cache them.  Nothing is written
anywhere: the connection is opened ``immutable`` so SQLite never looks for a
journal, and every write entry point refuses.
"""

from __future__ import annotations

import itertools
import threading
from typing import Protocol

import apsw

VFS_NAME = "mdcx-sealed"

_IMMUTABLE = apsw.mapping_device_characteristics["SQLITE_IOCAP_IMMUTABLE"]


class RandomAccessBody(Protocol):
    size: int

    def read(self, amount: int, offset: int) -> bytes: ...


class _BodyFile:
    """The file object SQLite sees for one package body."""

    def __init__(self, body: RandomAccessBody):
        self._body = body

    def xRead(self, amount: int, offset: int) -> bytes:
        return self._body.read(amount, offset)

    def xFileSize(self) -> int:
        return self._body.size

    def xWrite(self, data: bytes, offset: int) -> None:
        raise apsw.ReadOnlyError("mdcx packages are read-only")

    def xTruncate(self, size: int) -> None:
        raise apsw.ReadOnlyError("mdcx packages are read-only")

    def xSync(self, flags: int) -> None:
        pass

    def xClose(self) -> None:
        pass

    def xLock(self, level: int) -> None:
        pass

    def xUnlock(self, level: int) -> None:
        pass

    def xCheckReservedLock(self) -> bool:
        return False

    def xSectorSize(self) -> int:
        return 4096

    def xDeviceCharacteristics(self) -> int:
        return _IMMUTABLE

    def xFileControl(self, op: int, pointer: int) -> bool:
        return False


class _SealedVFS(apsw.VFS):
    def __init__(self) -> None:
        super().__init__(VFS_NAME, base="")
        self.bodies: dict[str, RandomAccessBody] = {}

    def xOpen(self, name, flags):
        filename = name.filename() if isinstance(name, apsw.URIFilename) else name
        body = self.bodies.get(filename)
        if body is None:
            raise apsw.CantOpenError(f"no sealed body is registered as {filename!r}")
        flags[1] = apsw.SQLITE_OPEN_READONLY
        return _BodyFile(body)

    def xFullPathname(self, name: str) -> str:
        return name

    def xAccess(self, pathname: str, flags: int) -> bool:
        return pathname in self.bodies

    def xDelete(self, filename: str, syncdir: bool) -> None:
        raise apsw.ReadOnlyError("mdcx packages are read-only")


_vfs: _SealedVFS | None = None
_lock = threading.Lock()
_names = itertools.count()


def connect(body: RandomAccessBody, *, cache_kib: int = 8192) -> tuple[apsw.Connection, str]:
    """A read-only connection to the database inside ``body``.

    Returns the connection and the name to pass to ``release`` when it closes.
    """
    global _vfs
    with _lock:
        if _vfs is None:
            _vfs = _SealedVFS()
        name = f"mdcx-body-{next(_names)}"
        _vfs.bodies[name] = body
    try:
        con = apsw.Connection(
            f"file:{name}?immutable=1",
            flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI,
            vfs=VFS_NAME,
        )
        # Sorts and temporary b-trees stay in memory: plaintext never reaches disk.
        for pragma in ("temp_store=MEMORY", "query_only=1", f"cache_size=-{int(cache_kib)}"):
            for _ in con.execute(f"PRAGMA {pragma}"):
                pass
    except BaseException:
        release(name)
        raise
    return con, name


def release(name: str) -> None:
    with _lock:
        if _vfs is not None:
            _vfs.bodies.pop(name, None)
