"""Building the lexical index while documents stream past.

Postings are gathered in memory per term and spilled to a scratch database
beside the target whenever they pass a fixed budget, so memory does not grow
with the corpus.  At the end the spills are merged term by term (passage ids
only grow, so a term's spills concatenate in order).

Per term the package stores its passage ids, delta-coded in the narrowest
unsigned width that holds the gaps (frequent words have small gaps, so they
take a byte per posting), and the term frequency per posting (a byte, mostly
1, which compresses to almost nothing).  Per passage it stores a length
bucket (a byte: length in 1/32 of the mean).  BM25's term-frequency factor
``tf(k1+1)/(tf + k1(1-b+b·dl/avgdl))`` is computed from those two bytes at
query time; the term's weight (idf) is given by the caller, so several
packages can share one set of corpus statistics and their scores compare.

Frequent words also keep their highest-scoring postings apart (``top_ids``),
so a query can bound the work a very common word costs.
"""

from __future__ import annotations

import array
import heapq
import math
import operator
import sys
from collections import Counter
from collections.abc import Iterator
from itertools import accumulate, groupby
from pathlib import Path

import apsw

from ._schema import script

K1 = 1.2
B = 0.75
TOP_MIN_DF = 4096  # terms in more passages than this get a top list
TOP_SIZE = 1024
PREFIX_LETTERS = 5  # query words match words sharing their first five letters (see _lexical)
MIN_PREFIX_LETTERS, MAX_PREFIX_LETTERS = 3, 12  # shorter prefixes would group unrelated words
BUCKETS_PER_MEAN = 32  # passage length quantised to 1/32 of the mean
_SPILL_TOKENS = 8_000_000
_LITTLE = sys.byteorder == "little"


def encode_ids(ids: array.array) -> bytes:
    """Ascending ids -> width code, first id (uint32 LE), gaps in the narrowest width."""
    if not ids:
        return b""
    gaps = array.array("I", map(operator.sub, ids[1:], ids[:-1]))
    widest = max(gaps, default=0)
    code = "B" if widest < 1 << 8 else "H" if widest < 1 << 16 else "I"
    packed = array.array(code, gaps)
    first = array.array("I", [ids[0]])
    if not _LITTLE:
        packed.byteswap()
        first.byteswap()
    return code.encode() + first.tobytes() + packed.tobytes()


def decode_ids(data: bytes) -> array.array:
    if not data:
        return array.array("I")
    code = chr(data[0])
    first = array.array("I")
    first.frombytes(data[1:5])
    gaps = array.array(code)
    gaps.frombytes(data[5:])
    if not _LITTLE:
        first.byteswap()
        gaps.byteswap()
    return array.array("I", accumulate(gaps, initial=first[0]))


def le_array(data: bytes, code: str = "I") -> array.array:
    out = array.array(code)
    out.frombytes(data)
    if not _LITTLE:
        out.byteswap()
    return out


def le_bytes(values: array.array) -> bytes:
    if not _LITTLE:
        values = array.array(values.typecode, values)
        values.byteswap()
    return values.tobytes()


def tf_factors(k1: float = K1, b: float = B) -> list[list[float]]:
    """``table[tf][bucket]``: BM25's tf factor for a passage in length bucket ``bucket``."""
    rows = [[0.0] * 256]
    for tf in range(1, 256):
        rows.append(
            [
                tf * (k1 + 1) / (tf + k1 * (1 - b + b * max(bucket, 1) / BUCKETS_PER_MEAN))
                for bucket in range(256)
            ]
        )
    return rows


def _collapse(repeated: array.array) -> tuple[array.array, bytes]:
    """Ascending passage ids, one entry per occurrence -> unique ids and term frequencies."""
    if len(repeated) < 1_000_000:
        unique = array.array("I", dict.fromkeys(repeated))
        if len(unique) == len(repeated):
            return unique, b"\x01" * len(unique)
        counts = Counter(repeated)
        if max(counts.values()) < 256:
            return unique, bytes(map(counts.__getitem__, unique))
        return unique, bytes(min(counts[p], 255) for p in unique)
    # Very long lists: no dictionary as large as the list.
    unique, tfs = array.array("I"), bytearray()
    for pid, group in groupby(repeated):
        unique.append(pid)
        tfs.append(min(sum(1 for _ in group), 255))
    return unique, bytes(tfs)


class IndexBuilder:
    def __init__(self, scratch: Path, prefix_letters: int = PREFIX_LETTERS):
        self._scratch = scratch
        self._prefix_letters = prefix_letters
        self._spill: apsw.Connection | None = None
        self._spills = 0
        self._postings: dict[str, array.array] = {}
        self._pending = 0
        self.lengths = array.array("I")

    def add(self, passage_id: int, terms: list[str]) -> None:
        """Record a passage's terms (in order, repeats kept); ids must come in order."""
        if passage_id != len(self.lengths):
            raise ValueError("passages must be added in id order")
        self.lengths.append(len(terms))
        postings = self._postings
        get = postings.get
        for term in terms:
            ids = get(term)
            if ids is None:
                postings[term] = array.array("I", (passage_id,))
            else:
                ids.append(passage_id)
        self._pending += len(terms)
        if self._pending >= _SPILL_TOKENS:
            self._spill_postings()

    def _spill_postings(self) -> None:
        if self._spill is None:
            self._spill = apsw.Connection(str(self._scratch))
            script(
                self._spill,
                "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA temp_store=MEMORY;"
                "CREATE TABLE spill(term TEXT, seq INTEGER, ids BLOB, tfs BLOB, PRIMARY KEY(term, seq)) WITHOUT ROWID",
            )
        seq = self._spills

        def rows() -> Iterator[tuple]:
            for term in sorted(self._postings):
                ids, tfs = _collapse(self._postings.pop(term))
                yield term, seq, le_bytes(ids), tfs

        with self._spill:
            self._spill.executemany("INSERT INTO spill VALUES(?, ?, ?, ?)", rows())
        self._spills += 1
        self._postings = {}
        self._pending = 0

    def _merged(self) -> Iterator[tuple[str, array.array, bytes]]:
        """Every term with its unique passage ids and tfs, terms in order.

        A passage never straddles two spills, so a term's spills concatenate.
        """
        if self._spill is None:
            for term in sorted(self._postings):
                yield (term, *_collapse(self._postings.pop(term)))
            return
        if self._postings:
            self._spill_postings()
        current, ids, tfs = None, array.array("I"), bytearray()
        for term, ids_blob, tfs_blob in self._spill.execute(
            "SELECT term, ids, tfs FROM spill ORDER BY term, seq"
        ):
            if term != current:
                if current is not None:
                    yield current, ids, bytes(tfs)
                current, ids, tfs = term, array.array("I"), bytearray()
            ids.extend(le_array(ids_blob))
            tfs.extend(tfs_blob)
        if current is not None:
            yield current, ids, bytes(tfs)

    def finish(self, con: apsw.Connection) -> dict:
        """Write ``term``, ``posting`` and the length buckets into ``con``; return statistics."""
        n = len(self.lengths)
        total = sum(self.lengths)
        mean = total / n if n else 0.0
        scale = BUCKETS_PER_MEAN / mean if mean else 0.0
        buckets = bytes(min(255, max(1, round(dl * scale))) for dl in self.lengths)
        factors = tf_factors()
        terms = 0

        def rows() -> Iterator[tuple]:
            nonlocal terms
            for term_id, (term, ids, tfs) in enumerate(self._merged()):
                terms += 1
                top_ids = top_tfs = None
                if len(ids) > TOP_MIN_DF:
                    top_ids, top_tfs = _top(ids, tfs, buckets, factors)
                yield term, term_id, len(ids), sum(tfs), encode_ids(ids), tfs, top_ids, top_tfs

        for batch in _batches(rows(), 2000):
            con.executemany("INSERT INTO term(term, id, df, cf) VALUES(?, ?, ?, ?)", (r[:4] for r in batch))
            con.executemany(
                "INSERT INTO posting(id, ids, tfs) VALUES(?, ?, ?)", ((r[1], r[4], r[5]) for r in batch)
            )
            con.executemany(
                "INSERT INTO posting_top(id, ids, tfs) VALUES(?, ?, ?)",
                ((r[1], r[6], r[7]) for r in batch if r[6]),
            )
        con.execute("INSERT INTO layout(name, data) VALUES('length_buckets', ?)", (buckets,))
        self.close()
        return {
            "passages": n,
            "tokens": total,
            "mean_passage_tokens": mean,
            "terms": terms,
            "k1": K1,
            "b": B,
            "buckets_per_mean": BUCKETS_PER_MEAN,
            "top_min_df": TOP_MIN_DF,
            "prefix_letters": self._prefix_letters,
        }

    def close(self) -> None:
        if self._spill is not None:
            self._spill.close()
            self._spill = None
        self._postings = {}


def _top(ids: array.array, tfs: bytes, buckets: bytes, factors: list[list[float]]) -> tuple[bytes, bytes]:
    """The TOP_SIZE postings with the highest tf factor, as (ids, tfs), best first."""
    keys = array.array("f", (factors[tf][buckets[p]] for p, tf in zip(ids, tfs)))
    floor = heapq.nlargest(TOP_SIZE, keys)[-1]
    best = sorted((i for i, k in enumerate(keys) if k >= floor), key=keys.__getitem__, reverse=True)[
        :TOP_SIZE
    ]
    return le_bytes(array.array("I", (ids[i] for i in best))), bytes(tfs[i] for i in best)


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
