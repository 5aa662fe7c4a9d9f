"""Building the lexical index while documents stream past.

Postings are gathered in memory per term and spilled to a scratch database
beside the target whenever they pass a fixed budget, so memory does not grow
with the corpus.  At the end the spills are merged term by term (passage ids
only grow, so a term's spills concatenate in order) and written with their
BM25 impacts.

Per term the package stores passage ids (delta-coded ``uint32``) and one byte
per posting: the BM25 term-frequency factor ``tf(k1+1)/(tf + k1(1-b+b·dl/avgdl))``
quantised to 1-255.  Query time multiplies by the term's weight (idf), which is
computed over every package searched together, so scores compare across
packages.  Frequent terms also keep their highest-impact postings apart
(``top_ids``), so a query can bound the work a very common word costs.
"""

from __future__ import annotations

import array
import math
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import apsw

K1 = 1.2
B = 0.75
TOP_MIN_DF = 4096  # terms in more passages than this get a top list
TOP_SIZE = 1024
_SPILL_POSTINGS = 4_000_000
_BUCKETS_PER_AVG = 32  # passage length quantised to 1/32 of the mean


def delta_encode(ids: array.array) -> bytes:
    out = array.array("I", [ids[0]]) if ids else array.array("I")
    out.extend(b - a for a, b in zip(ids, ids[1:]))
    if sys.byteorder == "big":
        out.byteswap()
    return out.tobytes()


def delta_decode(data: bytes) -> array.array:
    from itertools import accumulate

    raw = array.array("I")
    raw.frombytes(data)
    if sys.byteorder == "big":
        raw.byteswap()
    return array.array("I", accumulate(raw))


def le_array(data: bytes, code: str = "I") -> array.array:
    out = array.array(code)
    out.frombytes(data)
    if sys.byteorder == "big":
        out.byteswap()
    return out


def le_bytes(values: array.array) -> bytes:
    if sys.byteorder == "big":
        values = array.array(values.typecode, values)
        values.byteswap()
    return values.tobytes()


def impact_table(k1: float = K1, b: float = B) -> list[bytes]:
    """``table[tf][bucket]``: quantised BM25 tf factor for a passage in length bucket."""
    rows = []
    for tf in range(256):
        row = bytearray(256)
        for bucket in range(256):
            ratio = max(bucket, 1) / _BUCKETS_PER_AVG
            w = tf * (k1 + 1) / (tf + k1 * (1 - b + b * ratio)) if tf else 0.0
            row[bucket] = max(1, min(255, round(w / (k1 + 1) * 255))) if tf else 0
        rows.append(bytes(row))
    return rows


def impact_scale(k1: float = K1) -> float:
    """Multiply a stored impact byte by this to get the BM25 tf factor back."""
    return (k1 + 1) / 255


class IndexBuilder:
    def __init__(self, scratch: Path):
        self._scratch = scratch
        self._spill: apsw.Connection | None = None
        self._spills = 0
        self._postings: dict[str, tuple[array.array, bytearray]] = {}
        self._pending = 0
        self.lengths = array.array("I")

    def add(self, passage_id: int, terms: list[str]) -> None:
        if passage_id != len(self.lengths):
            raise ValueError("passages must be added in id order")
        self.lengths.append(len(terms))
        postings = self._postings
        counts = Counter(terms)
        for term, tf in counts.items():
            entry = postings.get(term)
            if entry is None:
                entry = postings[term] = (array.array("I"), bytearray())
            entry[0].append(passage_id)
            entry[1].append(tf if tf < 255 else 255)
        self._pending += len(counts)
        if self._pending >= _SPILL_POSTINGS:
            self._spill_postings()

    def _spill_postings(self) -> None:
        if self._spill is None:
            self._spill = apsw.Connection(str(self._scratch))
            self._spill.execute(
                "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA temp_store=MEMORY;"
                "CREATE TABLE spill(term TEXT, seq INTEGER, ids BLOB, tfs BLOB, PRIMARY KEY(term, seq)) WITHOUT ROWID"
            )
        seq = self._spills
        with self._spill:
            self._spill.executemany(
                "INSERT INTO spill VALUES(?, ?, ?, ?)",
                ((t, seq, le_bytes(ids), bytes(tfs)) for t, (ids, tfs) in sorted(self._postings.items())),
            )
        self._spills += 1
        self._postings = {}
        self._pending = 0

    def _merged(self) -> Iterator[tuple[str, array.array, bytes]]:
        if self._spill is None:
            for term in sorted(self._postings):
                ids, tfs = self._postings[term]
                yield term, ids, bytes(tfs)
            return
        if self._postings:
            self._spill_postings()
        current, ids, tfs = None, array.array("I"), bytearray()
        for term, _seq, ids_blob, tfs_blob in self._spill.execute("SELECT term, seq, ids, tfs FROM spill ORDER BY term, seq"):
            if term != current:
                if current is not None:
                    yield current, ids, bytes(tfs)
                current, ids, tfs = term, array.array("I"), bytearray()
            ids.extend(le_array(ids_blob))
            tfs.extend(tfs_blob)
        if current is not None:
            yield current, ids, bytes(tfs)

    def finish(self, con: apsw.Connection) -> dict:
        """Write ``term`` and ``posting`` into ``con``; return the statistics for ``meta``."""
        n = len(self.lengths)
        total = sum(self.lengths)
        avgdl = total / n if n else 0.0
        scale = _BUCKETS_PER_AVG / avgdl if avgdl else 0.0
        bucket = bytes(min(255, max(1, round(dl * scale))) for dl in self.lengths)
        table = impact_table()
        terms = 0

        def rows() -> Iterator[tuple]:
            nonlocal terms
            for term_id, (term, ids, tfs) in enumerate(self._merged()):
                terms += 1
                impacts = bytes(table[tf][bucket[p]] for p, tf in zip(ids, tfs))
                top_ids = top_impacts = None
                if len(ids) > TOP_MIN_DF:
                    top_ids, top_impacts = _top(ids, impacts)
                yield term, term_id, len(ids), sum(tfs), delta_encode(ids), impacts, top_ids, top_impacts

        for batch in _batches(rows(), 2000):
            con.executemany("INSERT INTO term(term, id, df, cf) VALUES(?, ?, ?, ?)", (r[:4] for r in batch))
            con.executemany(
                "INSERT INTO posting(id, ids, impacts, top_ids, top_impacts) VALUES(?, ?, ?, ?, ?)",
                ((r[1], *r[4:]) for r in batch),
            )
        self.close()
        return {
            "passages": n,
            "tokens": total,
            "mean_passage_tokens": avgdl,
            "terms": terms,
            "k1": K1,
            "b": B,
            "impact_scale": impact_scale(),
            "top_min_df": TOP_MIN_DF,
        }

    def close(self) -> None:
        if self._spill is not None:
            self._spill.close()
            self._spill = None
        self._postings = {}


def _top(ids: array.array, impacts: bytes) -> tuple[bytes, bytes]:
    """The TOP_SIZE highest-impact postings, found level by level (impacts are bytes)."""
    picked_ids = array.array("I")
    picked = bytearray()
    for level in range(255, 0, -1):
        if len(picked_ids) >= TOP_SIZE:
            break
        needle = bytes((level,))
        at = impacts.find(needle)
        while at >= 0 and len(picked_ids) < TOP_SIZE:
            picked_ids.append(ids[at])
            picked.append(level)
            at = impacts.find(needle, at + 1)
    return le_bytes(picked_ids), bytes(picked)


def _batches(items: Iterator, size: int) -> Iterator[list]:
    batch = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def idf(df: int, n: int) -> float:
    """BM25 (Robertson-Sparck Jones, +1 inside the log so it stays positive)."""
    return math.log(1 + (n - df + 0.5) / (df + 0.5))
