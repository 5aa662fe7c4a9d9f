"""Rebuilding the collection: every packed file, byte for byte."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ._errors import InputError
from ._paths import relative_of
from ._reader import Package


@dataclass(frozen=True)
class ExportReport:
    target: str
    files: int
    bytes: int

    def to_json(self) -> dict:
        return {"target": self.target, "files": self.files, "bytes": self.bytes}


def _destination(root: Path, portable_path: str) -> Path:
    rel = relative_of(portable_path)  # refuses "..", absolute paths, drives
    dest = root.joinpath(*rel.split("/"))
    resolved = dest.resolve()
    if not resolved.is_relative_to(root):  # a symlink inside the target pointing out
        raise InputError(f"{portable_path} would be written outside {root}; export refused")
    return dest


def export(package: Package, target: str | Path, *, overwrite: bool = False) -> ExportReport:
    """Write every document and attachment of ``package`` under ``target``.

    Refuses before writing anything if a file would land outside ``target`` or
    would replace an existing file (unless ``overwrite``).
    """
    root = Path(target)
    root.mkdir(parents=True, exist_ok=True)
    root = root.resolve()
    infos = list(package.documents())
    plan = [(info, _destination(root, info.path)) for info in infos]
    if not overwrite:
        existing = [str(dest) for _, dest in plan if dest.exists()]
        if existing:
            raise InputError(
                f"{len(existing)} file(s) already exist under {root} (first: {existing[0]}); "
                "export into an empty folder or pass --overwrite"
            )
    written = 0
    for info, dest in plan:
        doc = package.document(info.path)
        data = doc.text.encode(doc.encoding)
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_name(dest.name + ".mdcx-partial")
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, dest)
        written += len(data)
    return ExportReport(str(root), len(plan), written)
