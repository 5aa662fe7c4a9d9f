"""Library results shaped for an agent: short passages with ids, pages that fit a budget.

Every reply is measured as the compact JSON the client receives and kept
under ``REPLY_BYTES`` (60,000 bytes of UTF-8, about 20,000 tokens even for
scripts that cost a token a character): a search reply stops adding
documents, a document page stops adding text, and each says where to go on.
"""

from __future__ import annotations

import json
from typing import Any

from mdcx.format import Document, PackageStatus, SearchResult

REPLY_BYTES = 60_000
PASSAGE_CHARS = 1_200  # a passage is cut to about 160 words; longer blocks are shown in part
SHORT_PASSAGE_CHARS = 300  # when even one document does not fit the budget
HEADING_CHARS = 300
QUERY_CHARS = 1_000
TERMS_SHOWN = 50

# Header fields that describe the cipher and the file's layout, of no use to
# a reader of the corpus.
_TECHNICAL_FIELDS = frozenset(
    {
        "kdf",
        "cipher",
        "body_digest",
        "signature",
        "signing",
        "package_id",
        "block_size",
        "blocks",
        "database_bytes",
    }
)


def size(obj: Any) -> int:
    """Bytes of the compact JSON an object is sent as."""
    return len(dumps(obj).encode("utf-8"))


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def clip(text: str | None, limit: int) -> tuple[str | None, bool]:
    """``text`` cut to at most ``limit`` characters at a word boundary, and whether it was cut."""
    if text is None or len(text) <= limit:
        return text, False
    cut = text[:limit]
    space = max(cut.rfind(" "), cut.rfind("\n"))
    if space >= limit * 0.8:
        cut = cut[:space]
    return cut.rstrip() + " …", True


def _passage(p: dict, limit: int) -> dict:
    text, cut = clip(p["text"], limit)
    heading, _ = clip(p["heading"], HEADING_CHARS)
    return {**p, "text": text, "heading": heading, "truncated": cut}


def _document_hit(d: dict, limit: int) -> dict:
    return {**d, "passages": [_passage(p, limit) for p in d["passages"]]}


def search_reply(
    result: SearchResult, offset: int, limit: int, *, budget: int = REPLY_BYTES
) -> tuple[dict, int]:
    """The reply for documents ``offset .. offset+limit`` of ``result``, and how many it holds.

    ``result`` holds the ranking from its first document on.
    """
    data = result.to_json()
    query, query_cut = clip(data["query"], QUERY_CHARS)
    reply = {
        **data,
        "query": query,
        "unknown_terms": {k: v[:TERMS_SHOWN] for k, v in data["unknown_terms"].items()},
        "documents": [],
        "next_cursor": None,
        "note": None,
    }
    if query_cut:
        reply["note"] = "the question is echoed in part"
    page = data["documents"][offset : offset + limit]
    used = size(reply)
    for d in page:
        hit = _document_hit(d, PASSAGE_CHARS)
        cost = size(hit) + 1
        if used + cost > budget:
            if reply["documents"]:
                break
            hit = _document_hit(d, SHORT_PASSAGE_CHARS)
            cost = size(hit) + 1
        reply["documents"].append(hit)
        used += cost
    shown = len(reply["documents"])
    if shown < len(page):
        reply["note"] = (
            f"only {shown} of the {limit} documents asked for fit in one reply; pass next_cursor for the rest"
        )
    if any(p["truncated"] for d in reply["documents"] for p in d["passages"]):
        cut = "passages marked truncated are shown in part; read them whole with the document tool"
        reply["note"] = f"{reply['note']}; {cut}" if reply["note"] else cut
    return reply, shown


def _text_page(text: str, offset: int, room: int) -> str:
    """The longest slice of ``text`` from ``offset`` whose JSON fits in ``room`` bytes, ending at a line if one is near."""
    end = min(len(text), offset + room)  # a character costs at least one byte
    cost = size(text[offset:end])
    while cost > room:  # shrink in proportion: a few rounds at most
        span = end - offset
        end = offset + max(1, min(span - 1, int(span * room / cost)))
        cost = size(text[offset:end])
    if end < len(text):
        newline = text.rfind("\n", offset, end)
        if newline >= offset + (end - offset) * 0.9:
            end = newline + 1
    return text[offset:end]


def document_reply(package: str, doc: Document, offset: int, *, budget: int = REPLY_BYTES) -> dict:
    """One page of a document's text, from character ``offset``, with what identifies and dates it."""
    info = doc.info
    reply = {
        "package": package,
        "document": info.path,
        "title": info.title,
        "attachment": info.attachment,
        "dated": info.dated,
        "dated_from": info.dated_from,
        "direction": info.direction,
        "passages": info.passages,
        "encoding": doc.encoding,
        "length": len(doc.text),
        "offset": offset,
        "text": "",
        "next_offset": None,
    }
    room = budget - size(reply) - 16  # room for next_offset's digits
    text = _text_page(doc.text, offset, max(room, 1000))
    end = offset + len(text)
    reply["text"] = text
    reply["next_offset"] = end if end < len(doc.text) else None
    return reply


def package_record(status: PackageStatus) -> dict:
    """What ``info`` says of one package: open or not, memory held, and its header's record."""
    fields = status.header
    record = {k: v for k, v in fields.items() if k not in _TECHNICAL_FIELDS}
    signing = fields.get("signing")
    public_key = signing.get("public_key") if isinstance(signing, dict) else fields.get("public_key")
    record["signed"] = bool(signing or fields.get("signature"))
    if public_key:
        record["public_key"] = public_key
    return {
        "package": status.name,
        "open": status.open,
        "memory_bytes": status.memory_bytes,
        "record": record,
    }
