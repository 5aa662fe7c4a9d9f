"""Documents from a catalogue plugin: fetched by the plugin, converted like files.

mdcx-convert opens no connection.  ``convert_source`` loads the source
plugin (mdcx-sources), walks its candidates, has the plugin fetch each
one's bytes (through ``patiently``, so a plugin that raises ``RateLimited``
is waited for), names the bytes by what the kit identifies them to be, and
keeps them under ``OUTPUT/_mdcx/sources/NAME/``: a second run converts
without fetching again and resumes like a run over files.  The files are
then planned and converted like any others, each carrying its candidate's
record (identifier, title, date, download, host) into its front matter and
the run's records.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from itertools import islice
from pathlib import Path, PurePosixPath
from typing import Any

from mdcx.format import CONVERSION_FOLDER
from mdcx.sources import Source, SourceError, identify, load, patiently

from ._errors import ConversionError
from ._options import ConvertOptions
from ._plan import Record, Skip, plan
from ._run import Progress, ProgressCallback, Run, RunReport, execute

SOURCES = "sources"  # under CONVERSION_FOLDER: the fetched originals, one folder per source
FETCHED = ".fetched.jsonl"  # beside each folder: identifier -> file, appended as each is fetched

_SUFFIXES = {"jpeg": ".jpg", "tiff": ".tif", "gzip": ".gz", "ole2": ".ole"}
_TEXT_SUFFIXES = (".txt", ".text", ".md", ".markdown", ".csv", ".tsv", ".htm", ".html", ".xhtml")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _suffix(data: bytes, download: str | None) -> str:
    """A file suffix for the bytes: from their signature; for text (no signature), from the download's name."""
    kind = identify(data)
    if kind is not None:
        return _SUFFIXES.get(kind, "." + kind)
    name = PurePosixPath((download or "").split("?", 1)[0].split("#", 1)[0]).suffix.lower()
    return name if name in _TEXT_SUFFIXES else ".txt"


def staged_stem(identifier: str) -> str:
    """A file name stem for an identifier: itself where it is a safe name, else a safe form plus a digest."""
    safe = _UNSAFE.sub("_", identifier).strip("._")[:80] or "candidate"
    if safe == identifier:
        return safe
    return f"{safe}-{hashlib.sha256(identifier.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"


def _record(name: str, candidate: Any) -> Record:
    # Lenient on purpose: a candidate missing a field is still converted; `--check` is where it is told off.
    fields = ("identifier", "title", "date", "download", "host")
    values = ((f, getattr(candidate, f, None)) for f in fields)
    return (("source", name), *((f, None if v is None else str(v)) for f, v in values))


def _load(source: str | Source) -> tuple[str, Source]:
    if not isinstance(source, str):
        return getattr(source, "name", None) or type(source).__name__, source
    try:
        return source, load(source)
    except SourceError as exc:
        raise ConversionError(str(exc)) from exc


class Fetcher:
    """Fetches a source's candidates into its folder and remembers which file holds which."""

    def __init__(self, name: str, source: Source, folder: Path, options: ConvertOptions, run: Run) -> None:
        self.name, self.source, self.folder, self.options, self.run = name, source, folder, options, run
        self.journal = folder.with_name(folder.name + FETCHED)
        self.files = self._previous()
        self.catalogue: dict[str, Record] = {}
        self.skipped: list[Skip] = []

    def _previous(self) -> dict[str, str]:
        files: dict[str, str] = {}
        try:
            with open(self.journal, encoding="utf-8") as fh:
                for line in fh:
                    try:
                        entry = json.loads(line)
                        files[entry["identifier"]] = entry["file"]
                    except (ValueError, KeyError, TypeError):
                        continue  # a line cut by a crash
        except OSError:
            pass
        return files

    def _keep(self, identifier: str, data: bytes, download: str | None) -> str:
        name = staged_stem(identifier) + _suffix(data, download)
        old = self.files.get(identifier)
        if old and old != name:
            (self.folder / old).unlink(missing_ok=True)  # the catalogue now serves another kind
        tmp = self.folder / f".{name}.{os.getpid()}.tmp"
        try:
            tmp.write_bytes(data)
            os.replace(tmp, self.folder / name)
        finally:
            tmp.unlink(missing_ok=True)
        with open(self.journal, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"identifier": identifier, "file": name}, ensure_ascii=False) + "\n")
            fh.flush()
        self.files[identifier] = name
        return name

    def _fetch(self, candidate: Any) -> bytes:
        try:
            data = patiently(lambda: self.source.fetch(candidate))
        except SourceError as exc:
            raise _Unfetched(str(exc)) from exc
        except Exception as exc:  # a plugin bug: recorded against this candidate, the run goes on
            raise _Unfetched(f"the source plugin failed ({type(exc).__name__}: {exc})") from exc
        if not isinstance(data, bytes | bytearray | memoryview):
            raise _Unfetched(f"the source plugin returned {type(data).__name__}, not bytes")
        return bytes(data)

    def fetch_all(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        seen: set[str] = set()
        done = 0
        try:
            for candidate in islice(iter(self.source.candidates()), self.options.limit):
                done += 1
                identifier = getattr(candidate, "identifier", None)
                if not isinstance(identifier, str) or not identifier.strip():
                    self.skipped.append(Skip(f"candidate {done}", "has no identifier", unfetched=True))
                    continue
                if identifier in seen:
                    self.skipped.append(Skip(identifier, "the catalogue offered this identifier twice"))
                    continue
                seen.add(identifier)
                self._one(candidate, identifier, _record(self.name, candidate), done)
        except Exception as exc:  # the catalogue stopped listing (or its plugin failed): convert what came
            self.run.notice(
                f"source {self.name}: listing candidates stopped after {done} ({type(exc).__name__}: {exc})"
            )

    def _one(self, candidate: Any, identifier: str, record: Record, done: int) -> None:
        known = self.files.get(identifier)
        if known and not self.options.force and (self.folder / known).is_file():
            self.catalogue[known] = record
            self.run.emit(Progress("fetch", "already fetched", done, 0, identifier, "reused"))
            return
        try:
            data = self._fetch(candidate)
        except _Unfetched as exc:
            self.skipped.append(Skip(identifier, f"not fetched: {exc}", catalogue=record, unfetched=True))
            self.run.emit(Progress("fetch", str(exc), done, 0, identifier, "failed"))
            return
        name = self._keep(identifier, data, dict(record)["download"])
        self.catalogue[name] = record
        self.run.emit(Progress("fetch", f"{len(data):,} bytes", done, 0, identifier, "fetched"))


class _Unfetched(Exception):
    """Internal: why one candidate's bytes could not be had."""


def convert_source(
    source: str | Source,
    output: str | Path,
    options: ConvertOptions | None = None,
    progress: ProgressCallback | None = None,
) -> RunReport:
    """Convert the documents a catalogue plugin offers into Markdown under ``output``.

    ``source`` is the name of an installed plugin (entry-point group
    ``mdcx.sources``) or a source object.  The plugin fetches; this converts
    what it fetched like files (``options.limit`` caps the candidates taken,
    ``options.force`` fetches again what an earlier run kept).  Returns the
    run's report; never prints.
    """
    options = options or ConvertOptions()
    target = Path(output)
    if target.exists() and not target.is_dir():
        raise ConversionError(f"output {target} exists and is not a folder")
    name, plugin = _load(source)
    folder = target / CONVERSION_FOLDER / SOURCES / staged_stem(name)
    run = Run(folder, target, options, progress, origin=name)
    _, accel = run.start_checks()
    fetcher = Fetcher(name, plugin, folder, options, run)
    fetcher.fetch_all()
    documents, skipped = plan(folder, target, options, fetcher.catalogue)
    run.documents, run.skipped = documents, fetcher.skipped + skipped
    return execute(run, accel)
