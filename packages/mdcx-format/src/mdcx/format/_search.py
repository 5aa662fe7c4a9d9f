"""Asking a question of one or several packages, as one corpus.

Every package's term statistics are summed first, so a word's weight is the
same in every package and scores compare: a large package and a small one
are ranked together, not side by side.  Results are documents, each with the
passages that answer in it; a document that answers in several places ranks
above one that mentions a word once.  Around that ranking: quoted phrases and
expressions are constraints, ``only`` keeps one side of a correspondence,
``prefer="recent"`` lets dates order what the engines rank equally, words the
index lacks may be read as their OCR misspelling (packages with ``--shapes``),
and a result that holds too little of the question says so.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import groupby

from ._errors import MissingDependency, QueryError
from ._expressions import expressions, passages_with
from ._fusion import DEPTH, combine, lexical_weight
from ._index import idf
from ._language import written_apart
from ._lexical import strongest
from ._phrase import PhraseFilter, quoted_phrases
from ._ranking import Plan, coverage, plan, score, weights
from ._reader import Package
from ._results import DocumentHit, PassageHit, SearchResult
from ._semantic import INSTALL, embed_module, has_vectors

MAX_QUERY_CHARS = 20_000
PASSAGES_PER_PACKAGE = 400
SECOND_PASSAGE_WEIGHT = 0.3
THIRD_PASSAGE_WEIGHT = 0.1
MODES = ("auto", "lexical", "semantic")
DIRECTIONS = ("received", "sent")


def document_score(passage_scores: list[float]) -> float:
    """A document's score from its passages' scores, best first."""
    s = [*passage_scores[:3], 0.0, 0.0]
    return s[0] + SECOND_PASSAGE_WEIGHT * s[1] + THIRD_PASSAGE_WEIGHT * s[2]


def display_text(text: str) -> str:
    """A passage as shown: without page markers and surrounding blank lines."""
    from ._passages import _PAGE_MARKER

    lines = [line for line in text.splitlines() if not _PAGE_MARKER.match(line)]
    return "\n".join(lines).strip()


@dataclass
class _Asked:
    """One package's part in a question."""

    package: Package
    plan: Plan
    read_as: dict[str, str] = field(default_factory=dict)


@dataclass(order=True)
class _Candidate:
    score: float
    index: int  # package
    document: int
    hits: list[tuple[float, int]] = field(compare=False)


def _check(query: str, limit: int, mode: str, only: str | None, prefer: str | None) -> None:
    if not isinstance(query, str) or not query.strip():
        raise QueryError("the question is empty; ask something")
    if len(query) > MAX_QUERY_CHARS:
        raise QueryError(f"the question is {len(query)} characters long; ask in at most {MAX_QUERY_CHARS}")
    if limit < 1:
        raise QueryError("limit must be at least 1")
    if mode not in MODES:
        raise QueryError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if only is not None and only not in DIRECTIONS:
        raise QueryError(f"only must be received or sent, not {only!r}")
    if prefer not in (None, "recent"):
        raise QueryError(f"prefer must be recent, not {prefer!r}")


def _asked(package: Package, query: str, exact: frozenset[str]) -> _Asked:
    engine = package.engine()
    p = plan(engine, query, exact)
    if p.groups and len(p.unknown) == len(p.groups):
        # No word of the question is in this package: try the spellings an
        # OCR engine may have produced instead (packages built with --shapes).
        from ._shapes import read_as

        found = read_as(package, list(p.unknown))
        if found:
            rewritten = " ".join(found.get(t, t) for t, _ in engine.query_terms(query))
            return _Asked(package, plan(engine, rewritten, exact), found)
    return _Asked(package, p)


def search(
    packages: Sequence[Package],
    query: str,
    *,
    limit: int = 5,
    mode: str = "auto",
    only: str | None = None,
    prefer: str | None = None,
    passages_per_document: int = 3,
) -> SearchResult:
    """Documents that answer ``query``, best first, from every package together."""
    _check(query, limit, mode, only, prefer)
    packages = list(packages)
    phrases = quoted_phrases(query)
    # Expressions count only where a package indexed them (pack --expressions).
    exprs = expressions(query) if any(p.meta.get("expression_version") for p in packages) else []
    # A quoted word asks for itself: no variants sharing its first letters.
    exact = frozenset(t for phrase in phrases for t in phrase.terms)
    asked = [_asked(p, query, exact) for p in packages]
    if not any(a.plan.groups for a in asked) and not exprs:
        raise QueryError("the question has no words to search for (only punctuation or symbols)")
    w = weights([a.plan for a in asked])  # over every package, so that scores compare
    notes: list[str] = [n for a in asked if (n := a.plan.engine.unicode_note)]

    lexical, expression_found = ([], False)
    if mode != "semantic":
        lexical, expression_found = _lexical(asked, w, exprs, only, phrases, limit)
    phrase_missing = bool(phrases) and mode != "semantic" and not lexical
    if phrase_missing:  # no passage holds the quotation: rank without it, and say so
        lexical, _ = _lexical(asked, w, exprs, only, [], limit)
    lexical = heapq.nlargest(max(limit * 4, DEPTH), lexical, key=lambda c: (c.score, -c.index, -c.document))
    dense, similarity = [], None
    constrained = bool(phrases and mode != "semantic" and not phrase_missing) or bool(exprs)
    if mode != "lexical" and not constrained:
        if phrases and mode == "semantic":
            notes.append(
                "quotation marks do not constrain a search by meaning; use lexical or auto mode for that"
            )
        dense, similarity = _dense(packages, asked, query, only, mode, notes)
    elif mode == "semantic":
        raise QueryError("expressions are matched exactly, by words; ask them in lexical or auto mode")
    elif any(has_vectors(p) for p in packages):
        notes.append("a quoted phrase or an expression is required, so words alone ranked the results")

    cross = _cross_language(asked, w, query)
    if dense and lexical:
        ranked = _fused(lexical, dense, lexical_weight(_known_share(w, asked), cross))
        used = "auto"
    elif dense:
        ranked, used = dense, "semantic"
    else:
        ranked, used = lexical, "lexical"
    prefer_applied = prefer_note = None
    if prefer == "recent":
        ranked, prefer_applied, prefer_note = _prefer_recent(packages, ranked)
    chosen = ranked[:limit]
    documents = _materialise(packages, asked, chosen, passages_per_document)

    by_package = {a.package.name: _threshold(a.package) for a in asked}
    similarity_by_package = {p.name: t for p in packages if (t := _similarity_threshold(p)) is not None}
    answerable_at = _lowest(by_package.values())
    similarity_at = _lowest(similarity_by_package.values())
    covered = None
    if chosen and lexical:
        best = lexical[0]
        covered = coverage(asked[best.index].plan, w, best.hits[0][1])
    answerable = _answerable(covered, answerable_at, similarity, similarity_at, cross, bool(chosen))
    unknown = {a.package.name: a.plan.unknown for a in asked if a.plan.unknown and not a.read_as}
    warning = _warning(asked, documents, exprs, expression_found, phrases, only)
    if phrase_missing:
        answerable = False
        shown = "; ".join(f"“{p.text}”" for p in phrases)
        warning = (
            f"no passage holds the quoted phrase {shown}; the documents below are the nearest without it"
        )
    if warning is None and answerable is False:
        warning = _unanswered(covered, answerable_at, similarity, similarity_at, cross)
    return SearchResult(
        query=query,
        documents=tuple(documents),
        unknown_terms=unknown,
        warning=warning,
        mode=used,
        answerable=answerable,
        coverage=covered,
        answerable_at=answerable_at,
        answerable_at_by_package=by_package,
        read_as={a.package.name: a.read_as for a in asked if a.read_as},
        prefer_applied=prefer_applied,
        prefer_note=prefer_note,
        similarity=similarity,
        similarity_at=similarity_at,
        similarity_at_by_package=similarity_by_package,
        cross_language=cross,
        languages={a.package.name: (a.package.meta.get("language") or {}).get("code") for a in asked},
        notes=tuple(notes),
    )


def _lowest(values) -> float | None:
    values = [v for v in values if v is not None]
    return min(values) if values else None


def _lexical(asked, w, exprs, only, phrases, limit) -> tuple[list[_Candidate], bool]:
    candidates: list[_Candidate] = []
    expression_found = False
    for index, a in enumerate(asked):
        engine = a.plan.engine
        scores = score(a.plan, w)
        allowed = passages_with(a.package, exprs) if exprs else None
        if allowed is not None:  # expressions are constraints, and weigh like a word that rare
            expression_found = expression_found or bool(allowed)
            bonus = len(exprs) * idf(len(allowed), max(w.passages, 1)) if allowed else 0.0
            scores = {pid: scores.get(pid, 0.0) + bonus for pid in allowed}
        if only is not None:
            scores = {
                pid: s for pid, s in scores.items() if engine.direction_of(engine.document_of(pid)) == only
            }
        if not scores:
            continue
        if phrases:
            one_cut = a.package.meta.get("quotes") == "boundary"
            best = PhraseFilter(a.package, engine, phrases, one_cut).keep(scores, limit)
        else:
            best = [(pid, scores[pid]) for pid in strongest(scores, PASSAGES_PER_PACKAGE)]
        candidates.extend(_by_document(engine, index, best, document_score))
    return candidates, expression_found


def _by_document(engine, index: int, hits, aggregate) -> list[_Candidate]:
    by_doc: dict[int, list[tuple[float, int]]] = defaultdict(list)
    for pid, value in hits:
        by_doc[engine.document_of(pid)].append((value, pid))
    out = []
    for doc_id, doc_hits in by_doc.items():
        doc_hits.sort(reverse=True)
        out.append(_Candidate(aggregate([h[0] for h in doc_hits]), index, doc_id, doc_hits))
    return out


def _dense(packages, asked, query, only, mode, notes) -> tuple[list[_Candidate], float | None]:
    if not any(has_vectors(p) for p in packages):
        if mode == "semantic":
            raise QueryError(
                "no package holds vectors, so meaning cannot be searched; pack with --multilingual "
                "(mdcx-embed), or search in lexical mode"
            )
        return [], None
    try:
        embed = embed_module()
    except MissingDependency:
        if mode == "semantic":
            raise
        notes.append(f"these packages hold vectors, but mdcx-embed is not installed; words only ({INSTALL})")
        return [], None
    ranking = embed.default_searcher().rank(packages, query)
    notes.extend(ranking.notes)
    candidates: list[_Candidate] = []
    for index, hits in ranking.by_package.items():
        engine = asked[index].plan.engine
        if only is not None:
            hits = [(pid, s) for pid, s in hits if engine.direction_of(engine.document_of(pid)) == only]
        candidates.extend(_by_document(engine, index, hits, max))
    candidates.sort(key=lambda c: (-c.score, c.index, c.document))
    if mode == "semantic" and not ranking.by_package:
        raise QueryError("no package could be searched by meaning: " + "; ".join(ranking.notes))
    return candidates, ranking.similarity


def _fused(lexical: list[_Candidate], dense: list[_Candidate], lexical_weight_: float) -> list[_Candidate]:
    """Documents by weighted normalised score; each keeps its word passages, and its best by meaning."""
    key = lambda c: (c.index, c.document)  # noqa: E731 - a key function, named for reading
    by_key: dict[tuple[int, int], _Candidate] = {}
    for c in lexical:
        by_key[key(c)] = c
    for c in dense:
        if key(c) in by_key:
            seen = {pid for _, pid in by_key[key(c)].hits}
            extra = [h for h in c.hits[:1] if h[1] not in seen]
            by_key[key(c)] = _Candidate(
                by_key[key(c)].score, c.index, c.document, by_key[key(c)].hits + extra
            )
        else:
            by_key[key(c)] = c
    fused = combine(
        [([(key(c), c.score) for c in dense], 1.0), ([(key(c), c.score) for c in lexical], lexical_weight_)]
    )
    return [_Candidate(value, k[0], k[1], by_key[k].hits) for k, value in fused]


def _known_share(w, asked) -> float:
    """Share of the question's weight that some package knows."""
    known = {t for a in asked for t, members in a.plan.groups if members}
    total = sum(w.terms.values())
    return sum(v for t, v in w.terms.items() if t in known) / total if total else 0.0


def _cross_language(asked, w, query: str) -> bool:
    """The question looks written in another language than every package, and they mostly lack its words."""
    corpus = {(a.package.meta.get("language") or {}).get("code") for a in asked} - {None}
    return written_apart(query, corpus) and _known_share(w, asked) < 0.7


def _similarity_threshold(package: Package) -> float | None:
    semantic = (package.meta.get("calibration") or {}).get("semantic") or {}
    value = semantic.get("answerable_at")
    return float(value) if isinstance(value, int | float) else None


def _answerable(covered, answerable_at, similarity, similarity_at, cross, any_result) -> bool | None:
    """Both signals, neither overruling: meaning must reach the corpus's reach, and words must
    too unless the question is in another language (then words cannot say)."""
    if not any_result:
        return None
    lexical_ok = None if covered is None or answerable_at is None else covered >= answerable_at
    semantic_ok = None if similarity is None or similarity_at is None else similarity >= similarity_at
    if semantic_ok is None:
        return lexical_ok
    if lexical_ok is None or cross:
        return semantic_ok
    return semantic_ok and lexical_ok


def _threshold(package: Package) -> float:
    from ._calibration import DEFAULT

    calibration = package.meta.get("calibration") or {}
    value = calibration.get("answerable_at")
    return float(value) if isinstance(value, int | float) else DEFAULT


def _corpus_language(asked: list[_Asked]) -> str | None:
    names = {(a.package.meta.get("language") or {}).get("name") for a in asked} - {None}
    return " and ".join(sorted(names)) if names else None


def _warning(asked, documents, exprs, expression_found, phrases, only) -> str | None:
    if exprs and not expression_found and any("expression" in a.package.tables for a in asked):
        return f"the expression {exprs[0]} does not occur in the corpus; nothing here answers this question"
    if documents:
        return None
    if all(len(a.plan.unknown) == len(a.plan.groups) for a in asked):
        language = _corpus_language(asked)
        written = f", which is written mostly in {language}" if language else ""
        return (
            f"none of the question's words occur in the corpus{written}; it holds no answer to this question"
        )
    if phrases:
        return "no passage holds the quoted phrase; nothing here answers this question"
    if only:
        return f"nothing {only} matches the question"
    return "nothing in the corpus matches the question"


def _unanswered(covered, answerable_at, similarity, similarity_at, cross) -> str:
    reasons = []
    if covered is not None and answerable_at is not None and covered < answerable_at and not cross:
        reasons.append(
            f"the best passage holds {covered:.0%} of its words' weight (this corpus answers from {answerable_at:.0%})"
        )
    if similarity is not None and similarity_at is not None and similarity < similarity_at:
        reasons.append(
            f"the closest passage in meaning is {similarity:.3f} similar (this corpus answers from {similarity_at:.3f})"
        )
    why = "; ".join(reasons) or "the signals fall short"
    return f"nothing here answers this question: {why}; the documents below are only the nearest"


def _prefer_recent(packages, ranked: list[_Candidate]) -> tuple[list[_Candidate], bool, str]:
    """Recency as the last ranking of the fusion: it orders only what the engines rank equally.

    (With words alone, that means documents with the same score: often
    versions of one text.  With a semantic index too, the two engines tie
    whenever they disagree in mirror image, and the date decides.)
    """
    dates: dict[tuple[int, int], str] = {}
    by_package: dict[int, list[int]] = defaultdict(list)
    for c in ranked:
        by_package[c.index].append(c.document)
    for index, ids in by_package.items():
        for doc_id, info in packages[index].documents_by_id(ids).items():
            if info.dated:
                dates[(index, doc_id)] = info.dated
    if not dates:
        return ranked, False, "no result carries a date, so recency could not reorder them"
    result: list[_Candidate] = []
    changed = False
    for _score, group in groupby(ranked, key=lambda c: c.score):
        group = list(group)
        if len(group) > 1:
            newest = sorted(group, key=lambda c: dates.get((c.index, c.document), ""), reverse=True)
            changed = changed or newest != group
            group = newest
        result.extend(group)
    if changed:
        return result, True, "recency ordered results the engines ranked equally"
    return result, False, "recency only orders results the engines rank equally, and none were"


def _shown(hits: list[tuple[float, int]], per_document: int) -> list[tuple[float, int]]:
    """The passages shown for a document: its best, and others scoring at least half as well."""
    top = hits[0][0]
    return [hits[0]] + [h for h in hits[1:per_document] if h[0] >= 0.5 * top]


def _materialise(packages, asked, chosen: list[_Candidate], per_document: int) -> list[DocumentHit]:
    wanted: dict[int, list[int]] = defaultdict(list)
    docs: dict[int, list[int]] = defaultdict(list)
    for c in chosen:
        wanted[c.index].extend(pid for _value, pid in _shown(c.hits, per_document))
        docs[c.index].append(c.document)
    rows = {i: packages[i].passages_of(ids) for i, ids in wanted.items()}
    infos = {i: packages[i].documents_by_id(ids) for i, ids in docs.items()}
    out = []
    for rank, c in enumerate(chosen, 1):
        info = infos[c.index][c.document]
        passages = []
        for value, pid in _shown(c.hits, per_document):
            row = rows[c.index].get(pid)
            if row is not None:
                _doc, position, page, last_page, heading, text = row
                passages.append(
                    PassageHit(pid, position, page, last_page, heading, display_text(text), value)
                )
        out.append(
            DocumentHit(
                rank,
                packages[c.index].name,
                info.path,
                info.title,
                c.score,
                info.dated,
                info.dated_from,
                info.direction,
                tuple(passages),
                dict(asked[c.index].read_as),
            )
        )
    return out
