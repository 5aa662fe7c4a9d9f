"""Vectors inside a package: half precision, in blocks of passages, renormalised on read.

Block ``b`` of table ``vector_block`` holds the vectors of passages
``b*BLOCK .. b*BLOCK+n-1`` as little-endian float16, one row per passage, so a
search streams a package's vectors a block at a time instead of holding a
matrix per package.  Half precision shifts a unit vector's length by up to
about 1e-3; rows are scaled back to unit length when read.
"""

from __future__ import annotations

from collections.abc import Iterator

BLOCK = 1024
TABLE = "CREATE TABLE IF NOT EXISTS vector_block(block INTEGER PRIMARY KEY, data BLOB NOT NULL)"


def to_blob(vectors) -> bytes:
    import numpy as np

    half = np.asarray(vectors, dtype="<f2")
    return half.tobytes()


def from_blob(data: bytes, dimension: int):
    """float32 rows of unit length."""
    import numpy as np

    rows = np.frombuffer(data, dtype="<f2").reshape(-1, dimension).astype(np.float32)
    norms = np.sqrt(np.einsum("ij,ij->i", rows, rows))[:, None]  # 4x faster than linalg.norm here
    rows /= np.maximum(norms, 1e-12)
    return rows


def blocks(package, dimension: int) -> Iterator[tuple[int, object]]:
    """``(first passage id, float32 matrix)`` for every block of a package, in order."""
    count = package.execute("SELECT count(*) FROM vector_block")[0][0]
    for block in range(count):
        rows = package.execute("SELECT data FROM vector_block WHERE block = ?", (block,))
        if rows:
            yield block * BLOCK, from_blob(rows[0][0], dimension)
