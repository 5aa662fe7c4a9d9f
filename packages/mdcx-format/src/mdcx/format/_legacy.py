"""Reading packages written by the first-generation mdcx tool (1.x).

Their body is one AES-GCM stream over one compressed SQLite file, so it is
decrypted and inflated whole into memory (never to disk) and opened with
``deserialize``.  The layout is described in the project's
``first-generation-format.md``; only reading is supported.
"""

from __future__ import annotations

import hashlib
import lzma
import re
import unicodedata
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING

import apsw

from . import _crypto
from ._compression import decompressor
from ._container import RawHeader
from ._errors import CorruptPackage, InputError, UnsupportedVersion
from ._lexical import TermInfo
from ._paths import PREFIX, shown_name
from ._schema import script

if TYPE_CHECKING:
    from ._reader import Document, DocumentInfo, Package

_MAX_DATABASE = 4 << 30
_K1, _B = 1.2, 0.75


def _body(path: Path, raw: RawHeader) -> bytes:
    with open(path, "rb") as fh:
        fh.seek(raw.body_offset)
        return fh.read()


def legacy_body_intact(path: Path, raw: RawHeader) -> bool:
    return hashlib.sha256(_body(path, raw)).hexdigest() == raw.header.get("body_digest")


def _hex(header: dict, key: str, length: int) -> bytes:
    try:
        value = bytes.fromhex(header[key])
    except (KeyError, TypeError, ValueError):
        raise CorruptPackage(f"the first-generation header's {key!r} is missing or malformed") from None
    if len(value) != length:
        raise CorruptPackage(f"the first-generation header's {key!r} has the wrong length")
    return value


def open_legacy(path: Path, raw: RawHeader, passphrase: str) -> apsw.Connection:
    header = raw.header
    if header.get("file_format") != "mdcx" or header.get("version") != 1:
        raise UnsupportedVersion(
            f"{path.name}: unknown first-generation header (version {header.get('version')!r})"
        )
    if header.get("encryption", "AES-256-GCM") != "AES-256-GCM":
        raise UnsupportedVersion(f"{path.name}: cipher {header.get('encryption')!r} is not supported")
    salt = _hex(header, "salt", 16)
    nonce = _hex(header, "nonce", 12)
    body = _body(path, raw)
    if hashlib.sha256(body).hexdigest() != header.get("body_digest"):
        raise CorruptPackage(
            f"{path.name}: the body does not match the header's digest; the file was altered or truncated"
        )
    # scrypt(2**15, 8, 1) is compiled into the first-generation reader (its header's
    # parameters are informational), over the passphrase's bytes as typed.
    key = _crypto.derive_key(passphrase, _crypto.KdfParams(1 << 15, 8, 1, salt), normalise=False)
    compressed = _crypto.unseal(key, nonce, body, None)
    del body
    method = header.get("compression") or "lzma"
    try:
        if method in ("lzma", "xz"):
            data = lzma.decompress(compressed)
        else:
            data = decompressor(method, limit=_MAX_DATABASE)(compressed)
    except lzma.LZMAError:
        raise CorruptPackage(f"{path.name}: the decrypted body does not decompress") from None
    del compressed
    con = apsw.Connection(":memory:")
    try:
        con.deserialize("main", data)
        script(con, "PRAGMA temp_store=MEMORY; PRAGMA query_only=1")
        con.execute("SELECT count(*) FROM sqlite_schema").fetchall()
    except apsw.Error as exc:
        con.close()
        raise CorruptPackage(f"{path.name}: the decrypted body is not a database ({exc})") from None
    return con


def _rows(pkg: Package, sql: str, params: tuple | list = ()) -> list[tuple]:
    return pkg.execute(sql, params)


def _has(pkg: Package, table: str) -> bool:
    return table in pkg.tables


def legacy_documents(pkg: Package, *, attachments: bool = True):
    from ._reader import DocumentInfo

    counts = dict(_rows(pkg, "SELECT document_id, count(*) FROM passage GROUP BY document_id"))
    for doc_id, name, path, dated, dated_from, source in _rows(
        pkg, "SELECT id, name, pseudopath, dated, dated_from, source FROM document ORDER BY id"
    ):
        direction = {"RECEIVED": "received", "SENT": "sent"}.get(source or "")
        yield DocumentInfo(
            doc_id,
            path or PREFIX + f"{name}.md",
            name,
            dated,
            dated_from,
            direction,
            False,
            counts.get(doc_id, 0),
            0,
        )
    if attachments and _has(pkg, "attachment"):
        for att_id, name, path in _rows(pkg, "SELECT id, name, pseudopath FROM attachment ORDER BY id"):
            yield DocumentInfo(-att_id, path or PREFIX + f"{name}.md", name, None, None, None, True, 0, 0)


def legacy_find(pkg: Package, name: str) -> DocumentInfo:
    wanted = name.strip()
    matches = [
        d
        for d in legacy_documents(pkg)
        if wanted in (d.path, d.path[len(PREFIX) :], d.title) or d.path.endswith("/" + wanted)
    ]
    if not matches:
        raise InputError(f"{pkg.name} has no document named {shown_name(name)}")
    if len(matches) > 1:
        raise InputError(f"{shown_name(name)} names several documents in {pkg.name}; give the portable path")
    return matches[0]


def legacy_document(pkg: Package, info: DocumentInfo) -> Document:
    from ._reader import Document

    if info.attachment:
        text = _rows(pkg, "SELECT text FROM attachment WHERE id = ?", (-info.id,))[0][0] or ""
    else:
        text = "\n\n".join(
            r[0] or ""
            for r in _rows(
                pkg, "SELECT text FROM passage WHERE document_id = ? ORDER BY position", (info.id,)
            )
        )
    return Document(info, text, {}, "utf-8")


def legacy_passages_of(pkg: Package, ids: list[int]) -> dict[int, tuple]:
    out = {}
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for pid, doc, position, text in _rows(
            pkg, f"SELECT id, document_id, position, text FROM passage WHERE id IN ({marks})", chunk
        ):
            out[pid] = (doc, position, None, None, None, text or "")
    return out


def legacy_verification(path: Path, raw: RawHeader, public_key: bytes):
    from ._signing import Verification

    header = raw.header
    intact = legacy_body_intact(path, raw)
    signature = header.get("signature") or ""
    if not signature:
        return Verification(str(path), False, False, False, intact, header.get("issuer"))
    try:
        sig = bytes.fromhex(signature)
    except ValueError:
        return Verification(str(path), True, False, False, intact, header.get("issuer"))
    # The first generation signed the ASCII hex of the body digest, and nothing else.
    valid = _crypto.verify_signature(public_key, str(header.get("body_digest", "")).encode("ascii"), sig)
    return Verification(str(path), True, valid, valid, intact, header.get("issuer"))


# -- querying ---------------------------------------------------------------------------------

_ACCENTS = ((0x0300, 0x036F), (0x1AB0, 0x1AFF), (0x1DC0, 0x1DFF), (0x20D0, 0x20F0), (0xFE20, 0xFE2F))
_ACCENT_TABLE = {cp: None for a, b in _ACCENTS for cp in range(a, b + 1)}
_QUOTES = str.maketrans(
    {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-", "\u00a0": " "}
)
_UNSPACED = (
    "\u0e00-\u0e7f\u0e80-\u0eff\u0f00-\u0fff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff"
    "\u3400-\u4dbf\u4e00-\u9fff\ua980-\ua9df\uac00-\ud7af\uf900-\ufaff"
)
_UNSPACED_CHAR = re.compile(f"[{_UNSPACED}]")


def _legacy_terms(text: str) -> list[str]:
    from ._tokenize import _tables

    text = unicodedata.normalize("NFKD", text.lower()).translate(_ACCENT_TABLE).translate(_QUOTES)
    text = unicodedata.normalize("NFC", text)
    out: list[str] = []
    for word in _tables().word.findall(text):
        if _UNSPACED_CHAR.search(word):
            buf = ""
            for ch in word:
                if _UNSPACED_CHAR.match(ch):
                    if buf:
                        out.append(buf)
                        buf = ""
                    out.append(ch)
                else:
                    buf += ch
            if buf:
                out.append(buf)
        else:
            out.append(word)
    return out


class LegacyLexicon:
    """BM25 over a first-generation FTS5 index, with the same interface as ``Lexicon``."""

    unicode_note = None  # FTS5 cuts the words, not the Unicode rules of mdcx-words

    def __init__(self, pkg: Package) -> None:
        self._pkg = pkg
        con = pkg.con
        con.execute("PRAGMA query_only=0")
        con.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.mdcx_rows USING fts5vocab(main, passage_fts, row)"
        )
        con.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.mdcx_inst USING fts5vocab(main, passage_fts, instance)"
        )
        con.execute("PRAGMA query_only=1")
        rows = _rows(pkg, "SELECT id, document_id, coalesce(tokens, 0) FROM passage")
        self.passages = len(rows)
        self._doc = {pid: doc for pid, doc, _ in rows}
        self._direction = {d.id: d.direction for d in legacy_documents(pkg, attachments=False)}
        total = sum(t for _, _, t in rows)
        avg = total / len(rows) if rows else 1.0
        self._norm = {pid: _K1 * (1 - _B + _B * (t or avg) / avg) for pid, _, t in rows}

    @staticmethod
    def query_terms(text: str) -> list[tuple[str, bool]]:
        return [(t, False) for t in _legacy_terms(text)]

    @staticmethod
    def first_unit(term: str) -> str:
        return term[:1]

    def lookup(self, terms: list[str]) -> dict[str, TermInfo]:
        found = {}
        for term in dict.fromkeys(terms):
            row = _rows(self._pkg, "SELECT doc, cnt FROM temp.mdcx_rows WHERE term = ?", (term,))
            if row:
                found[term] = TermInfo(term, row[0][0], row[0][1], hash(term))
        return found

    def with_prefix(self, prefix: str, limit: int = 200) -> list[TermInfo]:
        return []

    @staticmethod
    def prefix_of(term: str) -> None:
        return None  # first-generation packages answer by their own words only

    def postings(self, info: TermInfo) -> tuple[list[int], bytes]:
        """``(ids ascending, tfs)`` of a term, from FTS5's instance vocabulary."""
        tfs: dict[int, int] = defaultdict(int)
        for (doc,) in _rows(self._pkg, "SELECT doc FROM temp.mdcx_inst WHERE term = ?", (info.term,)):
            tfs[doc] += 1
        ids = sorted(tfs)
        return ids, bytes(min(tfs[p], 255) for p in ids)

    def score(self, weights: dict[TermInfo, float], groups: object = (), **_: object) -> dict[int, float]:
        acc: dict[int, float] = defaultdict(float)
        for info, weight in weights.items():
            ids, tfs = self.postings(info)
            for pid, tf in zip(ids, tfs):
                acc[pid] += weight * tf * (_K1 + 1) / (tf + self._norm.get(pid, _K1))
        return dict(acc)

    def document_of(self, passage_id: int) -> int:
        return self._doc[passage_id]

    def direction_of(self, document_id: int) -> str | None:
        return self._direction.get(document_id)
