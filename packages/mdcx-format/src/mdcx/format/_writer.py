"""Writing a package: documents in, one sealed file out, atomically.

The plaintext database is built in a temporary file beside the target (the
only place plaintext of the index ever touches a disk), documents one at a
time, then sealed block by block into a second temporary that replaces the
target in one rename (``_sealing``).  Both temporaries are removed on every
path out, including errors and Ctrl-C; a process killed outright leaves its
temporaries (never a half-written target), and the next write into that
folder removes them.
"""

from __future__ import annotations

import array
import datetime as _dt
import json
import random
import time
from collections.abc import Callable
from pathlib import Path

import apsw

from . import _crypto, _language, _schema, _tokenize
from ._calibration import Calibration, from_focus, from_passages
from ._dates import Dated, date_of, read_sidecar
from ._errors import InputError, MdcxError
from ._expressions import expressions
from ._frontmatter import split_front_matter
from ._header import FORMAT_NAME, FORMAT_VERSION
from ._index import IndexBuilder, le_bytes
from ._inputs import Skipped, SourceDocument, conversion_summary, iter_sources
from ._pack_options import PackOptions
from ._passages import cut_passages
from ._paths import direction_of, relative_of
from ._report import Contributor, PackReport
from ._sealing import refuse_to_replace, remove_stale_temporaries, seal, temporary
from ._version import generator

LARGEST_SHARE_WARNING = 1 / 3
LANGUAGE_SAMPLES = 1500
DIRECTIONS = {None: 0, "received": 1, "sent": 2}


class BuildView:
    """The little of a ``Package`` an engine needs, over a plaintext database being built."""

    def __init__(self, con: apsw.Connection, name: str) -> None:
        self.con = con
        self.name = name
        self.meta = _schema.read_meta(con)
        self.tables = _schema.tables(con)

    def execute(self, sql: str, params: tuple | list = ()) -> list[tuple]:
        return list(self.con.execute(sql, params))


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
        refuse_to_replace(self.target)
        self._folder = folder
        self._db_path = temporary(folder, self.target, "db")
        self._spill_path = temporary(folder, self.target, "spill")
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
        self._samples: list[tuple[str, list[str], int]] = []
        self._sampler = random.Random(0)
        self.report: PackReport | None = None
        self._reuse = None  # the --reuse package, opened when encoding
        self.encode_progress: Callable[[int, int], None] | None = None  # (done, total) while encoding

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
            self._index = IndexBuilder(self._spill_path, self.options.prefix_letters)
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
        if self._reuse is not None:
            self._reuse.close()
            self._reuse = None
        if self._index is not None:
            self._index.close()
        if self._con is not None:
            try:
                self._con.close()
            except apsw.Error:
                pass
            self._con = None
        for path in (self._db_path, self._spill_path):
            try:
                path.unlink()
            except OSError:
                pass

    # -- adding ------------------------------------------------------------------------------

    def skip(self, skipped: Skipped) -> None:
        self._skipped.append(skipped)

    def set_conversion(self, summary: dict | None) -> None:
        self._conversion = summary

    def _sample(self, pid: int, text: str, terms: list[str], doc_id: int) -> None:
        """Reservoir sample of passages, for the corpus language and calibration."""
        sample = (text[:3000], terms[:600], doc_id)
        if len(self._samples) < LANGUAGE_SAMPLES:
            self._samples.append(sample)
        else:
            slot = self._sampler.randrange(pid + 1)
            if slot < LANGUAGE_SAMPLES:
                self._samples[slot] = sample

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
        dated = date_of(record, fields, sidecar, doc.mtime if self.options.date_from_mtime else None)
        doc_id = self._documents + self._attachments
        t1 = time.perf_counter()
        self._phase["read"] += t1 - t0
        pieces = [] if attachment else cut_passages(body)
        t2 = time.perf_counter()
        self._phase["cut"] += t2 - t1
        first = self._next_passage if pieces else None
        if title is None:
            title = _first_heading(pieces) or relative_of(doc.path).rsplit("/", 1)[-1].rsplit(".", 1)[0]
        rows, found = [], []
        count_time = 0.0
        for position, piece in enumerate(pieces):
            text = body[piece.start : piece.end]
            pid = self._next_passage + position
            c0 = time.perf_counter()
            terms = _tokenize.tokenize(text)
            index.add(pid, terms)
            if self.options.expressions:
                found.extend((expr, pid) for expr in expressions(text))
            count_time += time.perf_counter() - c0
            self._sample(pid, text, terms, doc_id)
            heading = " > ".join(h for h in piece.heading if h) or None
            rows.append((pid, doc_id, position, piece.page, piece.last_page, heading, text))
        self._phase["count_terms"] += count_time
        con.executemany("INSERT INTO passage VALUES(?, ?, ?, ?, ?, ?, ?)", rows)
        if found:
            con.executemany("INSERT OR IGNORE INTO expression(expr, passage) VALUES(?, ?)", found)
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

    def _layout(self, con: apsw.Connection) -> None:
        """Arrays a reader loads whole: document boundaries and directions."""
        bounds = list(
            con.execute(
                "SELECT first_passage, id FROM document"
                " WHERE attachment = 0 AND passages > 0 ORDER BY first_passage"
            )
        )
        directions = bytearray(self._documents + self._attachments)
        for doc_id, direction in con.execute(
            "SELECT id, direction FROM document WHERE direction IS NOT NULL"
        ):
            directions[doc_id] = DIRECTIONS[direction]
        con.executemany(
            "INSERT INTO layout(name, data) VALUES(?, ?)",
            [
                ("document_starts", le_bytes(array.array("I", [b[0] for b in bounds]))),
                ("document_ids", le_bytes(array.array("I", [b[1] for b in bounds]))),
                ("document_directions", bytes(directions)),
            ],
        )

    def _finish(self) -> None:
        con, index = self._con, self._index
        assert con is not None and index is not None
        t0 = time.perf_counter()
        self._layout(con)
        stats = index.finish(con)
        features = ["lexical"]
        if self.options.expressions:
            _schema.script(con, _schema.EXPRESSION_INDEX)
            _schema.set_meta(con, "expression_version", 1)
            features.append("expressions")
        t1 = time.perf_counter()
        self._phase["index"] = t1 - t0
        encoded = None
        if self.options.multilingual:
            encoded = self._encode(con)
            features.append("vectors")
            self._phase["encode"] = time.perf_counter() - t1
            t1 = time.perf_counter()
        if self.options.shapes:
            from ._shapes import build_shape_index

            build_shape_index(con)
            features.append("shapes")
            self._phase["shapes"] = time.perf_counter() - t1
        created = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        dates = sorted(self._dates)
        language, languages = _language.predominant((text, terms) for text, terms, _doc in self._samples)
        meta = {
            "tokenizer": _tokenize.record(),
            "lexical": stats,
            "documents": self._documents,
            "attachments": self._attachments,
            "created": created,
            "quotes": self.options.quotes,
            "dated_range": [dates[0], dates[-1]] if dates else None,
            "dated_documents": [len(dates), self._documents],
            "language": {
                "code": language.code,
                "name": language.name,
                "share": language.share,
                "all": languages,
            },
            "features": features,
        }
        for key, value in meta.items():
            _schema.set_meta(con, key, value)
        if encoded is not None:
            _schema.set_meta(con, "embedding", encoded.meta)
        t2 = time.perf_counter()
        calibration = self._calibrate(con)
        calibration_json = calibration.to_json()
        if encoded is not None:
            calibration_json["semantic"] = {
                "answerable_at": _rounded(encoded.semantic_answerable_at),
                "source": calibration.source,
                "measured": [round(m, 4) for m in encoded.measured],
            }
        _schema.set_meta(con, "calibration", calibration_json)
        self._phase["calibrate"] = time.perf_counter() - t2
        t3 = time.perf_counter()
        con.execute("COMMIT")
        _schema.script(con, "PRAGMA optimize")
        con.close()
        self._con = None
        self._phase["write"] += time.perf_counter() - t3
        t3 = time.perf_counter()

        header = {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "package_id": _crypto.new_salt().hex(),
            "created": created,
            "generator": generator(),
            "issuer": self.options.issuer,
            "documents": self._documents,
            "attachments": self._attachments,
            "passages": self._next_passage,
            "language": language.code,
            "language_share": language.share,
            "dated_range": meta["dated_range"],
            "dated_documents": meta["dated_documents"],
            "quotes": self.options.quotes,
            "features": features,
            "tokenizer": {"name": _tokenize.TOKENIZER_NAME, "version": _tokenize.TOKENIZER_VERSION},
            "calibration": {
                "answerable_at": calibration.answerable_at,
                "source": calibration.source,
                **({"similarity_at": _rounded(encoded.semantic_answerable_at)} if encoded else {}),
            },
            "embedding": None
            if encoded is None
            else {"model": encoded.meta["model"], "dimension": encoded.meta["dimension"]},
            "conversion": self._conversion,
        }
        final = seal(
            self._db_path,
            self.target,
            self._passphrase,
            header,
            compression=self.options.compression,
            kdf=self.options.kdf,
            block_size=self.options.block_size,
            signing_key=self.options.signing_key,
            workers=self.options.workers,
        )
        t4 = time.perf_counter()
        self.report = PackReport(
            target=str(self.target),
            documents=self._documents,
            attachments=self._attachments,
            passages=self._next_passage,
            skipped=tuple(self._skipped),
            warnings=tuple(self._final_warnings()),
            largest=self._largest_contributor(),
            bytes_in=self._bytes_in,
            bytes_out=self.target.stat().st_size,
            seconds_index=sum(self._phase.values()),
            seconds_seal=t4 - t3,
            seconds_index_by_phase=dict(self._phase),
            dated=len(dates),
            compression=final["compression"],
            signed="signature" in final,
            language=language.code,
            answerable_at=calibration.answerable_at,
            calibrated_from=calibration.source,
            encoding=None if encoded is None else encoded.report,
        )

    def _focus(self) -> tuple[str, ...]:
        """The --focus questions, or those the reused package was calibrated from (inherited)."""
        if self.options.focus or self._reuse is None:
            return self.options.focus
        inherited = (self._reuse.meta.get("calibration") or {}).get("focus") or ()
        if inherited:
            self._warnings.append(
                f"calibration inherited from {self._reuse.name}: {len(inherited)} focus question(s)"
            )
        return tuple(inherited)

    def _calibrate(self, con: apsw.Connection) -> Calibration:
        from ._lexical import Lexicon

        engine = Lexicon(BuildView(con, self.target.name))
        focus = self._focus()
        if focus:
            return from_focus(engine, focus)
        return from_passages(engine, [(doc, tokens) for _text, tokens, doc in self._samples])

    def _encode(self, con: apsw.Connection):
        from ._reader import Package
        from ._semantic import encode

        if self.options.reuse is not None and self._reuse is None:
            self._reuse = Package(self.options.reuse, self._passphrase)
        result = encode(
            con,
            lambda: BuildView(con, self.target.name),
            model=self.options.model,
            reuse=self._reuse,
            samples=[(text, doc) for text, _terms, doc in self._samples],
            focus=self._focus(),
            progress=self.encode_progress,
        )
        if result.report.get("reuse_note"):
            self._warnings.append(result.report["reuse_note"])
        return result

    def _largest_contributor(self) -> Contributor | None:
        if not self._largest or not self._next_passage:
            return None
        return Contributor(self._largest[1], self._largest[0], self._largest[0] / self._next_passage)

    def _final_warnings(self) -> list[str]:
        warnings = list(self._warnings)
        largest = self._largest_contributor()
        if largest and largest.share > LARGEST_SHARE_WARNING and self._documents > 1:
            warnings.append(
                f"{largest.path} holds {largest.share:.0%} of all passages; its words will dominate ranking"
            )
        if self._documents == 0:
            warnings.append("no indexed document was packed; searches will find nothing")
        return warnings


def _first_heading(pieces) -> str | None:
    for piece in pieces:
        if piece.heading and piece.heading[0]:
            return piece.heading[0]
    return None


def pack(
    source: Path,
    target: Path,
    passphrase: str,
    options: PackOptions | None = None,
    *,
    progress: Callable[[int, str], None] | None = None,
    encode_progress: Callable[[int, int], None] | None = None,
) -> PackReport:
    """Pack a folder of Markdown, one Markdown file or a ``.jsonl`` of records."""
    source, target = Path(source), Path(target)
    options = options or PackOptions()
    sidecar = read_sidecar(options.dates) if options.dates else {}
    if not source.exists():
        raise InputError(f"{source} does not exist")
    with PackageWriter(target, passphrase, options) as writer:
        writer.set_conversion(conversion_summary(source))
        writer.encode_progress = encode_progress
        for count, item in enumerate(iter_sources(source), 1):
            if isinstance(item, Skipped):
                writer.skip(item)
                continue
            writer.add(item, sidecar=sidecar.get(relative_of(item.path)))
            if progress:
                progress(count, item.path)
    assert writer.report is not None
    return writer.report


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)
