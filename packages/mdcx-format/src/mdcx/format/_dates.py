"""Dates of works, with where each came from.

Provenance, strongest first: ``source`` (a catalogue record), ``sidecar``
(``--dates FILE``), ``front-matter``, ``mtime`` (only when asked for).  Years
printed in documents (copyright lines) are never read: a reprint carries the
year it was printed, not the year of the work.  No trustworthy date, no date.
"""

from __future__ import annotations

import csv
import datetime as _dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._errors import InputError
from ._paths import check_relative

PROVENANCES = ("source", "sidecar", "front-matter", "mtime")
_DATE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(?:[T ].*)?$")


@dataclass(frozen=True)
class Dated:
    date: str  # ISO 8601: YYYY, YYYY-MM or YYYY-MM-DD
    provenance: str


def normalise_date(value: object) -> str | None:
    """An ISO date (year, month or day precision) or None when it is not a date."""
    if isinstance(value, _dt.datetime | _dt.date):
        return value.isoformat()[:10]
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 9999:
        return f"{value:04d}"
    if not isinstance(value, str):
        return None
    m = _DATE.match(value.strip())
    if not m:
        return None
    year, month, day = m.groups()
    try:
        if day:
            return _dt.date(int(year), int(month), int(day)).isoformat()
        if month:
            if not 1 <= int(month) <= 12:
                return None
            return f"{year}-{month}"
    except ValueError:
        return None
    return year


def read_sidecar(path: Path) -> dict[str, Dated]:
    """Rows ``path,date[,provenance]``; paths relative to the collection (``@/`` allowed)."""
    dates: dict[str, Dated] = {}
    try:
        with open(path, newline="", encoding="utf-8-sig") as fh:
            for number, row in enumerate(csv.reader(fh), 1):
                if not row or not "".join(row).strip() or row[0].lstrip().startswith("#"):
                    continue
                if number == 1 and row[0].strip().lower() == "path":
                    continue
                if len(row) < 2:
                    raise InputError(f"{path.name} line {number}: expected path,date[,provenance]")
                rel = check_relative(row[0].strip())
                date = normalise_date(row[1])
                if date is None:
                    raise InputError(f"{path.name} line {number}: {row[1]!r} is not a date (YYYY[-MM[-DD]])")
                provenance = row[2].strip() if len(row) > 2 and row[2].strip() else "sidecar"
                dates[rel] = Dated(date, provenance)
    except FileNotFoundError:
        raise InputError(f"the dates file {path} does not exist") from None
    except IsADirectoryError:
        raise InputError(f"the dates file {path} is a folder; give a CSV file of path,date rows") from None
    except PermissionError:
        raise InputError(f"the dates file {path} cannot be read (permission denied)") from None
    except (UnicodeDecodeError, csv.Error) as exc:
        raise InputError(f"the dates file {path.name} cannot be read as UTF-8 CSV ({exc})") from None
    return dates


def choose(
    *,
    source: object = None,
    source_provenance: str = "source",
    sidecar: Dated | None = None,
    front_matter: object = None,
    mtime: float | None = None,
) -> Dated | None:
    date = normalise_date(source)
    if date:
        return Dated(date, source_provenance)
    if sidecar:
        return sidecar
    date = normalise_date(front_matter)
    if date:
        return Dated(date, "front-matter")
    if mtime is not None:
        stamp = _dt.datetime.fromtimestamp(mtime, _dt.UTC).date().isoformat()
        return Dated(stamp, "mtime")
    return None


def date_of(
    record: Mapping[str, Any], fields: Mapping[str, Any], sidecar: Dated | None, mtime: float | None
) -> Dated | None:
    """A document's date from its ``.jsonl`` record, the sidecar, its front matter or its mtime.

    A front-matter date written with ``date_from: source`` is a catalogue's
    (``mdcx-convert --source`` writes it so) and ranks as one.
    """
    source, provenance = record.get("date"), record.get("date_from")
    if source is None and fields.get("date_from") == "source":
        source, provenance = fields.get("date"), "source"
    return choose(
        source=source,
        source_provenance=str(provenance or "source"),
        sidecar=sidecar,
        front_matter=fields.get("date"),
        mtime=mtime,
    )
