"""Writing a package: documents in, one sealed file out, atomically.

The plaintext database is built in a temporary file beside the target (the
only place plaintext of the index ever touches a disk), documents one at a
time, then sealed block by block into a second temporary that replaces the
target in one rename.  Both temporaries are removed on every path out,
including errors and Ctrl-C; a process killed outright leaves its temporaries
(never a half-written target), and the next write into that folder removes
them.
"""

from __future__ import annotations

import array
import dataclasses
import datetime as _dt
import json
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import apsw

from . import _crypto, _schema, _tokenize
from ._compression import Compression
from ._container import write_package
from ._dates import Dated, choose, read_sidecar
from ._errors import InputError, MdcxError
from ._frontmatter import split_front_matter
from ._header import FORMAT_NAME, FORMAT_VERSION
from ._index import IndexBuilder, le_bytes
from ._inputs import Skipped, SourceDocument, conversion_summary, iter_sources
from ._passages import cut_passages
from ._paths import direction_of, relative_of
from ._version import generator

TEMP_MARK = ".mdcx-tmp"
LARGEST_SHARE_WARNING = 1 / 3


@dataclass(frozen=True)
class PackOptions:
    compression: Compression = field(default_factory=Compression)
    kdf: _crypto.KdfParams = field(default_factory=_crypto.KdfParams)
    block_size: int | None = None  # None: the compression method's own (64 KiB zstd, 1 MiB lzma)
    issuer: str | None = None
    signing_key: _crypto.SigningKey | None = None
    dates: Path | None = None
    date_from_mtime: bool = False
    quotes: str = "document"
    workers: int | None = None

    def __post_init__(self) -> None:
        if self.quotes not in ("document", "boundary"):
            raise InputError(f"--quotes must be document or boundary, not {self.quotes!r}")
        if self.block_size is not None and (
            self.block_size % _schema.PAGE_SIZE or not (_schema.PAGE_SIZE <= self.block_size <= 1 << 24)
        ):
            raise InputError(f"the block size must be a multiple of {_schema.PAGE_SIZE} up to 16 MiB")


@dataclass(frozen=True)
class Contributor:
    path: str
    passages: int
    share: float


@dataclass(frozen=True)
class PackReport:
    target: str
    documents: int
    attachments: int
    passages: int
    skipped: tuple[Skipped, ...]
    warnings: tuple[str, ...]
    largest: Contributor | None
    bytes_in: int
    bytes_out: int
    seconds_index: float
    seconds_seal: float
    seconds_index_by_phase: dict[str, float]
    dated: int
    compression: dict
    signed: bool

    @property
    def ratio(self) -> float:
        return self.bytes_out / self.bytes_in if self.bytes_in else 0.0

    def to_json(self) -> dict:
        return {
            "target": self.target,
            "documents": self.documents,
            "attachments": self.attachments,
            "passages": self.passages,
            "skipped": [{"path": s.path, "reason": s.reason} for s in self.skipped],
            "warnings": list(self.warnings),
            "largest_contributor": None
            if self.largest is None
            else {
                "path": self.largest.path,
                "passages": self.largest.passages,
                "share": round(self.largest.share, 4),
            },
            "bytes_in": self.bytes_in,
            "bytes_out": self.bytes_out,
            "ratio": round(self.ratio, 4),
            "seconds_index": round(self.seconds_index, 3),
            "seconds_seal": round(self.seconds_seal, 3),
            "seconds_index_by_phase": {k: round(v, 3) for k, v in self.seconds_index_by_phase.items()},
            "dated": self.dated,
            "compression": self.compression,
            "signed": self.signed,
        }


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def remove_stale_temporaries(folder: Path) -> None:
    """Temporaries of writers that were killed outright (their PID is gone)."""
    try:
        entries = list(folder.iterdir())
    except OSError:
        return
    for entry in entries:
        name = entry.name
        if not (name.startswith(".") and TEMP_MARK in name):
            continue
        try:
            pid = int(name.split(TEMP_MARK, 1)[1].split(".")[1])
        except (IndexError, ValueError):
            continue
        if pid != os.getpid() and not _pid_alive(pid):
            try:
                entry.unlink()
            except OSError:
                pass


class PackageWriter:
    """Write-once builder of one package; the target appears only on a clean exit.

    ::

        with PackageWriter(target, passphrase, options) as writer:
            writer.add(document)
        report = writer.report
    """

    def __init__(self, target: Path, passphrase: str, options: PackOptions | None = None):
        self.target = Path(target)
        self.options = options or PackOptions()
        _crypto.normalise_passphrase(passphrase)  # refuse an empty one before any work
        self._passphrase = passphrase
        folder = self.target.parent if str(self.target.parent) else Path(".")
        if not folder.is_dir():
            raise InputError(f"the folder {folder} for {self.target.name} does not exist")
        if self.target.is_dir():
            raise InputError(f"{self.target} is a folder; give a file name for the package")
        stem = f".{self.target.name}{TEMP_MARK}.{os.getpid()}.{secrets.token_hex(4)}"
        self._db_path = folder / f"{stem}.db"
        self._spill_path = folder / f"{stem}.spill"
        self._seal_path = folder / f"{stem}.seal"
        self._folder = folder
        self._con: apsw.Connection | None = None
        self._index: IndexBuilder | None = None
        self._next_passage = 0
        self._documents = 0
        self._attachments = 0
        self._skipped: list[Skipped] = []
        self._warnings: list[str] = []
        self._largest: tuple[int, str] | None = None
        self._bytes_in = 0
        self._dates: list[str] = []
        self._phase = {"read": 0.0, "cut": 0.0, "count_terms": 0.0, "write": 0.0}
        self._paths: set[str] = set()
        self._conversion: dict | None = None
        self.report: PackReport | None = None

    # -- lifecycle -------------------------------------------------------------------------

    def __enter__(self) -> PackageWriter:
        remove_stale_temporaries(self._folder)
        try:
            self._con = apsw.Connection(str(self._db_path))
            _schema.script(
                self._con,
                f"PRAGMA page_size={_schema.PAGE_SIZE}; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
                "PRAGMA temp_store=MEMORY; PRAGMA cache_size=-65536; PRAGMA locking_mode=EXCLUSIVE",
            )
            _schema.create(self._con)
            self._con.execute("BEGIN")
            self._index = IndexBuilder(self._spill_path)
        except BaseException:
            self._cleanup()
            raise
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            if exc_type is None:
                self._finish()
        finally:
            self._cleanup()

    def _cleanup(self) -> None:
        if self._index is not None:
            self._index.close()
        if self._con is not None:
            try:
                self._con.close()
            except apsw.Error:
                pass
            self._con = None
        for path in (self._db_path, self._spill_path, self._seal_path):
            try:
                path.unlink()
            except FileNotFoundError:
                pass
            except OSError:
                pass

    # -- adding ------------------------------------------------------------------------------

    def skip(self, skipped: Skipped) -> None:
        self._skipped.append(skipped)

    def set_conversion(self, summary: dict | None) -> None:
        self._conversion = summary

    def add(self, doc: SourceDocument, *, sidecar: Dated | None = None) -> int:
        """Add one document; returns the passages it contributed (0 for attachments)."""
        con, index = self._con, self._index
        if con is None or index is None:
            raise MdcxError("PackageWriter.add() called outside its with-block")
        if doc.path in self._paths:
            self._skipped.append(Skipped(doc.path, "a document with this path was already packed"))
            return 0
        self._paths.add(doc.path)
        t0 = time.perf_counter()
        fm, body = split_front_matter(doc.text)
        fields = fm.data
        if fm.problem:
            self._warnings.append(f"{doc.path}: {fm.problem}")
        record = doc.record
        attachment = fields.get("indexed") is False or record.get("indexed") is False
        title = record.get("title") or fields.get("title")
        title = str(title) if title not in (None, "") else None
        dated = choose(
            source=record.get("date"),
            source_provenance=str(record.get("date_from") or "source"),
            sidecar=sidecar,
            front_matter=fields.get("date"),
            mtime=doc.mtime if self.options.date_from_mtime else None,
        )
        doc_id = self._documents + self._attachments
        t1 = time.perf_counter()
        self._phase["read"] += t1 - t0
        pieces = [] if attachment else cut_passages(body)
        t2 = time.perf_counter()
        self._phase["cut"] += t2 - t1
        first = self._next_passage if pieces else None
        if title is None:
            title = _first_heading(pieces) or relative_of(doc.path).rsplit("/", 1)[-1].rsplit(".", 1)[0]
        rows = []
        count_time = 0.0
        for position, piece in enumerate(pieces):
            text = body[piece.start : piece.end]
            pid = self._next_passage + position
            c0 = time.perf_counter()
            index.add(pid, _tokenize.tokenize(text))
            count_time += time.perf_counter() - c0
            heading = " > ".join(h for h in piece.heading if h) or None
            rows.append((pid, doc_id, position, piece.page, piece.last_page, heading, text))
        self._phase["count_terms"] += count_time
        con.executemany("INSERT INTO passage VALUES(?, ?, ?, ?, ?, ?, ?)", rows)
        con.execute(
            "INSERT INTO document VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                doc_id,
                doc.path,
                title,
                dated.date if dated else None,
                dated.provenance if dated else None,
                direction_of(doc.path),
                1 if attachment else 0,
                first,
                len(pieces),
                doc.size,
            ),
        )
        con.execute(
            "INSERT INTO document_source VALUES(?, ?, ?, ?, ?)",
            (
                doc_id,
                doc.encoding,
                fm.raw,
                json.dumps(record, ensure_ascii=False, default=str) if record else None,
                body if attachment else None,
            ),
        )
        self._next_passage += len(pieces)
        self._bytes_in += doc.size
        if attachment:
            self._attachments += 1
        else:
            self._documents += 1
            if dated:
                self._dates.append(dated.date)
            if self._largest is None or len(pieces) > self._largest[0]:
                self._largest = (len(pieces), doc.path)
        self._phase["write"] += time.perf_counter() - t2 - count_time
        return len(pieces)

    # -- finishing ---------------------------------------------------------------------------

    def _finish(self) -> None:
        con, index = self._con, self._index
        assert con is not None and index is not None
        t0 = time.perf_counter()
        bounds = list(
            con.execute(
                "SELECT first_passage, id FROM document WHERE attachment = 0 AND passages > 0 ORDER BY first_passage"
            )
        )
        con.executemany(
            "INSERT INTO layout(name, data) VALUES(?, ?)",
            [
                ("document_starts", le_bytes(array.array("I", [b[0] for b in bounds]))),
                ("document_ids", le_bytes(array.array("I", [b[1] for b in bounds]))),
            ],
        )
        stats = index.finish(con)
        t1 = time.perf_counter()
        self._phase["index"] = t1 - t0
        created = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        dates = sorted(self._dates)
        meta = {
            "tokenizer": _tokenize.record(),
            "lexical": stats,
            "documents": self._documents,
            "attachments": self._attachments,
            "created": created,
            "quotes": self.options.quotes,
            "dated_range": [dates[0], dates[-1]] if dates else None,
            "dated_documents": [len(dates), self._documents],
        }
        for key, value in meta.items():
            _schema.set_meta(con, key, value)
        con.execute("COMMIT")
        _schema.script(con, "PRAGMA optimize")
        con.close()
        self._con = None
        t2 = time.perf_counter()
        self._phase["write"] += t2 - t1

        warnings = list(self._warnings)
        largest = None
        if self._largest and self._next_passage:
            share = self._largest[0] / self._next_passage
            largest = Contributor(self._largest[1], self._largest[0], share)
            if share > LARGEST_SHARE_WARNING and self._documents > 1:
                warnings.append(
                    f"{largest.path} holds {share:.0%} of all passages; its words will dominate ranking"
                )
        if self._documents == 0:
            warnings.append("no indexed document was packed; searches will find nothing")

        kdf = dataclasses.replace(self.options.kdf, salt=_crypto.new_salt())
        header = {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "package_id": secrets.token_hex(16),
            "created": created,
            "generator": generator(),
            "issuer": self.options.issuer,
            "documents": self._documents,
            "attachments": self._attachments,
            "passages": self._next_passage,
            "dated_range": meta["dated_range"],
            "dated_documents": meta["dated_documents"],
            "quotes": self.options.quotes,
            "features": ["lexical"],
            "tokenizer": {"name": _tokenize.TOKENIZER_NAME, "version": _tokenize.TOKENIZER_VERSION},
            "conversion": self._conversion,
            "kdf": kdf.to_json(),
        }
        master = _crypto.derive_key(self._passphrase, kdf)
        with open(self._seal_path, "wb") as out:
            final = write_package(
                out,
                self._db_path,
                header,
                master,
                self.options.compression,
                block_size=self.options.block_size,
                signing_key=self.options.signing_key,
                workers=self.options.workers,
            )
            out.flush()
            os.fsync(out.fileno())
        os.replace(self._seal_path, self.target)
        _fsync_folder(self._folder)
        t3 = time.perf_counter()
        self.report = PackReport(
            target=str(self.target),
            documents=self._documents,
            attachments=self._attachments,
            passages=self._next_passage,
            skipped=tuple(self._skipped),
            warnings=tuple(warnings),
            largest=largest,
            bytes_in=self._bytes_in,
            bytes_out=self.target.stat().st_size,
            seconds_index=sum(self._phase.values()),
            seconds_seal=t3 - t2,
            seconds_index_by_phase=dict(self._phase),
            dated=len(dates),
            compression=final["compression"],
            signed="signature" in final,
        )


def _first_heading(pieces) -> str | None:
    for piece in pieces:
        if piece.heading and piece.heading[0]:
            return piece.heading[0]
    return None


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def pack(
    source: Path,
    target: Path,
    passphrase: str,
    options: PackOptions | None = None,
    *,
    progress: Callable[[int, str], None] | None = None,
) -> PackReport:
    """Pack a folder of Markdown, one Markdown file or a ``.jsonl`` of records."""
    source, target = Path(source), Path(target)
    options = options or PackOptions()
    sidecar = read_sidecar(options.dates) if options.dates else {}
    if not source.exists():
        raise InputError(f"{source} does not exist")
    with PackageWriter(target, passphrase, options) as writer:
        writer.set_conversion(conversion_summary(source))
        for count, item in enumerate(iter_sources(source), 1):
            if isinstance(item, Skipped):
                writer.skip(item)
                continue
            writer.add(item, sidecar=sidecar.get(relative_of(item.path)))
            if progress:
                progress(count, item.path)
    assert writer.report is not None
    return writer.report
