"""Merging word and meaning rankings at document level, by normalised score.

The engines' scores share no scale (a BM25 sum, a cosine), so each list is
put on one: its best document scores 1 and the last of its first ``DEPTH``
scores 0 (min-max), and a document's fused score is the weighted sum of its
two normalised scores (a convex combination; a list that lacks the document
gives it 0).  Rank-only fusion (reciprocal rank) was measured first and
dropped: it cannot tell a list that is sure of its first document from one
that ranks it first by a hair, and on NTREX known-item search it put fused
hit@1 below words alone in several languages, whatever its constant, where
the normalised sum stays at or above both engines (docs/architecture.md).

Each list's weight then follows its own strength, twice over.  First, what
it can know: when the question looks written in another language than the
corpus, or the corpus knows less than half its weight, the word matches are
stray (function words, numbers, a name) and the word list counts 0.15.
Second, how sure it is: a list whose first document stands well clear of its
second (a wide margin on the normalised scale) counts up to three times one
whose first two are level, so an engine that cannot tell its candidates
apart does not overturn one that can.  On NTREX same-language search this
margin is what keeps fused hit@1 at or above words alone in every language
(without it, Marathi fell below by a query); the factor 2 sits in the middle
of the range (1.5 to 4) that did so.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

DEPTH = 50
WORDS_WEIGHT = 1.0
STRAY_WORDS_WEIGHT = 0.15
DECISIVENESS = 2.0  # a list's weight is multiplied by 1 + DECISIVENESS * its margin


def lexical_weight(known_share: float, cross_language: bool) -> float:
    """How much the word ranking counts next to the meaning ranking (which counts 1)."""
    return STRAY_WORDS_WEIGHT if cross_language or known_share < 0.5 else WORDS_WEIGHT


def normalised(scored: Sequence[tuple[Hashable, float]], depth: int = DEPTH) -> dict[Hashable, float]:
    """``key -> (score - lowest) / (highest - lowest)`` over the first ``depth`` entries (best first).

    A list of one scores 1; a list whose scores are all equal scores 1 throughout.
    """
    head = scored[:depth]
    if not head:
        return {}
    high, low = head[0][1], head[-1][1] if len(head) > 1 else 0.0
    span = high - low
    return {key: (value - low) / span if span > 0 else 1.0 for key, value in head}


def margin(scores: dict[Hashable, float]) -> float:
    """How far a normalised list's first document stands above its second: 0 (level) to 1 (alone)."""
    ordered = sorted(scores.values(), reverse=True)
    return 1.0 - ordered[1] if len(ordered) > 1 else 1.0


def combine(
    rankings: Sequence[tuple[Sequence[tuple[Hashable, float]], float]], *, depth: int = DEPTH
) -> list[tuple[Hashable, float]]:
    """Weighted sum of min-max normalised scores over ``(scored keys best first, weight)`` lists; best first.

    Each weight is scaled by ``1 + DECISIVENESS * margin`` of its list.  Ties
    keep the order in which keys first appear (the first list's order first).
    """
    fused: dict[Hashable, float] = {}
    order: dict[Hashable, int] = {}
    for scored, weight in rankings:
        scores = normalised(scored, depth)
        sure = weight * (1.0 + DECISIVENESS * margin(scores)) if scores else 0.0
        for key, value in scores.items():
            fused[key] = fused.get(key, 0.0) + sure * value
            order.setdefault(key, len(order))
    return sorted(fused.items(), key=lambda kv: (-kv[1], order[kv[0]]))
