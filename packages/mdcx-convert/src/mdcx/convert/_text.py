"""Plain text, Markdown and CSV: decoded with the detected encoding.

These formats are their own reference (the decoded file), so their coverage
measures what structuring kept.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from ._detect import decode_text
from ._reading import Reading

_FRONT = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.S)
_MD_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.M)


def read_txt(path: Path, encoding: str | None) -> Reading:
    text, enc = decode_text(path.read_bytes(), encoding)
    reading = Reading(reference=text, notes={"encoding": enc})
    reading.use("text")
    for paragraph in re.split(r"\n[ \t]*\n", text.replace("\r\n", "\n")):
        if paragraph.strip():
            reading.add("paragraph", paragraph, engine="text")
    return reading


def read_md(path: Path, encoding: str | None) -> Reading:
    import yaml

    text, enc = decode_text(path.read_bytes(), encoding)
    reading = Reading(notes={"encoding": enc})
    reading.use("markdown")
    match = _FRONT.match(text)
    if match:
        try:
            data = yaml.safe_load(match.group(1))
        except yaml.YAMLError:
            data = None
        if isinstance(data, dict):
            if isinstance(data.get("title"), str):
                reading.title = data["title"]
            if data.get("date") is not None:
                reading.date = str(data["date"])
        text = text[match.end() :]
    heading = _MD_HEADING.search(text)
    if reading.title is None and heading:
        reading.title = heading.group(1).strip()
    reading.reference = text
    # A source's own page markers stay; any other text goes through untouched.
    reading.add("markdown", text, engine="markdown")
    return reading


def read_csv(path: Path, encoding: str | None) -> Reading:
    text, enc = decode_text(path.read_bytes(), encoding)
    reading = Reading(reference=text, notes={"encoding": enc})
    reading.use("csv")
    sample = text[:8192]
    if path.suffix.lower() == ".tsv":
        delimiter = "\t"
    else:
        try:
            delimiter = csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
        except csv.Error:
            delimiter = ","
    csv.field_size_limit(1 << 30)
    rows = [row for row in csv.reader(io.StringIO(text), delimiter=delimiter)]
    reading.notes["delimiter"] = delimiter
    if rows:
        reading.add("table", rows=rows, engine="csv")
    return reading
