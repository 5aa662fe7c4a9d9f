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
_CHUNK = 40


class PhraseFilter:
    """Keeps, best first, the passages of one package in which every phrase occurs."""

    def __init__(self, package, engine, phrases: list[Phrase], across_one_cut: bool) -> None:
        self._pkg = package
        self._engine = engine
        self._phrases = phrases
        self._one_cut = across_one_cut
        self._reach = max(len(p.elements) for p in phrases) - 1
        self._tokens: dict[int, list[str] | None] = {}

    def _load(self, ids: list[int]) -> None:
        wanted = [i for i in ids if i not in self._tokens and i >= 0]
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

    def _candidates(self) -> set[int]:
        """Passages where every phrase could start: all its words inside, or its ends across a cut.

        Walks the rarest list and looks the others up by bisection, so a
        common word in a phrase costs no pass over its postings.
        """
        result: set[int] | None = None
        for phrase in self._phrases:
            terms = list(dict.fromkeys(phrase.terms))
            found = self._engine.lookup(terms)
            if len(found) < len(terms):
                return set()  # a word of the phrase is nowhere in this package
            lists = sorted((self._engine.postings(found[t])[0] for t in terms), key=len)
            inside = {p for p in lists[0] if all(_has(other, p) for other in lists[1:])}
            here = inside
            if len(phrase.terms) > 1:
                first = self._engine.postings(found[phrase.terms[0]])[0]
                last = self._engine.postings(found[phrase.terms[-1]])[0]
                if len(first) <= len(last):
                    here |= {p for p in first if _has(last, p + 1)}
                else:
                    here |= {p - 1 for p in last if p and _has(first, p - 1)}
            result = here if result is None else result & here
        return result or set()

    def keep(self, scores: dict[int, float], want_documents: int) -> list[tuple[int, float]]:
        """Passages holding every phrase, best first, until ``want_documents`` documents have one."""
        ranked = sorted(((pid, scores.get(pid, 0.0)) for pid in self._candidates()), key=lambda kv: -kv[1])
        kept: list[tuple[int, float]] = []
        documents: set[int] = set()
        for start in range(0, min(len(ranked), VERIFY_BUDGET), _CHUNK):
            chunk = ranked[start : start + _CHUNK]
            ids = [pid for pid, _ in chunk]
            self._load(ids + [i - 1 for i in ids] + [i + 1 for i in ids])
            for pid, score in chunk:
                tokens = self._window(pid)
                if all(occurs(tokens, phrase) for phrase in self._phrases):
                    kept.append((pid, score))
                    documents.add(self._engine.document_of(pid))
            if len(documents) >= want_documents:
                break
        return kept


def _has(ids, pid: int) -> bool:
    at = bisect.bisect_left(ids, pid)
    return at < len(ids) and ids[at] == pid
