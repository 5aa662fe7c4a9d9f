"""Asking a question of one or several packages, as one corpus.

Every package's term statistics are summed first, so a word's weight is the
same in every package and scores compare: a large package and a small one
are ranked together, not side by side.  Results are documents, each with the
passages that answer in it; a document that answers in several places ranks
above one that mentions a word once.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ._errors import QueryError
from ._index import idf
from ._lexical import strongest
from ._phrase import PhraseFilter, quoted_phrases
from ._reader import Package
from ._results import DocumentHit, PassageHit, SearchResult

MAX_QUERY_CHARS = 20_000
MAX_QUERY_TERMS = 256
PASSAGES_PER_PACKAGE = 400
PREFIX_WEIGHT = 1.0
SECOND_PASSAGE_WEIGHT = 0.3
THIRD_PASSAGE_WEIGHT = 0.1


def document_score(passage_scores: list[float]) -> float:
    """A document's score from its passages' scores, best first."""
    s = [*passage_scores[:3], 0.0, 0.0]
    return s[0] + SECOND_PASSAGE_WEIGHT * s[1] + THIRD_PASSAGE_WEIGHT * s[2]


DOC_SCORE = document_score


def display_text(text: str) -> str:
    """A passage as shown: without page markers and surrounding blank lines."""
    from ._passages import _PAGE_MARKER

    lines = [line for line in text.splitlines() if not _PAGE_MARKER.match(line)]
    return "\n".join(lines).strip()


@dataclass
class _Plan:
    package: Package
    engine: object
    groups: list[tuple[str, list]]  # (query term, [TermInfo ...]): one weight for all members
    prefixes: list  # PrefixGroup per eligible query word


def _plan(package: Package, query: str) -> _Plan:
    engine = package.engine()
    terms = engine.query_terms(query)
    if len(terms) > MAX_QUERY_TERMS:
        terms = terms[:MAX_QUERY_TERMS]
    found = engine.lookup([t for t, _ in terms])
    groups: list[tuple[str, list]] = []
    seen = set()
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
    prefixes = []
    for prefix in dict.fromkeys(engine.prefix_of(term) for term, expand in terms if not expand):
        if prefix:
            group = engine.prefix_group(prefix)
            if group is not None and group.df:
                prefixes.append(group)
    return _Plan(package, engine, groups, prefixes)


def search(
    packages: Sequence[Package],
    query: str,
    *,
    limit: int = 5,
    passages_per_document: int = 3,
) -> SearchResult:
    """Documents that answer ``query``, best first, from every package together."""
    if not isinstance(query, str) or not query.strip():
        raise QueryError("the question is empty; ask something")
    if len(query) > MAX_QUERY_CHARS:
        raise QueryError(f"the question is {len(query)} characters long; ask in at most {MAX_QUERY_CHARS}")
    if limit < 1:
        raise QueryError("limit must be at least 1")
    phrases = quoted_phrases(query)
    plans = [_plan(p, query) for p in packages]
    if not any(plan.groups for plan in plans):
        raise QueryError("the question has no words to search for (only punctuation or symbols)")

    # Corpus statistics over every package, so that scores compare across them.
    total_passages = sum(plan.engine.passages for plan in plans)
    group_df: dict[str, int] = defaultdict(int)
    prefix_df: dict[str, int] = defaultdict(int)
    for plan in plans:
        for term, members in plan.groups:
            group_df[term] += sum(m.df for m in members)
        for group in plan.prefixes:
            prefix_df[group.prefix] += group.df
    weights = {t: idf(min(df, total_passages), total_passages) for t, df in group_df.items() if df}
    prefix_weights = {p: PREFIX_WEIGHT * idf(min(df, total_passages), total_passages) for p, df in prefix_df.items()}

    unknown: dict[str, tuple[str, ...]] = {}
    candidates: list[tuple[float, int, int, list[tuple[float, int]]]] = []
    for index, plan in enumerate(plans):
        missing = tuple(t for t, members in plan.groups if not members)
        if missing:
            unknown[plan.package.name] = missing
        term_weights = {m: weights[t] for t, members in plan.groups for m in members if t in weights}
        if not term_weights:
            continue
        scores = plan.engine.score(term_weights, [(g, prefix_weights[g.prefix]) for g in plan.prefixes])
        if phrases:
            one_cut = plan.package.meta.get("quotes") == "boundary"
            best = PhraseFilter(plan.package, plan.engine, phrases, one_cut).keep(scores, limit)
        else:
            best = [(pid, scores[pid]) for pid in strongest(scores, PASSAGES_PER_PACKAGE)]
        by_doc: dict[int, list[tuple[float, int]]] = defaultdict(list)
        for pid, score in best:
            by_doc[plan.engine.document_of(pid)].append((score, pid))
        for doc_id, hits in by_doc.items():
            hits.sort(reverse=True)
            candidates.append((DOC_SCORE([h[0] for h in hits]), index, doc_id, hits))

    chosen = heapq.nlargest(limit, candidates, key=lambda c: (c[0], -c[1], -c[2]))
    documents = _materialise(plans, chosen, passages_per_document)
    warning = None
    if not documents:
        all_unknown = all(len(unknown.get(p.package.name, ())) == len(p.groups) for p in plans)
        if all_unknown:
            warning = "none of the question's words occur in the corpus; it holds no answer to this question"
        else:
            warning = "nothing in the corpus matches the question"
    return SearchResult(query, tuple(documents), unknown, warning)


def _materialise(plans: list[_Plan], chosen: list, per_document: int) -> list[DocumentHit]:
    wanted: dict[int, list[int]] = defaultdict(list)
    docs: dict[int, list[int]] = defaultdict(list)
    for _score, index, doc_id, hits in chosen:
        top = hits[0][0]
        keep = [pid for score, pid in hits[:per_document] if score >= 0.5 * top] or [hits[0][1]]
        wanted[index].extend(keep)
        docs[index].append(doc_id)
    rows = {i: plans[i].package.passages_of(ids) for i, ids in wanted.items()}
    infos = {i: plans[i].package.documents_by_id(ids) for i, ids in docs.items()}
    out = []
    for rank, (doc_score, index, doc_id, hits) in enumerate(chosen, 1):
        info = infos[index][doc_id]
        top = hits[0][0]
        passages = []
        for score, pid in hits[:per_document]:
            if score < 0.5 * top and passages:
                continue
            row = rows[index].get(pid)
            if row is None:
                continue
            _doc, position, page, last_page, heading, text = row
            passages.append(PassageHit(pid, position, page, last_page, heading, display_text(text), score))
        out.append(
            DocumentHit(
                rank,
                plans[index].package.name,
                info.path,
                info.title,
                doc_score,
                info.dated,
                info.dated_from,
                info.direction,
                tuple(passages),
            )
        )
    return out
