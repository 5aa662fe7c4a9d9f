"""The output tree: Markdown beside Markdown, records under ``_mdcx/``.

Every file is written to a temporary name and renamed into place, and each
finished unit is appended to a journal (``_mdcx/progress.jsonl``) and flushed
at once, so a run that is killed loses at most the unit in hand and the next
run resumes from the journal.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path
from typing import Any

from mdcx.format import CONVERSION_FOLDER, RUN_INDEX

from ._engine import UnitResult
from ._plan import display

JOURNAL = "progress.jsonl"
SUMMARY = "summary.md"
LOSSLESS = "lossless"


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n", errors="backslashreplace") as fh:
            fh.write(text)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def unit_record(result: UnitResult) -> dict[str, Any]:
    u = result.unit
    return {
        "source": u.source,
        "output": display(u.output),
        "digest": u.digest,
        "format": u.format,
        "pages": list(u.pages) if u.pages else None,
        "chapter": u.chapter,
        "status": result.status,
        "reason": result.reason,
        "verification": result.verification if result.status == "converted" else None,
        "coverage": result.coverage,
        "reference_words": result.reference_words,
        "found_words": result.found_words,
        "appended_words": result.appended_words,
        "lost": [list(x) for x in result.lost],
        "findings": list(result.findings),
        "engines": list(result.engines),
        "page_count": result.pages,
        "ocr_pages": result.ocr_pages,
        "ocr_seconds": round(result.ocr_seconds, 3),
        "seconds": round(result.seconds, 3),
        "title": result.title,
        "catalogue": dict(u.catalogue) if u.catalogue else None,
    }


class OutputTree:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.records = root / CONVERSION_FOLDER
        self.journal_path = self.records / JOURNAL

    def md_path(self, relative: str) -> Path:
        return self.root / relative

    def previous(self) -> dict[str, dict[str, Any]]:
        """Unit records of earlier runs by output path: the run index, then the journal."""
        found: dict[str, dict[str, Any]] = {}
        try:
            index = json.loads((self.records / RUN_INDEX).read_text(encoding="utf-8"))
            for rec in index.get("units", []):
                if isinstance(rec, dict) and isinstance(rec.get("output"), str):
                    found[rec["output"]] = rec
        except (OSError, ValueError, AttributeError):
            pass
        try:
            with open(self.journal_path, encoding="utf-8", errors="replace") as fh:
                for line in fh:
                    try:
                        rec = json.loads(line)
                    except ValueError:
                        continue  # a line cut by a crash
                    if isinstance(rec, dict) and isinstance(rec.get("output"), str):
                        found[rec["output"]] = rec
        except OSError:
            pass
        return found

    def write_unit(self, result: UnitResult) -> dict[str, Any]:
        """Write a finished unit and journal it; returns its record."""
        record = unit_record(result)
        if result.status == "converted":
            write_atomic(self.md_path(result.unit.output), result.markdown)
            if result.lossless is not None:
                target = self.records / LOSSLESS / (result.unit.output[:-3] + ".json")
                write_atomic(target, json.dumps(result.lossless, ensure_ascii=False, indent=1))
        self.journal(record)
        return record

    def journal(self, record: dict[str, Any]) -> None:
        self.records.mkdir(parents=True, exist_ok=True)
        with open(self.journal_path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    def write_index(self, index: dict[str, Any], summary: str) -> None:
        write_atomic(self.records / RUN_INDEX, json.dumps(index, ensure_ascii=False, indent=1))
        write_atomic(self.records / SUMMARY, summary)
        try:
            self.journal_path.unlink()
        except FileNotFoundError:
            pass


def as_dict(obj: Any) -> Any:
    return asdict(obj)
