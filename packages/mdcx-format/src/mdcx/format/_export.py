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


def _check_way(root: Path, dest: Path) -> None:
    """Refuse a file whose place is a folder, or whose folder is a file, under ``root``."""
    if dest.is_dir():
        raise InputError(f"{dest} is a folder where export would write a file; export into an empty folder")
    for folder in dest.parents:
        if folder == root:
            return
        if folder.exists() and not folder.is_dir():
            raise InputError(f"{folder} is a file where export needs a folder; export into an empty folder")


def export(package: Package, target: str | Path, *, overwrite: bool = False) -> ExportReport:
    """Write every document and attachment of ``package`` under ``target``.

    Refuses before writing anything if a file would land outside ``target`` or
    would replace an existing file (unless ``overwrite``).
    """
    root = Path(target)
    if root.exists() and not root.is_dir():
        raise InputError(f"{root} is a file; give a folder to export into")
    root.mkdir(parents=True, exist_ok=True)
    root = root.resolve()
    infos = list(package.documents())
    plan = [(info, _destination(root, info.path)) for info in infos]
    for _, dest in plan:  # not even --overwrite puts a file where a folder is, or the reverse
        _check_way(root, dest)
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
        try:
            with open(tmp, "wb") as fh:
                fh.write(data)
            os.replace(tmp, dest)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        written += len(data)
    return ExportReport(str(root), len(plan), written)
