"""BM25 over a v2 package's own index, with bounded work per query.

Scores are ``sum(weight(term) * impact(term, passage))``: the impact byte was
computed at pack time from the term frequency and the passage length, the
weight (idf) is given by the caller so several packages can share one set of
corpus statistics.

Work is bounded: terms are taken rarest first and their postings merged
until a budget of postings is spent.  Terms past the budget (very common
words) contribute their highest-impact postings as candidates and are then
looked up exactly for the best candidates only.  A very common word therefore
never costs a pass over most of the corpus.
"""

from __future__ import annotations

import bisect
import heapq
import threading
from collections import OrderedDict
from dataclasses import dataclass

from . import _tokenize
from ._errors import UnsupportedVersion
from ._index import delta_decode, le_array

POSTING_BUDGET = 50_000
PROBE_CANDIDATES = 2_000
_DECODED_CACHE_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class TermInfo:
    term: str
    df: int
    cf: int
    term_id: int


class Lexicon:
    def __init__(self, package) -> None:
        self._pkg = package
        rules = package.meta.get("tokenizer") or {}
        if rules.get("name") != _tokenize.TOKENIZER_NAME or rules.get("version", 0) > _tokenize.TOKENIZER_VERSION:
            raise UnsupportedVersion(
                f"{package.name} was indexed with tokenizer {rules.get('name')} {rules.get('version')}, "
                "which this reader does not know; upgrade mdcx-format"
            )
        stats = package.meta.get("lexical") or {}
        self.passages = int(stats.get("passages", 0))
        self.scale = float(stats.get("impact_scale", 2.2 / 255))
        self.mean_tokens = float(stats.get("mean_passage_tokens", 0.0))
        layout = dict(package.execute("SELECT name, data FROM layout"))
        self._starts = le_array(layout.get("document_starts", b""))
        self._doc_ids = le_array(layout.get("document_ids", b""))
        self._cache: OrderedDict[int, tuple] = OrderedDict()
        self._cached = 0
        self._lock = threading.Lock()

    # -- vocabulary ----------------------------------------------------------------------------

    @staticmethod
    def query_terms(text: str) -> list[tuple[str, bool]]:
        return _tokenize.query_terms(text)

    @staticmethod
    def first_unit(term: str) -> str:
        return _tokenize.first_unit(term)

    def lookup(self, terms: list[str]) -> dict[str, TermInfo]:
        found: dict[str, TermInfo] = {}
        unique = list(dict.fromkeys(terms))
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for term, term_id, df, cf in self._pkg.execute(
                f"SELECT term, id, df, cf FROM term WHERE term IN ({marks})", chunk
            ):
                found[term] = TermInfo(term, df, cf, term_id)
        return found

    def with_prefix(self, prefix: str, limit: int = 200) -> list[TermInfo]:
        upper = prefix + "\U0010ffff"
        return [
            TermInfo(t, df, cf, i)
            for t, i, df, cf in self._pkg.execute(
                "SELECT term, id, df, cf FROM term WHERE term >= ? AND term < ? ORDER BY df DESC LIMIT ?",
                (prefix, upper, limit),
            )
        ]

    # -- postings ------------------------------------------------------------------------------

    def postings(self, info: TermInfo):
        """``(ids, impacts)`` of a term, ids ascending.  Large lists are cached decoded."""
        with self._lock:
            hit = self._cache.get(info.term_id)
            if hit is not None:
                self._cache.move_to_end(info.term_id)
                return hit
        rows = self._pkg.execute("SELECT ids, impacts FROM posting WHERE id = ?", (info.term_id,))
        if not rows:
            return (), b""
        ids = delta_decode(rows[0][0])
        result = (ids, rows[0][1])
        if len(ids) > 2048:
            with self._lock:
                self._cache[info.term_id] = result
                self._cached += len(ids) * 5
                while self._cached > _DECODED_CACHE_BYTES and self._cache:
                    _, (old, _imp) = self._cache.popitem(last=False)
                    self._cached -= len(old) * 5
        return result

    def top(self, info: TermInfo):
        rows = self._pkg.execute("SELECT top_ids, top_impacts FROM posting WHERE id = ?", (info.term_id,))
        if not rows or rows[0][0] is None:
            return None
        return le_array(rows[0][0]), rows[0][1]

    # -- scoring -------------------------------------------------------------------------------

    def score(self, weights: dict[TermInfo, float], *, budget: int = POSTING_BUDGET) -> dict[int, float]:
        """Passage id -> BM25 score, over a bounded candidate set."""
        acc: dict[int, float] = {}
        spent = 0
        deferred: list[tuple[TermInfo, float]] = []
        for info, weight in sorted(weights.items(), key=lambda kv: kv[0].df):
            if weight <= 0:
                continue
            if spent + info.df <= budget or not acc and info.df <= budget:
                ids, impacts = self.postings(info)
                w = weight * self.scale
                table = [w * i for i in range(256)]
                get = acc.get
                if not acc:
                    acc = dict(zip(ids, map(table.__getitem__, impacts)))
                else:
                    for pid, imp in zip(ids, impacts):
                        acc[pid] = get(pid, 0.0) + table[imp]
                spent += info.df
            else:
                deferred.append((info, weight))
        for info, weight in deferred:
            w = weight * self.scale
            top = self.top(info)
            credited: dict[int, int] = {}
            if top is not None:
                get = acc.get
                for pid, imp in zip(*top):
                    credited[pid] = imp
                    acc[pid] = get(pid, 0.0) + w * imp
            best = heapq.nlargest(PROBE_CANDIDATES, acc, key=acc.__getitem__) if len(acc) > PROBE_CANDIDATES else list(acc)
            ids, impacts = self.postings(info)
            n = len(ids)
            for pid in best:
                if pid in credited:
                    continue
                at = bisect.bisect_left(ids, pid)
                if at < n and ids[at] == pid:
                    acc[pid] += w * impacts[at]
        return acc

    # -- documents -----------------------------------------------------------------------------

    def document_of(self, passage_id: int) -> int:
        """The id of the document holding ``passage_id``."""
        return self._doc_ids[bisect.bisect_right(self._starts, passage_id) - 1]
