"""Expressions: tokens that mix letters or digits with symbols, matched exactly.

The word index drops symbols, which is right for prose and wrong for a corpus
searched by formula: ``pq|b(b+p+q)`` and ``pq|b(b-p-q)`` differ by one sign
and cut to the same words.  With ``--expressions`` such tokens are indexed
whole; a question holding one finds exactly the passages that hold it, and
nothing else (a near miss would be the very confusion the index exists to
prevent).  A token is an expression when, between spaces and without the
punctuation that ends a sentence or a quotation, it holds a letter or digit
and one of the operator signs below, other than a lone hyphen or apostrophe
inside a word.  Expressions with spaces inside are not recognised: telling
where a spaced formula ends inside prose is guesswork.
"""

from __future__ import annotations

import re
import unicodedata

OPERATORS = set("=+*/^|<>~%&()[]{}_\\·×÷±≤≥≠≈→←↔∈∉∑∏∫√∞∂∇⊂⊆∪∩∧∨¬")
_TRAILING = ".,;:!?\"'»”’)"
_LEADING = "\"'«“‘("
_WORDY = re.compile(r"^[^\W_]+(?:['’\-][^\W_]+)*$")
MAX_LENGTH = 200


def _balanced(token: str) -> bool:
    return token.count("(") == token.count(")") and token.count("[") == token.count("]")


def normalise(token: str) -> str:
    """The form an expression is indexed and looked up by: NFKC, lower case, no surrounding punctuation."""
    token = unicodedata.normalize("NFKC", token).lower()
    while token and token[-1] in _TRAILING and not (token[-1] == ")" and _balanced(token)):
        token = token[:-1]
    while token and token[0] in _LEADING and not (token[0] == "(" and _balanced(token)):
        token = token[1:]
    return token


def expressions(text: str) -> list[str]:
    """The expressions in ``text``, in order, each once."""
    found: dict[str, None] = {}
    for raw in text.split():
        if len(raw) > MAX_LENGTH or not any(ch in OPERATORS or ch in "-'" for ch in raw):
            continue
        token = normalise(raw)
        if len(token) < 2 or _WORDY.match(token) or not any(ch.isalnum() for ch in token):
            continue
        if any(ch in OPERATORS for ch in token):
            found[token] = None
    return list(found)


def passages_with(package, wanted: list[str]) -> set[int] | None:
    """Passages holding every expression in ``wanted``; None if the package has no such index."""
    if "expression" not in package.tables or package.meta.get("expression_version") is None:
        return None
    result: set[int] | None = None
    for expr in wanted:
        found = {pid for (pid,) in package.execute("SELECT passage FROM expression WHERE expr = ?", (expr,))}
        result = found if result is None else result & found
    return result or set()
