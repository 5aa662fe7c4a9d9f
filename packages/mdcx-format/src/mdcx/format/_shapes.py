"""Character-shape codes: finding words an OCR engine misread.

A misread word is not in the index, so a question using the right spelling
finds nothing and no error says why.  OCR confuses letters that look alike,
so letters are grouped by shape (after Spitz's character shape codes:
ascenders, x-height letters, descenders, dotted letters); runs of x-height
letters collapse, since "rn" and "m" are the same shape.  A misread word and
the word meant share a shape code; the code is only a filter, and candidates
are then judged by edit distance.  Only when none of a question's words is
in the index are shapes tried, and a hit then says which spelling it was
read as (``read_as``), never pretending the document holds the word asked.
"""

from __future__ import annotations

_ASCENDERS = set("bdfhklt0123456789")
_DESCENDERS = set("gpqy")
_DOTTED = set("ij")
SHAPE_VERSION = 1


def shape(term: str) -> str | None:
    """The shape code of a Latin-script term, or None for other scripts."""
    if not term.isascii() or not term.isalnum() or len(term) < 3:
        return None
    out = []
    for ch in term:
        code = "A" if ch in _ASCENDERS else "g" if ch in _DESCENDERS else "i" if ch in _DOTTED else "x"
        if code == "x" and out and out[-1] == "x":
            continue
        out.append(code)
    return "".join(out)


def distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance, giving up (returning limit + 1) once it exceeds ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


def tolerance(term: str) -> int:
    return 1 if len(term) <= 5 else 2


def build_shape_index(con) -> int:
    """Fill ``term_shape`` from the term table; returns how many terms got a shape."""
    from ._schema import SHAPE_TABLE, script, set_meta

    script(con, SHAPE_TABLE)
    rows = ((code, term) for (term,) in con.execute("SELECT term FROM term") if (code := shape(term)))
    count = 0
    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) >= 5000:
            con.executemany("INSERT OR IGNORE INTO term_shape(shape, term) VALUES(?, ?)", batch)
            count += len(batch)
            batch = []
    if batch:
        con.executemany("INSERT OR IGNORE INTO term_shape(shape, term) VALUES(?, ?)", batch)
        count += len(batch)
    set_meta(con, "shape_version", SHAPE_VERSION)
    set_meta(con, "shape_terms", count)
    return count


def read_as(package, terms: list[str]) -> dict[str, str]:
    """For words the index lacks, the indexed spelling an OCR engine likely produced instead.

    Candidates share the word's shape code and lie within a small edit
    distance; among them the closest, then the most frequent, wins.
    """
    if "term_shape" not in package.tables:
        return {}
    found: dict[str, str] = {}
    for term in dict.fromkeys(terms):
        code = shape(term)
        if code is None:
            continue
        limit = tolerance(term)
        best: tuple[int, int, str] | None = None
        for (candidate,) in package.execute(
            "SELECT term FROM term_shape WHERE shape = ? LIMIT 2000", (code,)
        ):
            d = distance(term, candidate, limit)
            if d <= limit:
                df = package.execute("SELECT df FROM term WHERE term = ?", (candidate,))[0][0]
                key = (d, -df, candidate)
                if best is None or key < best:
                    best = key
        if best is not None:
            found[term] = best[2]
    return found
