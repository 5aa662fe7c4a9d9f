"""Which words of a text a question matched, for showing them marked.

The same cutting and folding as the index (``_tokenize``): a word of the
text is marked when one of its index terms is a term of the question, so
``Café`` is marked for ``cafe`` and a Thai or Chinese run is marked unit by
unit where one of its pairs was asked.  Words the engine matched only by
their first letters (``lighthouses`` for ``lighthouse``) are marked as
variants, and so are the spellings a package read a question's words as
(``read_as``, packages with a shape index).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

from ._index import PREFIX_LETTERS
from ._tokenize import _tables, is_unspaced, is_word, query_terms, tokenize


class Highlighter:
    """Escapes text for HTML and wraps the words a question matched in ``<mark>``."""

    def __init__(
        self, question: str = "", also: Iterable[str] = (), prefix_letters: int = PREFIX_LETTERS
    ) -> None:
        """``prefix_letters`` is the package's rule for variants (``prefix_letters(package)``; 0: none)."""
        terms = [t for t, _expand in query_terms(question)] if question else []
        terms += [t for word in also for t in tokenize(word)]
        self.terms = frozenset(terms)
        self._letters = prefix_letters
        self.prefixes = (
            frozenset(t[:prefix_letters] for t in self.terms if len(t) >= prefix_letters and is_word(t))
            if prefix_letters
            else frozenset()
        )
        self._seen: dict[str, str | None] = {}  # words repeat: classify each spelling once
        # ASCII text (most text) is searched for the candidate words at C speed.
        ascii_terms = sorted((t for t in self.terms if t.isascii()), key=len, reverse=True)
        choices = [re.escape(t) for t in ascii_terms]
        choices += [re.escape(p) + "[A-Za-z0-9]*" for p in sorted(self.prefixes) if p.isascii()]
        self._ascii = (
            re.compile(r"(?<![A-Za-z0-9])(?:" + "|".join(choices) + r")(?![A-Za-z0-9])", re.IGNORECASE)
            if choices
            else None
        )

    def __bool__(self) -> bool:
        return bool(self.terms)

    def _kind(self, word: str) -> str | None:
        if word in self._seen:
            return self._seen[word]
        kind = self._seen[word] = self._classify(word)
        return kind

    def _classify(self, word: str) -> str | None:
        found = tokenize(word)
        if any(t in self.terms for t in found):
            return "hit"
        if self.prefixes and any(
            len(t) >= self._letters and t[: self._letters] in self.prefixes for t in found
        ):
            return "variant"
        return None

    def _units(self, word: str) -> list[tuple[str, str | None]]:
        """A word of an unspaced script: mark each unit that begins or ends an asked pair."""
        units = _tables().unit.findall(word)
        norm = [tokenize(u) for u in units]
        keys = ["".join(n) for n in norm]
        marked = [False] * len(units)
        for i, key in enumerate(keys):
            if key in self.terms and len(units) == 1:
                marked[i] = True
            if i + 1 < len(units) and key + keys[i + 1] in self.terms:
                marked[i] = marked[i + 1] = True
        if len(units) > 1 and not any(marked):
            marked = [k in self.terms for k in keys]  # a one-character question
        return [(u, "hit" if m else None) for u, m in zip(units, marked)]

    def spans(self, text: str) -> list[tuple[str, str | None]]:
        """``text`` cut into pieces, each with ``"hit"``, ``"variant"`` or None."""
        if not self.terms:
            return [(text, None)]
        if text.isascii():
            if self._ascii is None:
                return [(text, None)]
            pattern = self._ascii
        else:
            pattern = _tables().word
        out: list[tuple[str, str | None]] = []
        last = 0
        for m in pattern.finditer(text):
            word = m.group()
            if not word.isascii() and is_unspaced(word):
                pieces = self._units(word)
            else:
                pieces = [(word, self._kind(word))]
            if not any(kind for _, kind in pieces):
                continue
            if m.start() > last:
                out.append((text[last : m.start()], None))
            out.extend(pieces)
            last = m.end()
        if last < len(text):
            out.append((text[last:], None))
        return out

    def html(self, text: str) -> str:
        """``text`` escaped, with matched words marked."""
        if not self.terms:
            return html.escape(text, quote=False)
        parts = []
        for piece, kind in self.spans(text):
            escaped = html.escape(piece, quote=False)
            if kind == "hit":
                parts.append(f"<mark>{escaped}</mark>")
            elif kind == "variant":
                parts.append(f'<mark class="variant">{escaped}</mark>')
            else:
                parts.append(escaped)
        return "".join(parts)


PLAIN = Highlighter()
