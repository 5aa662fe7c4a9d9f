"""Bytes on disk: preamble, header, sealed blocks, sealed block table, trailer.

::

    MAGIC (8) | major u16 | minor u16 | header length u32 | header JSON
    dictionary record               (zstd only) sealed length u32 | AES-256-GCM(dictionary)
    record 0 .. record n-1          each: sealed length u32 | AES-256-GCM(compress(block))
    table record                    sealed length u32 | AES-256-GCM(table)
    trailer (24)                    table offset u64 | table length u32 | 0 u32 | b"MDCX-END"

Block ``i`` holds bytes ``[i*B, (i+1)*B)`` of the SQLite database.  Its nonce
is ``(0, i)`` and its associated data holds the header hash, ``i`` and the
block count, so a block moved, repeated, dropped, taken from another package
or read under an edited header fails authentication.  The table lists, per
block, its offset, sealed and plain length, and the SHA-256 of its sealed
bytes; the header's ``body_digest`` hashes those leaves and the sealed table,
so it can be checked at open (from the table) and without the key (by walking
the length-prefixed records).  The compression dictionary, when there is one,
is sealed the same way (nonce ``(2, 0)``) and listed first in the table.
"""

from __future__ import annotations

import array
import hashlib
import os
import stat
import struct
import sys
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from . import _crypto
from ._compression import decompressor
from ._errors import CorruptPackage, DecryptionError, NotAPackage, UnsupportedVersion
from ._header import (
    FORMAT_VERSION,
    MAX_HEADER_BYTES,
    header_hash,
    parse_header,
    signed_message,
)

MAGIC = b"MDCX\r\n\x1a\n"
LEGACY_MAGIC = b"MDCX"
END_MAGIC = b"MDCX-END"
TABLE_MAGIC = b"MDCXTBL\x01"

_PREAMBLE = struct.Struct("<8sHHI")
_TRAILER = struct.Struct("<QII8s")
_RECORD = struct.Struct("<I")
_TABLE_HEAD = struct.Struct("<8sII")  # magic, block count, flags (1: dictionary entry first)
# The table is columnar (offsets u64, sealed lengths u32, plain lengths u32,
# SHA-256 leaves), so opening a package of any size decodes it with a few
# array copies and hashes the leaves in one call.
_ENTRY_BYTES = 8 + 4 + 4 + 32

DEFAULT_CACHE_BYTES = 32 * 1024 * 1024
_MAX_BLOCK_SIZE = 16 * 1024 * 1024


@dataclass(frozen=True)
class RawHeader:
    """What can be read from a package without its key."""

    kind: str  # "mdcx2" or "legacy"
    header: dict
    body_offset: int
    file_size: int


def read_raw_header(path: Path) -> RawHeader:
    try:
        status = path.stat()
        if not (stat.S_ISREG(status.st_mode) or stat.S_ISDIR(status.st_mode)):
            # Reading a named pipe waits for a writer, a device may never end: neither can be a package.
            raise NotAPackage(f"{path}: not a regular file (a pipe, device or socket), not an .mdcx package")
        size = status.st_size
        with open(path, "rb") as fh:
            start = fh.read(_PREAMBLE.size)
            if start.startswith(MAGIC) and len(start) == _PREAMBLE.size:
                _magic, major, _minor, length = _PREAMBLE.unpack(start)
                if major != FORMAT_VERSION:
                    raise UnsupportedVersion(
                        f"{path.name} is an .mdcx package of format version {major}; this reader "
                        f"knows version {FORMAT_VERSION} (and first-generation packages): "
                        "upgrade mdcx-format"
                    )
                if length > MAX_HEADER_BYTES or _PREAMBLE.size + length > size:
                    raise CorruptPackage(
                        f"{path.name}: the header length is impossible; the file is damaged or truncated"
                    )
                raw = fh.read(length)
                return RawHeader("mdcx2", parse_header(raw), _PREAMBLE.size + length, size)
            if start[:4] == LEGACY_MAGIC and len(start) >= 9 and start[8:9] == b"{":
                (length,) = struct.unpack("<I", start[4:8])
                if length > MAX_HEADER_BYTES or 8 + length > size:
                    raise CorruptPackage(
                        f"{path.name}: the header length is impossible; the file is damaged or truncated"
                    )
                fh.seek(8)
                raw = fh.read(length)
                return RawHeader("legacy", parse_header(raw), 8 + length, size)
    except FileNotFoundError:
        raise NotAPackage(f"{path}: no such file") from None
    except IsADirectoryError:
        raise NotAPackage(f"{path}: is a folder, not an .mdcx package") from None
    except PermissionError:
        raise NotAPackage(f"{path}: permission denied") from None
    if size == 0:
        raise NotAPackage(f"{path.name}: the file is empty (0 bytes), not an .mdcx package")
    raise NotAPackage(f"{path.name}: not an .mdcx package (its first bytes are not an mdcx signature)")


def _nonce(kind: int, index: int) -> bytes:
    return struct.pack(">IQ", kind, index)


def _block_aad(hh: bytes, index: int, count: int) -> bytes:
    return b"mdcx/2 block\0" + hh + struct.pack(">QQ", index, count)


def _table_aad(hh: bytes, count: int) -> bytes:
    return b"mdcx/2 table\0" + hh + struct.pack(">Q", count)


def _dictionary_aad(hh: bytes) -> bytes:
    return b"mdcx/2 dictionary\0" + hh


def body_key(master: bytes, header: dict) -> bytes:
    return _crypto.subkey(master, b"mdcx/2 body", bytes.fromhex(header["package_id"]))


def _digest_of(leaves: bytes, table_leaf: bytes) -> str:
    """SHA-256 over every record's leaf (in file order) and the sealed table's."""
    return hashlib.sha256(b"mdcx/2 body\0" + leaves + table_leaf).hexdigest()


def _le(values: array.array) -> bytes:
    if sys.byteorder == "big":
        values = array.array(values.typecode, values)
        values.byteswap()
    return values.tobytes()


def _from_le(code: str, data: bytes) -> array.array:
    values = array.array(code)
    values.frombytes(data)
    if sys.byteorder == "big":
        values.byteswap()
    return values


# --------------------------------------------------------------------------- writing


def _read_at(fh: BinaryIO, offset: int, length: int) -> bytes:
    fh.seek(offset)
    return fh.read(length)


# --------------------------------------------------------------------------- reading


class _RandomAccess:
    """Positional reads that several threads may issue at once."""

    def __init__(self, path: Path):
        self._fh = open(path, "rb", buffering=0)  # noqa: SIM115 - closed by close()
        self._lock = threading.Lock()
        self._pread = getattr(os, "pread", None)  # absent on Windows

    def read_at(self, length: int, offset: int) -> bytes:
        if self._pread is not None:
            data = self._pread(self._fh.fileno(), length, offset)
        else:
            with self._lock:
                self._fh.seek(offset)
                data = self._fh.read(length)
        if len(data) != length:
            raise CorruptPackage("the package ends early; it is truncated")
        return data

    def close(self) -> None:
        self._fh.close()


def _check_signature_field(header: dict) -> None:
    """A header that declares a signing key must carry a signature that matches it."""
    signing = header.get("signing")
    signature = header.get("signature")
    if signing is None:
        if signature is not None:
            raise CorruptPackage("the header carries a signature but no signing key; the file was altered")
        return
    try:
        public = bytes.fromhex(signing["public_key"])
        sig = bytes.fromhex(signature)
    except (TypeError, KeyError, ValueError):
        raise CorruptPackage("the header's signature fields are malformed; the file was altered") from None
    if not _crypto.verify_signature(public, signed_message(header), sig):
        raise CorruptPackage("the header does not match its signature; the file was altered after signing")


class SealedBody:
    """Random access to the plaintext database inside a v2 package.

    Blocks are authenticated and inflated on demand and kept in a bounded LRU
    cache; nothing decrypted is ever written to disk.
    """

    def __init__(self, path: Path, raw: RawHeader, master: bytes, cache_bytes: int = DEFAULT_CACHE_BYTES):
        header = raw.header
        try:
            self.block_size = int(header["block_size"])
            self.count = int(header["blocks"])
            self.size = int(header["database_bytes"])
            method = header["compression"]["method"]
        except (KeyError, TypeError, ValueError):
            raise NotAPackage(
                f"{path.name}: the header lacks the block layout; the file is damaged"
            ) from None
        if not (512 <= self.block_size <= _MAX_BLOCK_SIZE) or self.count != -(-self.size // self.block_size):
            raise CorruptPackage(
                f"{path.name}: the header's block layout is inconsistent; the file was altered"
            )
        self._hh = header_hash(header)
        self._key = body_key(master, header)
        self._file = _RandomAccess(path)
        self.dictionary: bytes | None = None
        try:
            self._read_table(raw, header)
        except BaseException:
            self._file.close()
            raise
        self._inflate = decompressor(method, limit=self.block_size + 1, dictionary=self.dictionary)
        self._cache: OrderedDict[int, bytes] = OrderedDict()
        self._cached = 0
        self._cache_bytes = max(cache_bytes, 2 * self.block_size)
        self._lock = threading.Lock()
        self.blocks_read = 0

    def _read_table(self, raw: RawHeader, header: dict) -> None:
        if raw.file_size < raw.body_offset + _TRAILER.size:
            raise CorruptPackage("the package is truncated: its trailer is missing")
        trailer = self._file.read_at(_TRAILER.size, raw.file_size - _TRAILER.size)
        table_offset, table_len, _zero, end = _TRAILER.unpack(trailer)
        if end != END_MAGIC:
            raise CorruptPackage("the package is truncated or has bytes appended: its trailer is missing")
        if (
            table_offset < raw.body_offset
            or table_offset + _RECORD.size + table_len + _TRAILER.size != raw.file_size
        ):
            raise CorruptPackage("the package's trailer points outside the body; the file is damaged")
        (prefix,) = _RECORD.unpack(self._file.read_at(_RECORD.size, table_offset))
        if prefix != table_len:
            raise CorruptPackage("the block table's length does not match the trailer; the file is damaged")
        sealed = self._file.read_at(table_len, table_offset + _RECORD.size)
        table = _crypto.unseal(self._key, _nonce(1, 0), sealed, _table_aad(self._hh, self.count))
        magic, count, flags = _TABLE_HEAD.unpack_from(table)
        extra = 1 if flags & 1 else 0
        n = count + extra
        if (
            magic != TABLE_MAGIC
            or count != self.count
            or flags & ~1
            or bool(extra) != bool(header["compression"].get("dictionary"))
            or len(table) != _TABLE_HEAD.size + n * _ENTRY_BYTES
        ):
            raise CorruptPackage("the block table is malformed")
        at = _TABLE_HEAD.size
        offsets = _from_le("Q", table[at : at + 8 * n])
        sealed_lens = _from_le("I", table[at + 8 * n : at + 12 * n])
        plain_lens = _from_le("I", table[at + 12 * n : at + 16 * n])
        leaves = table[at + 16 * n :]
        if _digest_of(leaves, hashlib.sha256(sealed).digest()) != header.get("body_digest"):
            raise CorruptPackage("the header's body digest does not match the body; the file was altered")
        _check_signature_field(header)
        if extra:
            record = self._file.read_at(_RECORD.size + sealed_lens[0], offsets[0])
            self.dictionary = _crypto.unseal(
                self._key, _nonce(2, 0), record[_RECORD.size :], _dictionary_aad(self._hh)
            )
        self._offsets, self._sealed_lens, self._plain_lens = (
            offsets[extra:],
            sealed_lens[extra:],
            plain_lens[extra:],
        )

    def _load(self, index: int) -> bytes:
        offset, sealed_len, plain_len = (
            self._offsets[index],
            self._sealed_lens[index],
            self._plain_lens[index],
        )
        record = self._file.read_at(_RECORD.size + sealed_len, offset)
        if _RECORD.unpack_from(record)[0] != sealed_len:
            raise CorruptPackage(f"block {index} is not where the block table says; the file is damaged")
        try:
            packed = _crypto.unseal(
                self._key, _nonce(0, index), record[_RECORD.size :], _block_aad(self._hh, index, self.count)
            )
        except DecryptionError:
            raise CorruptPackage(
                f"block {index} fails authentication; the file was altered or damaged"
            ) from None
        plain = self._inflate(packed)
        if len(plain) != plain_len:
            raise CorruptPackage(f"block {index} inflates to the wrong size; the file was altered")
        self.blocks_read += 1
        return plain

    def authenticate_all(self) -> int:
        """Authenticate and inflate every block (bypassing the cache); returns how many."""
        for index in range(self.count):
            self._load(index)
        return self.count

    def block(self, index: int) -> bytes:
        with self._lock:
            data = self._cache.get(index)
            if data is not None:
                self._cache.move_to_end(index)
                return data
        data = self._load(index)
        with self._lock:
            if index not in self._cache:
                self._cache[index] = data
                self._cached += len(data)
                while self._cached > self._cache_bytes:
                    _, old = self._cache.popitem(last=False)
                    self._cached -= len(old)
        return data

    def read(self, amount: int, offset: int) -> bytes:
        if offset >= self.size:
            return b""
        end = min(offset + amount, self.size)
        first, last = offset // self.block_size, (end - 1) // self.block_size
        if first == last:
            start = offset - first * self.block_size
            return self.block(first)[start : start + (end - offset)]
        parts = []
        for index in range(first, last + 1):
            base = index * self.block_size
            data = self.block(index)
            parts.append(data[max(offset - base, 0) : min(end - base, len(data))])
        return b"".join(parts)

    @property
    def cached_bytes(self) -> int:
        return self._cached

    def close(self) -> None:
        self._file.close()
        self._cache.clear()
        self._cached = 0


def walk_digest(path: Path, raw: RawHeader, chunk: int = 1 << 20) -> str | None:
    """Recompute ``body_digest`` from the file alone (no key); None if the layout is broken."""
    try:
        blocks = int(raw.header["blocks"]) + (1 if raw.header["compression"].get("dictionary") else 0)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    leaves = []
    with open(path, "rb") as fh:
        fh.seek(raw.body_offset)
        for _ in range(blocks + 1):
            prefix = fh.read(_RECORD.size)
            if len(prefix) != _RECORD.size:
                return None
            (length,) = _RECORD.unpack(prefix)
            h = hashlib.sha256()
            remaining = length
            while remaining:
                data = fh.read(min(chunk, remaining))
                if not data:
                    return None
                h.update(data)
                remaining -= len(data)
            leaves.append(h.digest())
        if fh.read(_TRAILER.size + 1).__len__() != _TRAILER.size:
            return None
    return _digest_of(b"".join(leaves[:-1]), leaves[-1])
