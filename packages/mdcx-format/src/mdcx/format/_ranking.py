"""One question against one or several lexical engines: plans, shared weights, coverage.

A plan is what a question means for one package: its query terms with the
index terms each stands for (one term, or every pair a lone CJK character
begins), and the prefix groups its longer words also match.  Weights (idf)
are computed over every package asked together, so scores compare.
Coverage is how much of the question's weight a passage holds: the measure
behind "nothing here answers".
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from ._index import idf

MAX_QUERY_TERMS = 256
PREFIX_WEIGHT = 1.0
PREFIX_COVERAGE = 0.5  # a word present only as a variant counts half


@dataclass
class Plan:
    engine: object
    groups: list[tuple[str, list]]  # (query term, [TermInfo ...]): one weight for all members
    prefixes: list = field(default_factory=list)  # PrefixGroup per eligible query word
    prefix_of: dict[str, str] = field(default_factory=dict)  # query term -> its prefix group

    @property
    def unknown(self) -> tuple[str, ...]:
        return tuple(t for t, members in self.groups if not members)


def plan(engine, question: str, exact: frozenset[str] = frozenset()) -> Plan:
    """What ``question`` means for one package; words in ``exact`` (quoted ones) match only as written."""
    terms = engine.query_terms(question)[:MAX_QUERY_TERMS]
    found = engine.lookup([t for t, _ in terms])
    groups: list[tuple[str, list]] = []
    seen: set[str] = set()
    for term, expand in terms:
        if term in seen:
            continue
        seen.add(term)
        members = [found[term]] if term in found else []
        if expand:
            members += [
                m for m in engine.with_prefix(term) if m.term != term and engine.first_unit(m.term) == term
            ]
        groups.append((term, members))
    prefixes, prefix_of = [], {}
    wanted: dict[str, list[str]] = defaultdict(list)
    for term, expand in terms:
        prefix = None if expand or term in exact else engine.prefix_of(term)
        if prefix:
            wanted[prefix].append(term)
    for prefix, words in wanted.items():
        group = engine.prefix_group(prefix)
        if group is not None and group.df:
            prefixes.append(group)
            for word in words:
                prefix_of[word] = prefix
    return Plan(engine, groups, prefixes, prefix_of)


@dataclass(frozen=True)
class Weights:
    terms: dict[str, float]  # idf of each query term over all packages; unknown terms included
    prefixes: dict[str, float]
    passages: int


def weights(plans: Sequence[Plan]) -> Weights:
    total = sum(p.engine.passages for p in plans)
    term_df: dict[str, int] = defaultdict(int)
    prefix_df: dict[str, int] = defaultdict(int)
    for p in plans:
        for term, members in p.groups:
            term_df[term] += sum(m.df for m in members)
        for group in p.prefixes:
            prefix_df[group.prefix] += group.df
    n = max(total, 1)
    return Weights(
        {t: idf(min(df, n), n) for t, df in term_df.items()},
        {g: PREFIX_WEIGHT * idf(min(df, n), n) for g, df in prefix_df.items()},
        total,
    )


def score(p: Plan, w: Weights) -> dict[int, float]:
    term_weights = {m: w.terms[t] for t, members in p.groups for m in members}
    if not term_weights and not p.prefixes:  # a question known only by variants still ranks by them
        return {}
    return p.engine.score(term_weights, [(g, w.prefixes[g.prefix]) for g in p.prefixes])


def coverage(p: Plan, w: Weights, passage: int) -> float:
    """Share of the question's weight present in ``passage`` (variants count half)."""
    total = sum(w.terms.values())
    if not total:
        return 0.0
    held = 0.0
    groups = {g.prefix: g for g in p.prefixes}
    for term, members in p.groups:
        if any(_holds(p.engine, m, passage) for m in members):
            held += w.terms[term]
        elif term in p.prefix_of and passage in groups[p.prefix_of[term]].tfs:
            held += PREFIX_COVERAGE * w.terms[term]
    return held / total


def _holds(engine, info, passage: int) -> bool:
    ids = engine.postings(info)[0]
    at = bisect.bisect_left(ids, passage)
    return at < len(ids) and ids[at] == passage
