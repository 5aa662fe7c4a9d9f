"""Writing the container: a plaintext database sealed block by block, then its table and trailer.

The layout and the binding of each record (nonces, associated data, the
body digest) are described in ``_container``, which reads what this writes.
"""

from __future__ import annotations

import array
import hashlib
import io
import os
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import BinaryIO

from . import _crypto
from ._compression import Compression, compressor, train_dictionary
from ._container import (
    _PREAMBLE,
    _RECORD,
    _TABLE_HEAD,
    _TRAILER,
    END_MAGIC,
    MAGIC,
    TABLE_MAGIC,
    _block_aad,
    _dictionary_aad,
    _digest_of,
    _le,
    _nonce,
    _read_at,
    _table_aad,
    body_key,
)
from ._errors import CorruptPackage
from ._header import DIGEST_HEX, FORMAT_VERSION, SIGNATURE_HEX, encode_header, header_hash, signed_message


def _blocks(fh: BinaryIO, block_size: int) -> Iterator[bytes]:
    while chunk := fh.read(block_size):
        yield chunk


def _bounded_map(
    fn: Callable[[bytes], bytes], items: Iterator[bytes], workers: int
) -> Iterator[tuple[bytes, bytes]]:
    """Like ``Executor.map`` but never more than a few blocks in flight."""
    if workers <= 1:
        for item in items:
            yield item, fn(item)
        return
    pending: deque[tuple[bytes, Future]] = deque()
    with ThreadPoolExecutor(workers) as pool:
        for item in items:
            pending.append((item, pool.submit(fn, item)))
            if len(pending) >= workers * 2:
                plain, fut = pending.popleft()
                yield plain, fut.result()
        while pending:
            plain, fut = pending.popleft()
            yield plain, fut.result()


def write_package(
    out: BinaryIO,
    database: Path,
    header: dict,
    master: bytes,
    compression: Compression,
    *,
    block_size: int | None = None,
    signing_key: _crypto.SigningKey | None = None,
    workers: int | None = None,
) -> dict:
    """Seal ``database`` into ``out`` (positioned at 0) and return the final header.

    The header is written first with fixed-width placeholders for the digest
    and signature and rewritten in place at the end, so the body is written
    once and never copied.
    """
    db_size = database.stat().st_size
    block_size = block_size or compression.block_size
    count = -(-db_size // block_size)
    with open(database, "rb") as db:
        dictionary = train_dictionary(
            compression, lambda offset, length: _read_at(db, offset, length), db_size
        )
    header = dict(header)
    header.update(
        {
            "compression": {
                "method": compression.method,
                "level": compression.level,
                "preset": compression.preset,
                "dictionary": dictionary is not None,
            },
            "cipher": "AES-256-GCM",
            "block_size": block_size,
            "blocks": count,
            "database_bytes": db_size,
            "body_digest": "0" * DIGEST_HEX,
        }
    )
    if signing_key is not None:
        header["signing"] = {"algorithm": "Ed25519", "public_key": signing_key.public_key.hex()}
        header["signature"] = "0" * SIGNATURE_HEX
    hh = header_hash(header)
    key = body_key(master, header)
    placeholder = encode_header(header)
    out.write(_PREAMBLE.pack(MAGIC, FORMAT_VERSION, 0, len(placeholder)))
    out.write(placeholder)
    offset = _PREAMBLE.size + len(placeholder)

    offsets, sealed_lens, plain_lens = array.array("Q"), array.array("I"), array.array("I")
    leaves: list[bytes] = []

    def record(sealed: bytes, plain_len: int) -> None:
        nonlocal offset
        out.write(_RECORD.pack(len(sealed)))
        out.write(sealed)
        leaf = hashlib.sha256(sealed).digest()
        leaves.append(leaf)
        offsets.append(offset)
        sealed_lens.append(len(sealed))
        plain_lens.append(plain_len)
        offset += _RECORD.size + len(sealed)

    if dictionary is not None:
        record(_crypto.seal(key, _nonce(2, 0), dictionary, _dictionary_aad(hh)), len(dictionary))
    compress = compressor(compression, dictionary)
    workers = workers if workers is not None else min(4, os.cpu_count() or 1)
    blocks = 0
    with open(database, "rb") as db:
        for index, (plain, packed) in enumerate(_bounded_map(compress, _blocks(db, block_size), workers)):
            record(_crypto.seal(key, _nonce(0, index), packed, _block_aad(hh, index, count)), len(plain))
            blocks += 1
    if blocks != count:
        raise CorruptPackage("the database changed size while it was being sealed")
    flags = 1 if dictionary is not None else 0
    columns = [_le(offsets), _le(sealed_lens), _le(plain_lens), b"".join(leaves)]
    table = _TABLE_HEAD.pack(TABLE_MAGIC, count, flags) + b"".join(columns)
    sealed_table = _crypto.seal(key, _nonce(1, 0), table, _table_aad(hh, count))
    table_offset = offset
    out.write(_RECORD.pack(len(sealed_table)))
    out.write(sealed_table)
    out.write(_TRAILER.pack(table_offset, len(sealed_table), 0, END_MAGIC))

    header["body_digest"] = _digest_of(b"".join(leaves), hashlib.sha256(sealed_table).digest())
    if signing_key is not None:
        header["signature"] = signing_key.sign(signed_message(header)).hex()
    final = encode_header(header)
    if len(final) != len(placeholder):  # fixed-width fields: cannot happen
        raise RuntimeError("header changed length while sealing")
    out.seek(_PREAMBLE.size)
    out.write(final)
    out.seek(0, io.SEEK_END)
    return header
