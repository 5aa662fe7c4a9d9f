"""Opening a package: header without the key, the database with it.

``read_header`` costs one small read.  ``Package`` costs the header, one key
derivation and the sealed block table; the body is read block by block as
queries touch it, through the VFS, into bounded memory.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import apsw

from . import _crypto, _schema, _vfs
from ._container import DEFAULT_CACHE_BYTES, RawHeader, SealedBody, read_raw_header, walk_digest
from ._errors import CorruptPackage, InputError, MdcxError, UnsupportedVersion
from ._frontmatter import split_front_matter
from ._header import FORMAT_NAME, FORMAT_VERSION
from ._paths import PREFIX, relative_of, shown_name


@dataclass(frozen=True)
class Header:
    """What anyone can read from a package without its key."""

    path: str
    kind: str  # "mdcx2" or "legacy"
    fields: dict[str, Any]
    file_bytes: int

    @property
    def signed(self) -> bool:
        if self.kind == "legacy":
            return bool(self.fields.get("signature"))
        return "signing" in self.fields

    @property
    def public_key(self) -> str | None:
        if self.kind == "legacy":
            return self.fields.get("public_key") or None
        signing = self.fields.get("signing")
        return signing.get("public_key") if isinstance(signing, dict) else None


def read_header(path: str | Path) -> Header:
    """The header of a package, no key needed."""
    path = Path(path)
    raw = read_raw_header(path)
    return Header(str(path), raw.kind, raw.header, raw.file_size)


def body_intact(path: str | Path) -> bool:
    """Whether the encrypted body still hashes to the header's digest (no key needed)."""
    return body_state(path) == "intact"


def body_state(path: str | Path) -> str:
    """``intact``, ``altered`` (the body hashes to another digest) or ``truncated``.

    ``truncated``: the body's blocks do not add up to the file (bytes cut
    off, or appended after the trailer).  First-generation packages can only
    be told intact or altered.
    """
    path = Path(path)
    raw = read_raw_header(path)
    if raw.kind == "legacy":
        from ._legacy import legacy_body_intact

        return "intact" if legacy_body_intact(path, raw) else "altered"
    digest = walk_digest(path, raw)
    if digest is None:
        return "truncated"
    return "intact" if digest == raw.header.get("body_digest") else "altered"


def kdf_of(header: dict) -> _crypto.KdfParams:
    kdf = header.get("kdf")
    if not isinstance(kdf, dict) or kdf.get("name") != "scrypt":
        raise UnsupportedVersion(
            "the package uses a key derivation this reader does not know; upgrade mdcx-format"
        )
    try:
        return _crypto.KdfParams(kdf["n"], kdf["r"], kdf["p"], bytes.fromhex(kdf["salt"]))
    except (KeyError, TypeError, ValueError):
        raise CorruptPackage("the header's key-derivation parameters are malformed") from None


_HEX = frozenset("0123456789abcdef")


def _is_hex(value: object, length: int) -> bool:
    return isinstance(value, str) and len(value) == length and set(value) <= _HEX


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _check_v2(raw: RawHeader, path: Path) -> None:
    """Refuse a header whose fields could not have been written by a v2 writer."""
    header = raw.header
    if header.get("format") != FORMAT_NAME or header.get("version") != FORMAT_VERSION:
        raise UnsupportedVersion(
            f"{path.name}: header says format {header.get('format')!r} version {header.get('version')!r}; "
            f"this reader knows {FORMAT_NAME} {FORMAT_VERSION}"
        )
    if header.get("cipher") != "AES-256-GCM":
        raise UnsupportedVersion(f"{path.name}: cipher {header.get('cipher')!r} is not supported")
    compression = header.get("compression")
    problems = [
        name
        for name, ok in (
            ("package_id", _is_hex(header.get("package_id"), 32)),
            ("body_digest", _is_hex(header.get("body_digest"), 64)),
            ("block_size", _is_int(header.get("block_size"))),
            ("blocks", _is_int(header.get("blocks"))),
            ("database_bytes", _is_int(header.get("database_bytes"))),
            (
                "compression",
                isinstance(compression, dict)
                and isinstance(compression.get("method"), str)
                and isinstance(compression.get("dictionary", False), bool),
            ),
            (
                "signing",
                header.get("signing") is None
                or (isinstance(header["signing"], dict) and _is_hex(header["signing"].get("public_key"), 64)),
            ),
            ("signature", header.get("signature") is None or _is_hex(header["signature"], 128)),
        )
        if not ok
    ]
    if problems:
        raise CorruptPackage(
            f"{path.name}: the header's {', '.join(problems)} is malformed; the file was altered or damaged"
        )


@dataclass(frozen=True)
class DocumentInfo:
    id: int
    path: str  # portable path, "@/..."
    title: str | None
    dated: str | None
    dated_from: str | None
    direction: str | None
    attachment: bool
    passages: int
    bytes: int


@dataclass(frozen=True)
class Document:
    info: DocumentInfo
    text: str  # the whole file as packed, front matter included
    fields: dict[str, Any] = field(default_factory=dict)
    encoding: str = "utf-8"


_DOC_COLUMNS = "id, path, title, dated, dated_from, direction, attachment, passages, bytes"
_LIKE_PATTERN_LIMIT = 50_000  # bytes: SQLite's default SQLITE_MAX_LIKE_PATTERN_LENGTH


def _info(row: tuple) -> DocumentInfo:
    return DocumentInfo(row[0], row[1], row[2], row[3], row[4], row[5], bool(row[6]), row[7], row[8])


class Package:
    """A package opened read-only.  Use as a context manager, or call ``close``.

    Safe to share between threads: the connection serialises its statements
    and the block cache has its own lock.
    """

    def __init__(self, path: str | Path, passphrase: str, *, cache_bytes: int = DEFAULT_CACHE_BYTES):
        self.path = Path(path)
        raw = read_raw_header(self.path)
        self.header = Header(str(self.path), raw.kind, raw.header, raw.file_size)
        self._lock = threading.RLock()
        self._body: SealedBody | None = None
        self._vfs_name: str | None = None
        self.kind = raw.kind
        if raw.kind == "legacy":
            from ._legacy import open_legacy

            self.con = open_legacy(self.path, raw, passphrase)
        else:
            _check_v2(raw, self.path)
            master = _crypto.derive_key(passphrase, kdf_of(raw.header))
            self._body = SealedBody(self.path, raw, master, cache_bytes)
            try:
                self.con, self._vfs_name = _vfs.connect(self._body)
                self.meta = _schema.read_meta(self.con)
            except apsw.Error as exc:
                self.close()
                raise CorruptPackage(
                    f"{self.path.name}: the database inside cannot be read ({exc})"
                ) from None
            except BaseException:
                self.close()
                raise
        if raw.kind == "legacy":
            self.meta = _schema.read_meta(self.con)
        self.tables = _schema.tables(self.con)
        self._engine: Any = None

    @property
    def name(self) -> str:
        return self.path.name

    def __enter__(self) -> Package:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            self._close()

    def _close(self) -> None:
        con = getattr(self, "con", None)
        if con is not None:
            try:
                con.close()
            except apsw.Error:
                pass
            self.con = None
        if self._vfs_name:
            _vfs.release(self._vfs_name)
            self._vfs_name = None
        if self._body is not None:
            self._body.close()
            self._body = None

    def authenticate(self) -> int:
        """Read and authenticate every block of the body; raises on the first bad one.

        Opening checks the header, the block table and the body digest; this
        also proves that every block decrypts, which ``verify`` (no key) cannot.
        """
        with self._lock:
            if self._body is None:
                return 0  # first-generation packages were authenticated whole when opened
            return self._body.authenticate_all()

    @property
    def memory_bytes(self) -> int:
        """Decrypted bytes this package holds in its block cache (or in memory, if legacy)."""
        if self._body is not None:
            return self._body.cached_bytes
        return int(getattr(self, "legacy_bytes", 0))

    def execute(self, sql: str, params: tuple | list = ()) -> list[tuple]:
        """Run a read-only statement and return all rows; errors become ``MdcxError``."""
        # One connection, one statement at a time: apsw refuses concurrent use
        # of a connection rather than waiting, so threads take turns here.
        with self._lock:
            if self.con is None:
                raise MdcxError(f"{self.name} is closed")
            try:
                return list(self.con.execute(sql, params))
            except MdcxError:
                raise
            except apsw.Error as exc:
                raise CorruptPackage(f"{self.name}: the database inside cannot be read ({exc})") from None

    # -- documents ------------------------------------------------------------------------

    def documents(self, *, attachments: bool = True) -> Iterator[DocumentInfo]:
        if self.kind == "legacy":
            from ._legacy import legacy_documents

            yield from legacy_documents(self, attachments=attachments)
            return
        where = "" if attachments else " WHERE attachment = 0"
        for row in self.execute(f"SELECT {_DOC_COLUMNS} FROM document{where} ORDER BY id"):
            yield _info(row)

    def find_document(self, name: str) -> DocumentInfo:
        """A document by portable path (``@/a/b.md``), relative path, or unique file name/title."""
        if self.kind == "legacy":
            from ._legacy import legacy_find

            return legacy_find(self, name)
        wanted = name.strip()
        if not wanted:
            raise InputError("give a document name or portable path")
        missing = InputError(f"{self.name} has no document named {shown_name(name)}")
        try:
            wanted.encode("utf-8")
        except UnicodeEncodeError:  # bytes no file name of a package can hold
            raise missing from None
        candidates = []
        try:
            portable = PREFIX + relative_of(wanted)
            candidates = self.execute(f"SELECT {_DOC_COLUMNS} FROM document WHERE path = ?", (portable,))
        except InputError:
            pass
        if not candidates:
            suffix = "%/" + wanted.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            if len(suffix.encode("utf-8")) > _LIKE_PATTERN_LIMIT:  # longer than any path
                suffix = ""
            candidates = self.execute(
                f"SELECT {_DOC_COLUMNS} FROM document WHERE path LIKE ? ESCAPE '\\' OR path = ? OR title = ?",
                (suffix, "@/" + wanted, wanted),
            )
        if not candidates:
            raise missing
        if len(candidates) > 1:
            paths = ", ".join(r[1] for r in candidates[:5])
            raise InputError(
                f"{shown_name(name)} names several documents in {self.name} ({paths}); give the portable path"
            )
        return _info(candidates[0])

    def document(self, name: str) -> Document:
        info = self.find_document(name)
        if self.kind == "legacy":
            from ._legacy import legacy_document

            return legacy_document(self, info)
        encoding, front_matter, record_json, body = self.execute(
            "SELECT encoding, front_matter, record, body FROM document_source WHERE id = ?", (info.id,)
        )[0]
        if body is None:
            # An indexed document owns the passage ids [first_passage, first_passage + passages):
            # a range of the primary key, so only its own blocks are read (passage.document has
            # no index, and filtering on it would read the whole table).
            (first,) = self.execute("SELECT first_passage FROM document WHERE id = ?", (info.id,))[0]
            rows = (
                self.execute(
                    "SELECT text FROM passage WHERE id >= ? AND id < ? ORDER BY id",
                    (first, first + info.passages),
                )
                if first is not None
                else []
            )
            body = "".join(r[0] for r in rows)
        fields = {
            **split_front_matter(front_matter)[0].data,
            **(json.loads(record_json) if record_json else {}),
        }
        return Document(info, front_matter + body, fields, encoding)

    def passages_of(self, ids: list[int]) -> dict[int, tuple]:
        """``id -> (document, position, page, last_page, heading, text)``."""
        if self.kind == "legacy":
            from ._legacy import legacy_passages_of

            return legacy_passages_of(self, ids)
        rows: dict[int, tuple] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for row in self.execute(
                f"SELECT id, document, position, page, last_page, heading, text FROM passage WHERE id IN ({marks})",
                chunk,
            ):
                rows[row[0]] = row[1:]
        return rows

    def documents_by_id(self, ids: list[int]) -> dict[int, DocumentInfo]:
        if self.kind == "legacy":
            wanted = set(ids)
            return {d.id: d for d in self.documents(attachments=False) if d.id in wanted}
        out: dict[int, DocumentInfo] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for row in self.execute(f"SELECT {_DOC_COLUMNS} FROM document WHERE id IN ({marks})", chunk):
                out[row[0]] = _info(row)
        return out

    def engine(self) -> Any:
        """The lexical engine for this package, built on first use."""
        with self._lock:
            if self._engine is None:
                if self.kind == "legacy":
                    from ._legacy import LegacyLexicon

                    self._engine = LegacyLexicon(self)
                else:
                    from ._lexical import Lexicon

                    self._engine = Lexicon(self)
            return self._engine


def open_package(path: str | Path, passphrase: str, **kwargs: Any) -> Package:
    return Package(path, passphrase, **kwargs)
