"""Continuation cursors for search replies.

A cursor says where the next page of a ranking starts and which question it
belongs to (a digest of the question and the options that shape the ranking),
so a cursor handed back with another question is refused instead of silently
paging through the wrong ranking.  Searches are deterministic, so a page is
recomputed rather than held in memory.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json

from mdcx.format import QueryError

_VERSION = 1


def fingerprint(question: str, *options: object) -> str:
    data = json.dumps([question, *options], ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:16]


def encode(offset: int, print_: str) -> str:
    raw = json.dumps({"v": _VERSION, "o": offset, "q": print_}, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode(cursor: str, print_: str) -> int:
    """The offset a cursor points to; ``QueryError`` when it is not one of ours or not for this question."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        data = json.loads(raw)
        offset = data["o"]
        ok = (
            data.get("v") == _VERSION
            and isinstance(offset, int)
            and not isinstance(offset, bool)
            and offset >= 0
            and isinstance(data["q"], str)
        )
    except (binascii.Error, ValueError, TypeError, KeyError, UnicodeDecodeError):
        ok = False
    if not ok:
        raise QueryError(
            "the cursor is not one this server gave; leave it out to start from the first result"
        )
    if data["q"] != print_:
        raise QueryError(
            "the cursor continues another search; repeat that question with the same mode, only and prefer, "
            "or leave the cursor out to start again"
        )
    return offset
