"""What a run will do: every input file found, detected, digested, and cut into units.

A unit is what a worker converts and what resume reuses: a whole document,
or one chapter of a long PDF.  Output paths mirror the input tree; two
sources that would write the same Markdown file (``a.pdf`` and ``a.docx``)
keep their full names (``a.pdf.md``).  Documents fetched from a catalogue
(``convert_source``) carry the candidate's record, which also gives them
their title and date.
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from mdcx.format import CONVERSION_FOLDER

from ._detect import detect
from ._errors import ConversionError, DocumentError
from ._options import ConvertOptions


def display(name: str) -> str:
    """A path as text any console and JSON can hold (undecodable bytes escaped)."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


# A catalogue candidate's record as (field, value) pairs, so a unit stays hashable and picklable.
Record = tuple[tuple[str, str | None], ...]


@dataclass(frozen=True)
class Unit:
    source: str  # relative path of the source (display form)
    path: str  # the source on disk
    format: str
    encoding: str | None
    digest: str
    output: str  # relative path of the Markdown file this unit writes
    pages: tuple[int, ...] | None = None  # PDF pages to convert (document numbering)
    total_pages: int | None = None
    chapter: int | None = None
    chapters: int | None = None
    chapter_title: str | None = None
    sampled: bool = False
    title: str | None = None  # document metadata, known from planning
    date: str | None = None
    catalogue: Record | None = None  # the candidate's record, for documents fetched from a source


@dataclass(frozen=True)
class Document:
    source: str
    path: str
    format: str
    digest: str
    output: str  # the document's Markdown file (the index document when split)
    units: tuple[Unit, ...]
    total_pages: int | None = None
    title: str | None = None
    date: str | None = None

    @property
    def split(self) -> bool:
        return len(self.units) > 1 or (bool(self.units) and self.units[0].chapter is not None)


@dataclass(frozen=True)
class Skip:
    source: str
    reason: str
    format: str | None = None  # set when the format is supported but the file could not be read
    digest: str | None = None
    catalogue: Record | None = None
    unfetched: bool = False  # a catalogue candidate whose bytes could not be had

    @property
    def failed(self) -> bool:
        """A document that could not be converted (not merely skipped): of a supported format, or never fetched."""
        return self.format is not None or self.unfetched


def digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return "sha256:" + h.hexdigest()


def walk(root: Path, exclude: Path | None) -> Iterator[tuple[str, Path] | Skip]:
    """Files under ``root`` in a stable order; hidden ones and links are reported, not read."""
    if root.is_file():
        yield root.name, root
        return
    excluded = exclude.resolve() if exclude is not None and exclude.exists() else None
    for folder, dirs, files in os.walk(root, followlinks=False):
        here = Path(folder)
        rel = here.relative_to(root).as_posix()
        prefix = "" if rel == "." else rel + "/"
        kept = []
        for d in sorted(dirs):
            full = here / d
            if excluded is not None and full.resolve() == excluded:
                continue
            if d.startswith("."):
                yield Skip(display(prefix + d + "/"), "hidden folder, not read")
            elif full.is_symlink():
                yield Skip(display(prefix + d + "/"), "symbolic link, not followed")
            else:
                kept.append(d)
        dirs[:] = kept
        for f in sorted(files):
            full = here / f
            if f.startswith("."):
                yield Skip(display(prefix + f), "hidden file, not read")
            elif full.is_symlink():
                yield Skip(display(prefix + f), "symbolic link, not followed")
            else:
                yield prefix + f, full


def sample(total: int, n: int) -> tuple[int, ...]:
    """``n`` page numbers spread evenly over 1..total, first and last included."""
    if n >= total:
        return tuple(range(1, total + 1))
    if n <= 1:
        return (1,)
    return tuple(sorted({round(1 + i * (total - 1) / (n - 1)) for i in range(n)}))


def chapters(
    total: int, outline: tuple[tuple[str, int], ...], size: int
) -> list[tuple[str | None, int, int]]:
    """Page ranges of a long document: its outline's top-level entries where it has one,
    each no longer than ``size`` pages; fixed ranges of ``size`` pages otherwise."""
    starts = sorted({(page, title) for title, page in outline if 1 <= page <= total}, key=lambda x: x[0])
    ranges: list[tuple[str | None, int, int]] = []
    if len(starts) >= 2:
        if starts[0][0] > 1:
            starts.insert(0, (1, None))
        bounds = [p for p, _ in starts] + [total + 1]
        for (first, title), nxt in zip(starts, bounds[1:]):
            if nxt > first:
                ranges.append((title, first, nxt - 1))
    else:
        ranges = [(None, 1, total)]
    out: list[tuple[str | None, int, int]] = []
    for title, first, last in ranges:
        for start in range(first, last + 1, size):
            out.append((title, start, min(start + size - 1, last)))
    return out


def _output_name(rel: str, taken: set[str]) -> str:
    p = PurePosixPath(rel)
    name = str(p.with_suffix(".md")) if p.suffix else rel + ".md"
    if name in taken:
        name = rel + ".md"
    n = 2
    base = name[:-3]
    while name in taken:
        name = f"{base}-{n}.md"
        n += 1
    taken.add(name)
    return name


def plan(
    root: Path, output: Path, options: ConvertOptions, catalogue: Mapping[str, Record] | None = None
) -> tuple[list[Document], list[Skip]]:
    """The documents of ``root`` as units of work, and every file skipped with its reason.

    With ``catalogue`` (relative path -> candidate record) only those files
    are planned, each carrying its record.
    """
    if not root.exists():
        raise ConversionError(f"input {display(str(root))} does not exist")
    documents: list[Document] = []
    skipped: list[Skip] = []
    taken: set[str] = set()
    count = 0
    for item in walk(root, output):
        if isinstance(item, Skip):
            if catalogue is None:  # a source's folder holds only what was fetched, and temporaries
                skipped.append(item)
            continue
        rel, path = item
        if catalogue is not None and rel not in catalogue:
            continue  # fetched by an earlier run, no longer offered by the catalogue
        if options.only and not (
            fnmatch.fnmatch(rel, options.only) or fnmatch.fnmatch(path.name, options.only)
        ):
            continue
        if rel.split("/", 1)[0] == CONVERSION_FOLDER:
            continue
        if options.limit is not None and count >= options.limit:
            break
        planned = plan_file(rel, path, options, taken, catalogue.get(rel) if catalogue else None)
        if isinstance(planned, Skip):
            skipped.append(planned)
            if planned.failed:
                count += 1
        else:
            documents.append(planned)
            count += 1
    return documents, skipped


def plan_file(
    rel: str, path: Path, options: ConvertOptions, taken: set[str], record: Record | None = None
) -> Document | Skip:
    """One file as a document of units, or the reason it is skipped."""
    from ._pdf import describe

    shown = display(rel)
    found = detect(path)
    if found.format is None:
        return Skip(shown, found.reason or "unknown format", catalogue=record)
    try:
        sha = digest(path)
    except OSError as exc:
        return Skip(shown, f"cannot be read ({exc.strerror or exc})", found.format, catalogue=record)
    out = _output_name(rel, taken)
    base = dict(source=shown, path=str(path), format=found.format, encoding=found.encoding, digest=sha)
    # The catalogue's title and date are the record's; the file's own metadata only fills gaps.
    fields = dict(record or ())
    title, date = fields.get("title"), fields.get("date")
    if found.format != "pdf":
        unit = Unit(output=out, title=title, date=date, catalogue=record, **base)
        return Document(shown, str(path), found.format, sha, out, (unit,), title=title, date=date)
    try:
        info = describe(path)
    except DocumentError as exc:
        return Skip(shown, str(exc), "pdf", sha, catalogue=record)
    except Exception as exc:  # pdfium refusing a hostile file in a way it does not name
        return Skip(shown, f"unreadable PDF ({type(exc).__name__}: {exc})", "pdf", sha, catalogue=record)
    title, date = title or info.title, date or info.date
    meta = dict(total_pages=info.pages, title=title, date=date, catalogue=record)
    doc = dict(total_pages=info.pages, title=title, date=date)
    if options.sample_pages:
        pages = sample(info.pages, options.sample_pages)
        unit = Unit(output=out, pages=pages, sampled=True, **base, **meta)
        return Document(shown, str(path), "pdf", sha, out, (unit,), **doc)
    if options.split and info.pages > options.split_threshold:
        ranges = chapters(info.pages, info.outline, options.split_threshold)
        folder = out[:-3]
        units = tuple(
            Unit(
                output=f"{folder}/{k:03d}-pages-{first}-{last}.md",
                pages=tuple(range(first, last + 1)),
                chapter=k,
                chapters=len(ranges),
                chapter_title=title,
                **base,
                **meta,
            )
            for k, (title, first, last) in enumerate(ranges, 1)
        )
        return Document(shown, str(path), "pdf", sha, out, units, **doc)
    unit = Unit(output=out, pages=tuple(range(1, info.pages + 1)), **base, **meta)
    return Document(shown, str(path), "pdf", sha, out, (unit,), **doc)
