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

from ._errors import QueryError
from ._lexical import strongest
from ._phrase import PhraseFilter, quoted_phrases
from ._ranking import plan, score, weights
from ._reader import Package
from ._results import DocumentHit, PassageHit, SearchResult

MAX_QUERY_CHARS = 20_000
PASSAGES_PER_PACKAGE = 400
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
    engines = [p.engine() for p in packages]
    plans = [plan(e, query) for e in engines]
    if not any(p.groups for p in plans):
        raise QueryError("the question has no words to search for (only punctuation or symbols)")
    w = weights(plans)  # corpus statistics over every package, so scores compare

    unknown: dict[str, tuple[str, ...]] = {}
    candidates: list[tuple[float, int, int, list[tuple[float, int]]]] = []
    for index, (package, p) in enumerate(zip(packages, plans)):
        if p.unknown:
            unknown[package.name] = p.unknown
        scores = score(p, w)
        if not scores:
            continue
        if phrases:
            one_cut = package.meta.get("quotes") == "boundary"
            best = PhraseFilter(package, p.engine, phrases, one_cut).keep(scores, limit)
        else:
            best = [(pid, scores[pid]) for pid in strongest(scores, PASSAGES_PER_PACKAGE)]
        by_doc: dict[int, list[tuple[float, int]]] = defaultdict(list)
        for pid, value in best:
            by_doc[p.engine.document_of(pid)].append((value, pid))
        for doc_id, hits in by_doc.items():
            hits.sort(reverse=True)
            candidates.append((DOC_SCORE([h[0] for h in hits]), index, doc_id, hits))

    chosen = heapq.nlargest(limit, candidates, key=lambda c: (c[0], -c[1], -c[2]))
    documents = _materialise(packages, chosen, passages_per_document)
    warning = None
    if not documents:
        all_unknown = all(len(p.unknown) == len(p.groups) for p in plans)
        if all_unknown:
            warning = "none of the question's words occur in the corpus; it holds no answer to this question"
        else:
            warning = "nothing in the corpus matches the question"
    return SearchResult(query, tuple(documents), unknown, warning)


def _shown(hits: list[tuple[float, int]], per_document: int) -> list[tuple[float, int]]:
    """The passages shown for a document: its best, and others scoring at least half as well."""
    top = hits[0][0]
    return [hits[0]] + [h for h in hits[1:per_document] if h[0] >= 0.5 * top]


def _materialise(packages: Sequence[Package], chosen: list, per_document: int) -> list[DocumentHit]:
    wanted: dict[int, list[int]] = defaultdict(list)
    docs: dict[int, list[int]] = defaultdict(list)
    for _doc_score, index, doc_id, hits in chosen:
        wanted[index].extend(pid for _value, pid in _shown(hits, per_document))
        docs[index].append(doc_id)
    rows = {i: packages[i].passages_of(ids) for i, ids in wanted.items()}
    infos = {i: packages[i].documents_by_id(ids) for i, ids in docs.items()}
    out = []
    for rank, (doc_score, index, doc_id, hits) in enumerate(chosen, 1):
        info = infos[index][doc_id]
        passages = []
        for value, pid in _shown(hits, per_document):
            row = rows[index].get(pid)
            if row is not None:
                _doc, position, page, last_page, heading, text = row
                passages.append(PassageHit(pid, position, page, last_page, heading, display_text(text), value))
        out.append(
            DocumentHit(
                rank,
                packages[index].name,
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
