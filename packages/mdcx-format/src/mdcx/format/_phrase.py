"""Quoted phrases: which words must follow each other, and checking a passage for them.

A phrase is the text between double quotation marks (``"..."``, ``“...”``,
``„...“``, ``«...»``, ``「...」``, ``『...』``).  Single quotes are left alone:
they are apostrophes far more often than quotation marks.

The index keeps no word positions (see docs/architecture.md), so a phrase is
checked on the text of the passages that rank highest for its words, in
order, until enough documents have one.  A phrase may cross a passage cut:
the check reads on into the neighbouring passages of the same document (one
on each side with ``--quotes boundary``; as far as the phrase needs with
``--quotes document``).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from . import _tokenize
from ._lexical import strongest

_QUOTED = re.compile(r'"([^"]+)"|“([^”]+)”|„([^“”"]+)[“”"]|«([^»]+)»|「([^」]+)」|『([^』]+)』')


@dataclass(frozen=True)
class Phrase:
    text: str
    # (term, unit_prefix): a lone unit of an unspaced script matches any pair it begins
    elements: tuple[tuple[str, bool], ...]

    @property
    def terms(self) -> list[str]:
        return [t for t, prefix in self.elements if not prefix]


def quoted_phrases(question: str) -> list[Phrase]:
    """The phrases quoted in ``question`` that hold at least two words (one word needs no order)."""
    phrases = []
    for match in _QUOTED.finditer(question):
        text = next(g for g in match.groups() if g is not None).strip()
        elements = tuple(_tokenize.query_terms(text))
        if len(elements) >= 2 or (len(elements) == 1 and _tokenize.is_unspaced(elements[0][0])):
            phrases.append(Phrase(text, elements))
    return phrases


def occurs(tokens: list[str], phrase: Phrase) -> bool:
    """Whether the phrase's terms occur one after another in ``tokens``."""
    elements = phrase.elements
    first, first_prefix = elements[0]
    n = len(elements)
    for start in range(len(tokens) - n + 1):
        tok = tokens[start]
        if tok != first and not (first_prefix and tok.startswith(first)):
            continue
        for offset in range(1, n):
            term, prefix = elements[offset]
            tok = tokens[start + offset]
            if tok != term and not (prefix and tok.startswith(term)):
                break
        else:
            return True
    return False


def _matches(tokens: list[str], elements) -> bool:
    return len(tokens) == len(elements) and all(
        tok == term or (prefix and tok.startswith(term)) for tok, (term, prefix) in zip(tokens, elements)
    )


def at_an_end(tokens: list[str], phrase: Phrase) -> bool:
    """Whether ``tokens`` end with the phrase's beginning or begin with its end (it may cross a cut).

    Passages are cut without overlap, so a phrase that crosses a cut is a
    beginning of it at the end of one passage followed by the rest at the
    start of the next: a passage with neither cannot take part.
    """
    elements = phrase.elements
    n = len(elements)
    for k in range(1, min(n, len(tokens) + 1)):
        if _matches(tokens[-k:], elements[:k]) or _matches(tokens[:k], elements[n - k :]):
            return True
    return False


def window(tokens: list[list[str]], middle: int, reach: int, across_one_cut: bool) -> list[str]:
    """The middle passage's tokens, with up to ``reach`` tokens of its neighbours on each side."""
    before: list[str] = []
    for i in range(middle - 1, -1, -1):
        before = tokens[i] + before
        if len(before) >= reach or across_one_cut:
            break
    after: list[str] = []
    for i in range(middle + 1, len(tokens)):
        after = after + tokens[i]
        if len(after) >= reach or across_one_cut:
            break
    return before[-reach:] + tokens[middle] + after[:reach] if reach else tokens[middle]


VERIFY_BUDGET = 400  # passages read, at most, to find the phrases of one question in one package
FIRST_CHUNK = 16  # passages read in the first round; each later round reads twice as many
# Above this many postings in a phrase's rarest word, candidates are drawn
# from the passages the words already scored, best first, instead of from a
# walk over the whole list: the verification budget would never reach the
# rest, and the walk alone would cost more than the search.
FULL_WALK = 4_000
SCORED_CANDIDATES = 4 * VERIFY_BUDGET


class PhraseFilter:
    """Keeps, best first, the passages of one package in which every phrase occurs.

    Reading a passage's text costs a block decryption, so the filter reads as
    little as it can: candidates must hold every word of each phrase (or its
    first word, with the last in the next passage), they are read best first
    in growing rounds until enough documents have a phrase, and a passage's
    neighbours are read only when the phrase is not inside it and could
    cross its cut.
    """

    def __init__(self, package, engine, phrases: list[Phrase], across_one_cut: bool) -> None:
        self._pkg = package
        self._engine = engine
        self._phrases = phrases
        self._one_cut = across_one_cut
        self._reach = max(len(p.elements) for p in phrases) - 1
        self._tokens: dict[int, list[str] | None] = {}
        self._lists: list[tuple[list, list, list]] | None = None  # per phrase: (all lists, first, last)

    def _load(self, ids) -> None:
        wanted = [i for i in dict.fromkeys(ids) if i not in self._tokens and i >= 0]
        rows = self._pkg.passages_of(wanted) if wanted else {}
        for pid in wanted:
            row = rows.get(pid)
            self._tokens[pid] = None if row is None else _tokenize.tokenize(row[5])

    def _window(self, pid: int) -> list[str]:
        doc = self._engine.document_of(pid)
        seq, middle = [self._tokens[pid] or []], 0
        for step in (-1, 1):
            reached, other = 0, pid
            while reached < self._reach:
                other += step
                if other < 0 or self._engine.document_of(other) != doc:
                    break
                self._load([other])
                tokens = self._tokens.get(other)
                if tokens is None:
                    break
                if step < 0:
                    seq.insert(0, tokens)
                    middle += 1
                else:
                    seq.append(tokens)
                reached += len(tokens)
                if self._one_cut:
                    break
        return window(seq, middle, self._reach, self._one_cut)

    # -- candidates ------------------------------------------------------------------------

    def _phrase_lists(self) -> list[tuple[list, list, list] | None] | None:
        """Per phrase, the postings of its distinct words (rarest first), of its first and of its last word.

        A phrase made only of lone units of an unspaced script ("字") has no
        word of its own to look up: its entry is None, and the passages its
        units' pairs scored are its candidates.  None when a word of some
        phrase is nowhere in this package.
        """
        if self._lists is None:
            lists: list[tuple[list, list, list] | None] = []
            for phrase in self._phrases:
                terms = list(dict.fromkeys(phrase.terms))
                if not terms:
                    lists.append(None)
                    continue
                found = self._engine.lookup(terms)
                if len(found) < len(terms):
                    return None
                ids = sorted((self._engine.postings(found[t])[0] for t in terms), key=len)
                first = self._engine.postings(found[terms[0]])[0]
                last = self._engine.postings(found[phrase.terms[-1]])[0]
                lists.append((ids, first, last))
            self._lists = lists
        return self._lists

    def _could_hold(self, pid: int) -> bool:
        """Whether every phrase could start in ``pid``: all its words inside, or its ends across the cut."""
        for entry in self._lists:
            if entry is None:
                continue
            ids, first, last = entry
            if all(_has(other, pid) for other in ids):
                continue
            if len(ids) > 1 and _has(first, pid) and _has(last, pid + 1):
                continue
            return False
        return True

    def _candidates(self, scores: dict[int, float]) -> list[tuple[int, float]]:
        """Passages where every phrase could start, best first."""
        if self._phrase_lists() is None:
            return []  # a word of a phrase is nowhere in this package
        if any(entry is None or len(entry[0][0]) > FULL_WALK for entry in self._lists):
            ranked = sorted(strongest(scores, SCORED_CANDIDATES), key=lambda pid: -scores[pid])
            return [(pid, scores[pid]) for pid in ranked if self._could_hold(pid)]
        result: set[int] | None = None
        for ids, first, last in self._lists:
            here = {p for p in ids[0] if all(_has(other, p) for other in ids[1:])}
            if len(ids) > 1:
                if len(first) <= len(last):
                    here |= {p for p in first if _has(last, p + 1)}
                else:
                    here |= {p - 1 for p in last if p and _has(first, p - 1)}
            result = here if result is None else result & here
        return sorted(((pid, scores.get(pid, 0.0)) for pid in result or ()), key=lambda kv: -kv[1])

    # -- verification ----------------------------------------------------------------------

    def _holds(self, tokens: list[str]) -> bool:
        return all(occurs(tokens, phrase) for phrase in self._phrases)

    def _may_cross(self, tokens: list[str]) -> bool:
        """Whether each phrase is inside these tokens or could run over one of their ends."""
        return all(occurs(tokens, p) or at_an_end(tokens, p) for p in self._phrases)

    def keep(self, scores: dict[int, float], want_documents: int) -> list[tuple[int, float]]:
        """Passages holding every phrase, best first, until ``want_documents`` documents have one."""
        ranked = self._candidates(scores)[:VERIFY_BUDGET]
        kept: list[tuple[int, float]] = []
        documents: set[int] = set()
        start, size = 0, max(FIRST_CHUNK, want_documents + want_documents // 2)
        while start < len(ranked) and len(documents) < want_documents:
            chunk = ranked[start : start + size]
            start, size = start + size, size * 2
            self._load(pid for pid, _ in chunk)
            found: set[int] = set()
            crossing = []
            for pid, _ in chunk:
                tokens = self._tokens.get(pid) or []
                if self._holds(tokens):
                    found.add(pid)
                elif self._reach and self._may_cross(tokens):
                    crossing.append(pid)
            if crossing:  # the phrase may run over a cut: read the neighbours, in one round
                self._load(n for pid in crossing for n in (pid - 1, pid + 1))
                found.update(pid for pid in crossing if self._holds(self._window(pid)))
            for pid, score in chunk:
                if pid in found:
                    kept.append((pid, score))
                    documents.add(self._engine.document_of(pid))
        return kept


def _has(ids, pid: int) -> bool:
    at = bisect.bisect_left(ids, pid)
    return at < len(ids) and ids[at] == pid
