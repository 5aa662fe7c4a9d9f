"""Property test: whatever bytes go into a sealed body come back, at any offset."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mdcx.format import Compression
from mdcx.format._container import SealedBody, read_raw_header, walk_digest
from mdcx.format._container_write import write_package

MASTER = bytes(range(32))
HEADER = {"format": "mdcx", "version": 2, "package_id": "ab" * 16, "kdf": {"name": "scrypt"}}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.binary(min_size=1, max_size=200_000),
    method=st.sampled_from(["zstd", "lzma"]),
    block=st.sampled_from([16384, 32768, 65536]),
    reads=st.lists(st.tuples(st.integers(0, 210_000), st.integers(1, 70_000)), min_size=1, max_size=8),
)
def test_sealed_body_round_trip(data: bytes, method: str, block: int, reads: list[tuple[int, int]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "db"
        db.write_bytes(data)
        target = Path(tmp) / "p.mdcx"
        with open(target, "wb") as out:
            header = write_package(out, db, HEADER, MASTER, Compression(method, 1), block_size=block)
        raw = read_raw_header(target)
        assert raw.header == header
        assert walk_digest(target, raw) == header["body_digest"]
        body = SealedBody(target, raw, MASTER, cache_bytes=2 * block)
        try:
            assert body.size == len(data)
            for offset, amount in reads:
                assert body.read(amount, offset) == data[offset : offset + amount]
            assert body.read(len(data), 0) == data
        finally:
            body.close()
