"""What ``pack`` reads: a folder of Markdown, one file, or a ``.jsonl`` of records.

Sources are yielded one document at a time (a ``.jsonl`` is streamed line by
line), so memory never holds more than one document.  Everything that is not
packed is yielded as ``Skipped`` with its reason: nothing disappears silently.
"""

from __future__ import annotations

import codecs
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._errors import InputError
from ._paths import check_relative, portable

MARKDOWN_SUFFIXES = (".md", ".markdown", ".txt")
# Conversion keeps its records (run index, summaries, lossless backups) in this
# folder at the top of its output; pack never packs it, and copies the
# ``summary`` object of ``RUN_INDEX`` into the package header.
CONVERSION_FOLDER = "_mdcx"
RUN_INDEX = "run.json"


@dataclass(frozen=True)
class SourceDocument:
    path: str  # portable path
    text: str
    encoding: str  # re-encoding ``text`` with it gives the original bytes
    size: int  # bytes in the original
    mtime: float | None = None
    record: dict[str, Any] = field(default_factory=dict)  # catalogue fields of a .jsonl record


@dataclass(frozen=True)
class Skipped:
    path: str
    reason: str


def decode(data: bytes) -> tuple[str, str] | None:
    """Text and the encoding that reproduces ``data`` exactly, or None."""
    if data.startswith(codecs.BOM_UTF8):
        candidates = ["utf-8-sig"]
    elif data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        candidates = ["utf-32-le" if data.startswith(codecs.BOM_UTF32_LE) else "utf-32-be"]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        candidates = ["utf-16-le" if data.startswith(codecs.BOM_UTF16_LE) else "utf-16-be"]
    else:
        candidates = ["utf-8"]
    for encoding in candidates:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        try:
            if text.encode(encoding) == data:
                return text, encoding
        except UnicodeEncodeError:
            continue
    return None


def _from_file(path: Path, relative: str) -> SourceDocument | Skipped:
    try:
        name = portable(relative)
    except InputError as exc:
        return Skipped("@/" + relative.encode("utf-8", "replace").decode("utf-8"), str(exc))
    try:
        data = path.read_bytes()
        mtime = path.stat().st_mtime
    except OSError as exc:
        return Skipped(name, f"cannot be read ({exc.strerror or exc})")
    decoded = decode(data)
    if decoded is None:
        return Skipped(
            name, "not UTF-8 (or UTF-16/32 with a byte-order mark) text; convert it with mdcx-convert"
        )
    text, encoding = decoded
    return SourceDocument(name, text, encoding, len(data), mtime)


def _walk(root: Path) -> Iterator[SourceDocument | Skipped]:
    for folder, dirs, files in os.walk(root, followlinks=False):
        here = Path(folder)
        rel_folder = here.relative_to(root).as_posix()
        prefix = "" if rel_folder == "." else rel_folder + "/"
        kept = []
        for d in sorted(dirs):
            if d == CONVERSION_FOLDER:
                if prefix:  # the top-level one is read for its summary (see conversion_summary)
                    yield Skipped(
                        "@/" + prefix + d + "/",
                        "conversion records of a nested conversion output, not packed",
                    )
                continue
            if d.startswith("."):
                yield Skipped("@/" + prefix + d + "/", "hidden folder, not read")
            elif (here / d).is_symlink():
                yield Skipped("@/" + prefix + d + "/", "symbolic link, not followed")
            else:
                kept.append(d)
        dirs[:] = kept
        for f in sorted(files):
            rel = prefix + f
            path = here / f
            if f.startswith("."):
                yield Skipped("@/" + rel, "hidden file, not read")
            elif path.is_symlink():
                yield Skipped("@/" + rel, "symbolic link, not followed")
            elif path.suffix.lower() not in MARKDOWN_SUFFIXES:
                yield Skipped(
                    "@/" + rel,
                    f"not Markdown ({path.suffix or 'no extension'}); convert it first with mdcx-convert",
                )
            else:
                yield _from_file(path, rel)


def _from_jsonl(path: Path) -> Iterator[SourceDocument | Skipped]:
    with open(path, "rb") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            where = f"{path.name}:{number}"
            try:
                record = json.loads(line)
            except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
                yield Skipped(where, "not a JSON object")
                continue
            if not isinstance(record, dict):
                yield Skipped(where, "not a JSON object")
                continue
            text = record.get("text")
            if not isinstance(text, str):
                yield Skipped(where, 'has no "text" string')
                continue
            relative = record.get("path")
            if relative is None and isinstance(record.get("id"), str | int):
                relative = f"{record['id']}.md"
            if not isinstance(relative, str):
                yield Skipped(where, 'has no "path" (or "id")')
                continue
            try:
                name = portable(check_relative(relative))
            except InputError as exc:
                yield Skipped(where, str(exc))
                continue
            try:
                size = len(text.encode("utf-8"))
            except UnicodeEncodeError:
                yield Skipped(where, "its text is not valid Unicode")
                continue
            extra = {k: v for k, v in record.items() if k not in ("text", "path")}
            yield SourceDocument(name, text, "utf-8", size, None, extra)


def iter_sources(source: Path) -> Iterator[SourceDocument | Skipped]:
    """Documents of ``source`` in a stable order, with everything skipped reported."""
    if not source.exists():
        raise InputError(f"{source} does not exist")
    if source.is_dir():
        yield from _walk(source)
    elif source.suffix.lower() == ".jsonl":
        yield from _from_jsonl(source)
    elif source.suffix.lower() in MARKDOWN_SUFFIXES:
        yield _from_file(source, source.name)
    else:
        raise InputError(
            f"{source.name} is neither a folder, a Markdown file nor a .jsonl of records; "
            "convert documents first with mdcx-convert"
        )


def conversion_summary(source: Path) -> dict | None:
    """The summary conversion left in ``_mdcx/run.json``, copied into the header."""
    if not source.is_dir():
        return None
    path = source / CONVERSION_FOLDER / RUN_INDEX
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    summary = data.get("summary") if isinstance(data, dict) else None
    return summary if isinstance(summary, dict) else None
