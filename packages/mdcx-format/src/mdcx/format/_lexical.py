"""BM25 over a v2 package's own index, with bounded work per query.

A passage's score is ``sum(weight(term) * tf_factor(tf, length bucket))``.
The weight (idf) is given by the caller, so several packages can share one
set of corpus statistics.

Work is bounded: terms are taken rarest first and their postings merged
until a budget of postings is spent.  Terms past the budget (very common
words) contribute their best postings (kept apart at pack time) as
candidates and are then looked up exactly for the best candidates only.  A
very common word therefore never costs a pass over most of the corpus.
"""

from __future__ import annotations

import bisect
import heapq
import threading
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass

from . import _tokenize
from ._errors import UnsupportedVersion
from ._index import BUCKETS_PER_MEAN, K1, B, decode_ids, le_array, tf_factors

POSTING_BUDGET = 10_000
PROBE_CANDIDATES = 1_000
# Morphology without a language-specific stemmer: a word of PREFIX_LETTERS
# (five) letters or more also matches, as one pseudo-term, every word that
# starts with its first five letters (measured on NTREX in 38 languages and on
# Cranfield; see docs/architecture.md).  The number is the package's own
# (``PackOptions.prefix_letters``, 0 for none).  A prefix too common to afford
# is left out.
PREFIX_MAX_TERMS = 300
PREFIX_MAX_POSTINGS = 30_000
_DECODED_CACHE_BYTES = 16 * 1024 * 1024
_CACHE_MIN_POSTINGS = 2048


@dataclass(frozen=True)
class TermInfo:
    term: str
    df: int
    cf: int
    term_id: int


@dataclass(frozen=True)
class PrefixGroup:
    """Every word starting with ``prefix``, as one term: summed tf per passage."""

    prefix: str
    tfs: dict[int, int]

    @property
    def df(self) -> int:
        return len(self.tfs)


class Lexicon:
    def __init__(self, package) -> None:
        self._pkg = package
        rules = package.meta.get("tokenizer") or {}
        if (
            rules.get("name") != _tokenize.TOKENIZER_NAME
            or rules.get("version", 0) > _tokenize.TOKENIZER_VERSION
            or rules.get("units", "pairs") != "pairs"
        ):
            raise UnsupportedVersion(
                f"{package.name} was indexed with tokenizer {rules.get('name')} {rules.get('version')}, "
                "which this reader does not know; upgrade mdcx-format"
            )
        # The rules take letters, digits and marks from the Unicode database: a
        # package indexed under another version may hold characters this one
        # reads differently (newly assigned letters above all).  Said, not refused.
        indexed_under = rules.get("unicode")
        self.unicode_note = (
            f"{package.name} was indexed under Unicode {indexed_under} and is read under "
            f"{unicodedata.unidata_version}: characters assigned in between may not match"
            if indexed_under and indexed_under != unicodedata.unidata_version
            else None
        )
        stats = package.meta.get("lexical") or {}
        self.passages = int(stats.get("passages", 0))
        self.mean_tokens = float(stats.get("mean_passage_tokens", 0.0))
        if stats.get("buckets_per_mean", BUCKETS_PER_MEAN) != BUCKETS_PER_MEAN:
            raise UnsupportedVersion(
                f"{package.name} quantises passage lengths in a way this reader does not know"
            )
        self._factors = tf_factors(float(stats.get("k1", K1)), float(stats.get("b", B)))
        self.prefix_letters = prefix_letters(package)
        layout = dict(package.execute("SELECT name, data FROM layout"))
        self._starts = le_array(layout.get("document_starts", b""))
        self._doc_ids = le_array(layout.get("document_ids", b""))
        self._buckets: bytes = layout.get("length_buckets", b"")
        self._directions: bytes = layout.get("document_directions", b"")
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

    def prefix_of(self, term: str) -> str | None:
        """The prefix a query word also matches by (see PREFIX_LETTERS), or None."""
        if self.prefix_letters and len(term) >= self.prefix_letters and _tokenize.is_word(term):
            return term[: self.prefix_letters]
        return None

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

    def prefix_group(self, prefix: str) -> PrefixGroup | None:
        """The words of this package that start with ``prefix``, or None when too many to afford."""
        rows = self._pkg.execute(
            "SELECT id, df FROM term WHERE term >= ? AND term < ? LIMIT ?",
            (prefix, prefix + "\U0010ffff", PREFIX_MAX_TERMS + 1),
        )
        if len(rows) > PREFIX_MAX_TERMS or sum(df for _, df in rows) > PREFIX_MAX_POSTINGS:
            return None
        tfs: dict[int, int] = {}
        get = tfs.get
        for term_id, df in rows:
            ids, counts = self.postings(TermInfo("", df, 0, term_id))
            for pid, tf in zip(ids, counts):
                tfs[pid] = get(pid, 0) + tf
        return PrefixGroup(prefix, tfs)

    # -- postings ------------------------------------------------------------------------------

    def postings(self, info: TermInfo):
        """``(ids, tfs)`` of a term, ids ascending.  Long lists are kept decoded in a bounded cache."""
        with self._lock:
            hit = self._cache.get(info.term_id)
            if hit is not None:
                self._cache.move_to_end(info.term_id)
                return hit
        rows = self._pkg.execute("SELECT ids, tfs FROM posting WHERE id = ?", (info.term_id,))
        if not rows:
            return (), b""
        result = (decode_ids(rows[0][0]), rows[0][1])
        if len(result[0]) >= _CACHE_MIN_POSTINGS:
            with self._lock:
                self._cache[info.term_id] = result
                self._cached += len(result[0]) * 5
                while self._cached > _DECODED_CACHE_BYTES and self._cache:
                    _, (old, _tfs) = self._cache.popitem(last=False)
                    self._cached -= len(old) * 5
        return result

    def top(self, info: TermInfo):
        rows = self._pkg.execute("SELECT ids, tfs FROM posting_top WHERE id = ?", (info.term_id,))
        if not rows:
            return None
        return le_array(rows[0][0]), rows[0][1]

    def _contributions(self, ids, tfs, weight: float):
        """Per posting: ``weight * tf_factor``, lazily, in the order of ``ids``."""
        buckets = self._buckets
        factors = self._factors
        single = [weight * f for f in factors[1]]
        if tfs.count(1) == len(tfs):  # the usual case: every tf is 1, stay in C
            return map(single.__getitem__, map(buckets.__getitem__, ids))
        return (
            single[buckets[p]] if tf == 1 else weight * factors[tf][buckets[p]] for p, tf in zip(ids, tfs)
        )

    # -- scoring -------------------------------------------------------------------------------

    def score(
        self,
        weights: dict[TermInfo, float],
        groups: list[tuple[PrefixGroup, float]] = (),
        *,
        budget: int = POSTING_BUDGET,
    ) -> dict[int, float]:
        """Passage id -> BM25 score over a bounded candidate set (see the module docstring)."""
        acc: dict[int, float] = {}
        factors, buckets = self._factors, self._buckets
        for group, weight in groups:  # already gathered: their cost was paid when planning
            get = acc.get
            for pid, tf in group.tfs.items():
                acc[pid] = get(pid, 0.0) + weight * factors[tf if tf < 256 else 255][buckets[pid]]
        spent = 0
        deferred: list[tuple[TermInfo, float]] = []
        for info, weight in sorted(weights.items(), key=lambda kv: kv[0].df):
            if weight <= 0:
                continue
            if spent + info.df <= budget or (not spent and not deferred and info.df <= budget):
                ids, tfs = self.postings(info)
                values = self._contributions(ids, tfs, weight)
                if not acc:
                    acc = dict(zip(ids, values))  # the first list: build, do not merge
                else:
                    get = acc.get
                    for pid, value in zip(ids, values):
                        acc[pid] = get(pid, 0.0) + value
                spent += info.df
            else:
                deferred.append((info, weight))
        if not deferred:
            return acc
        # Frequent words: their best postings join the candidates, then every
        # word is looked up exactly for the strongest candidates only.
        credited: list[set[int]] = []
        for info, weight in deferred:
            top = self.top(info) or self.postings(info)
            get = acc.get
            for pid, value in zip(top[0], self._contributions(top[0], top[1], weight)):
                acc[pid] = get(pid, 0.0) + value
            credited.append(set(top[0]))
        best = strongest(acc, PROBE_CANDIDATES)
        for (info, weight), done in zip(deferred, credited):
            ids, tfs = self.postings(info)
            n = len(ids)
            for pid in best:
                if pid in done:
                    continue
                at = bisect.bisect_left(ids, pid)
                if at < n and ids[at] == pid:
                    acc[pid] += weight * factors[tfs[at]][buckets[pid]]
        return acc

    # -- documents -----------------------------------------------------------------------------

    def direction_of(self, document_id: int) -> str | None:
        """``received``, ``sent`` or None (packages without the array: None)."""
        code = self._directions[document_id] if document_id < len(self._directions) else 0
        return (None, "received", "sent")[code] if code < 3 else None

    def document_of(self, passage_id: int) -> int:
        """The id of the document holding ``passage_id``."""
        return self._doc_ids[bisect.bisect_right(self._starts, passage_id) - 1]


def prefix_letters(package) -> int:
    """How many first letters a package's query words match variants by (0: none; first generation: none)."""
    if getattr(package, "kind", None) == "legacy":  # a package being built has no kind yet
        return 0
    return int((package.meta.get("lexical") or {}).get("prefix_letters", 0))


def strongest(scores: dict[int, float], k: int) -> list[int]:
    """Keys of the ``k`` highest values (ties may add a few), cheaper than a keyed heap."""
    if len(scores) <= k:
        return list(scores)
    floor = heapq.nlargest(k, scores.values())[-1]
    return [key for key, value in scores.items() if value >= floor]
