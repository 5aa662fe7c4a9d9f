""" "Nothing here answers": each package's own threshold, measured when it is built.

The statistic is *coverage*: the share of a question's weight (idf; words the
corpus never saw count at full weight) that the best-ranked passage holds.  A
question the corpus answers puts much of its weight in one place; one it does
not answer spreads thin, or falls on words the corpus lacks.

Measured on Cranfield and NTREX (English, Russian, Chinese), with each
collection's own questions as answerable and the other's as unanswerable:
answerable questions reach 0.31-0.39 at their 10th percentile, unanswerable
ones 0.21-0.23 at their 90th.  So the default threshold is 0.25.  Corpora
whose words are cut finer (characters, agglutinative scripts) reach lower
coverage for everything, so each package also measures its own *near
misses* at pack time: 100 questions of six words, each taken from a sampled
passage, answered with that passage's document set aside.  ``answerable_at``
is the lower of 0.25 and the 10th percentile of those near misses; a corpus
of fewer than 200 passages is too small to measure, and keeps 0.25
(provenance ``default``).  With
``--focus QUESTION`` (repeatable) the package is calibrated on the questions
it exists to answer instead: three quarters of the lowest coverage among
them.  ``mdcx calibrate`` re-measures a closed package from such questions
(provenance ``focus-after``).  Values are kept within 0.1-0.75.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from . import _tokenize
from ._errors import InputError
from ._lexical import strongest
from ._ranking import coverage, plan, score, weights

DEFAULT = 0.25
NEAR_MISSES = 100
NEAR_MISS_WORDS = 6
MIN_SAMPLES = 200
FLOOR, CEILING = 0.1, 0.75
FOCUS_SHARE = 0.75


@dataclass(frozen=True)
class Calibration:
    answerable_at: float
    source: str  # "passages", "focus" or "focus-after"
    focus: tuple[str, ...] = ()
    measured: tuple[float, ...] = ()  # the coverages it was set from (focus) or a summary (passages)

    def to_json(self) -> dict:
        return {
            "answerable_at": round(self.answerable_at, 4),
            "source": self.source,
            "focus": list(self.focus),
            "measured": [round(m, 4) for m in self.measured],
        }

    @classmethod
    def from_json(cls, data: dict | None) -> Calibration | None:
        if not isinstance(data, dict) or not isinstance(data.get("answerable_at"), int | float):
            return None
        return cls(
            float(data["answerable_at"]), str(data.get("source", "passages")), tuple(data.get("focus") or ())
        )


def best_coverage(engine, question: str, *, excluding_document: int | None = None) -> float:
    """Coverage of ``question`` by the best-ranked passage of one package (optionally of another document)."""
    p = plan(engine, question)
    w = weights([p])
    scores = score(p, w)
    if excluding_document is not None:
        candidates = [pid for pid in strongest(scores, 50) if engine.document_of(pid) != excluding_document]
    else:
        candidates = strongest(scores, 1)
    if not candidates:
        return 0.0
    return coverage(p, w, max(candidates, key=scores.__getitem__))


def _clamp(value: float) -> float:
    return min(CEILING, max(FLOOR, value))


def from_passages(engine, samples: Sequence[tuple[int, list[str]]], seed: int = 0) -> Calibration:
    """From near misses: ``samples`` are (document id, tokens) of sampled passages."""
    rnd = random.Random(seed)
    pool = [(doc, sorted(set(tokens))) for doc, tokens in samples if len(set(tokens)) >= NEAR_MISS_WORDS]
    if len(pool) < MIN_SAMPLES:
        return Calibration(DEFAULT, "default", (), ())
    found = []
    for doc, words in rnd.sample(pool, min(NEAR_MISSES, len(pool))):
        found.append(
            best_coverage(engine, " ".join(rnd.sample(words, NEAR_MISS_WORDS)), excluding_document=doc)
        )
    found.sort()
    p10 = found[int(0.1 * (len(found) - 1))]
    return Calibration(_clamp(min(DEFAULT, p10)), "passages", (), (p10, statistics.median(found)))


def check_focus(questions: Sequence[str], option: str) -> None:
    """Refuse a question without words: its coverage, 0, would set the floor threshold."""
    for q in questions:
        if not _tokenize.query_terms(q):
            shown = q if len(q) <= 80 else q[:80] + "..."
            raise InputError(
                f"{option} {shown!r} has no words to calibrate from (only punctuation or symbols)"
            )


def from_focus(engine, questions: Sequence[str], source: str = "focus") -> Calibration:
    found = [best_coverage(engine, q) for q in questions]
    return Calibration(_clamp(FOCUS_SHARE * min(found)), source, tuple(questions), tuple(found))
