"""Merging word and meaning rankings by rank, at document level.

Scores of the two engines share no scale (a BM25 sum, a cosine), so only
ranks are merged: reciprocal-rank fusion, each list cut to a bounded depth.
Plain fusion lets stray word matches (function words, numbers) outvote the
meaning engine when the question is in another language than the corpus,
so the word list's weight follows its own strength: how much of the
question the corpus knows at all, and how much of it the best word match
covers.  The weights are the product of a measurement on NTREX (see
docs/architecture.md), not a guess.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

RRF_K = 60
DEPTH = 50


def lexical_weight(
    known_share: float, coverage: float | None, answerable_at: float | None, cross_language: bool
) -> float:
    """How much the word ranking counts next to the meaning ranking (which counts 1)."""
    if cross_language or known_share < 0.5:
        return 0.15
    if coverage is not None and answerable_at and coverage < answerable_at:
        return 0.5
    return 1.0


def rrf(
    rankings: Sequence[tuple[Sequence[Hashable], float]], *, k: int = RRF_K, depth: int = DEPTH
) -> list[tuple[Hashable, float]]:
    """Reciprocal-rank fusion of ``(ranked keys, weight)`` lists; best first."""
    fused: dict[Hashable, float] = {}
    order: dict[Hashable, int] = {}
    for ranked, weight in rankings:
        for rank, key in enumerate(ranked[:depth], 1):
            fused[key] = fused.get(key, 0.0) + weight / (k + rank)
            order.setdefault(key, len(order))
    return sorted(fused.items(), key=lambda kv: (-kv[1], order[kv[0]]))
