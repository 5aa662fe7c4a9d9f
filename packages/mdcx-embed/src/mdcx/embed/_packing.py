"""Encoding a package's passages while it is being built (``mdcx pack --multilingual``).

Passages are read back from the database being built, in id order, encoded
in batches and written as vector blocks; memory holds one block.  With
``--reuse OLD.mdcx`` a passage whose text is unchanged takes its vector from
the old package (same model only): encoding is what costs, and an unchanged
text has the same vector.  The old package is read under its own key from
its own encrypted body; no vector is written anywhere else.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass

from mdcx.format import display_text

from ._encoder import Encoder
from ._vectors import BLOCK, TABLE, to_blob

BATCH = 32


@dataclass(frozen=True)
class EncodeReport:
    model: str
    dimension: int
    passages: int
    encoded: int
    reused: int
    seconds: float
    mean_passage_chars: float
    reuse_note: str | None = None

    @property
    def passages_per_second(self) -> float:
        return self.encoded / self.seconds if self.seconds and self.encoded else 0.0

    def to_json(self) -> dict:
        return {
            "model": self.model,
            "dimension": self.dimension,
            "passages": self.passages,
            "encoded": self.encoded,
            "reused": self.reused,
            "seconds": round(self.seconds, 3),
            "passages_per_second": round(self.passages_per_second, 2),
            "mean_passage_chars": round(self.mean_passage_chars, 1),
            "reuse_note": self.reuse_note,
        }


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


def _reusable(old, encoder: Encoder) -> tuple[dict[bytes, int], object, str | None]:
    """Map text digest -> passage id in ``old``, and a reader of its vectors; or a note why not."""
    if old is None:
        return {}, None, None
    meta = old.meta.get("embedding") or {}
    if not meta:
        return {}, None, f"{old.name} holds no vectors; every passage is encoded"
    if meta.get("model") != encoder.model_id:
        return (
            {},
            None,
            f"{old.name} was encoded by {meta.get('model')}, not {encoder.model_id}; nothing reused",
        )
    digests = {}
    for pid, text in old.execute("SELECT id, text FROM passage"):
        digests.setdefault(_digest(text), pid)
    return digests, meta, None


def encode_into(
    con, encoder: Encoder, *, reuse=None, progress: Callable[[int, int], None] | None = None
) -> EncodeReport:
    """Write the vectors of every passage of the database ``con`` (an apsw connection)."""
    import numpy as np

    con.execute(TABLE)
    total = con.execute("SELECT count(*) FROM passage").fetchall()[0][0]
    digests, old_meta, note = _reusable(reuse, encoder)
    old_blocks: dict[int, object] = {}

    def old_vector(pid: int):
        block = pid // BLOCK
        if block not in old_blocks:
            rows = reuse.execute("SELECT data FROM vector_block WHERE block = ?", (block,))
            from ._vectors import from_blob

            old_blocks.clear()  # old ids come roughly in order; keep one block
            old_blocks[block] = from_blob(rows[0][0], int(old_meta["dimension"]))
        return old_blocks[block][pid % BLOCK]

    encoded = reused = 0
    chars = 0
    seconds = 0.0
    pending: list[object] = []
    block = 0

    def batches():
        batch = []
        for pid, text in con.execute("SELECT id, text FROM passage ORDER BY id"):
            batch.append((pid, display_text(text), text))
            if len(batch) >= BATCH:
                yield batch
                batch = []
        if batch:
            yield batch

    done = 0
    for batch in batches():
        vectors = [None] * len(batch)
        fresh = []
        for i, (_pid, shown, raw) in enumerate(batch):
            chars += len(shown)
            old_pid = digests.get(_digest(raw)) if digests else None
            if old_pid is not None:
                vectors[i] = old_vector(old_pid)
                reused += 1
            else:
                fresh.append(i)
        if fresh:
            t0 = time.perf_counter()
            new = encoder.encode_passages([batch[i][1] or " " for i in fresh])
            seconds += time.perf_counter() - t0
            for i, vector in zip(fresh, new):
                vectors[i] = vector
            encoded += len(fresh)
        pending.extend(vectors)
        while len(pending) >= BLOCK:
            con.execute(
                "INSERT INTO vector_block(block, data) VALUES(?, ?)",
                (block, to_blob(np.vstack(pending[:BLOCK]))),
            )
            del pending[:BLOCK]
            block += 1
        done += len(batch)
        if progress:
            progress(done, total)
    if pending:
        con.execute(
            "INSERT INTO vector_block(block, data) VALUES(?, ?)", (block, to_blob(np.vstack(pending)))
        )
    return EncodeReport(
        encoder.model_id,
        encoder.dimension,
        total,
        encoded,
        reused,
        seconds,
        chars / total if total else 0.0,
        note,
    )
