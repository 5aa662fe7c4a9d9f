"""Markdown from a reading: headings, paragraphs, lists, tables, page markers.

Compaction (on unless ``--no-compact``) removes converter noise that carries
no words: runs of spaces, trailing blanks, soft hyphens and zero-width
characters, empty paragraphs, empty table rows and columns.  It never
removes a word, so coverage measures structure, not tidying.
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from mdcx.format import page_marker

from ._reading import Block, Reading

_INVISIBLE = re.compile("[\u00ad\u200b\u200c\u200d\u2060\ufeff]")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_TAG = re.compile(r"<(?=[A-Za-z/!?])")  # text that a renderer would take for an HTML tag
_SPACES = re.compile(r"[ \t\u00a0]+")
_LEADING = re.compile(
    r"^([ \t]*)(#{1,6}(?=\s|$)|>|[-+*](?=\s)|\d{1,9}[.)](?=\s)|={3,}|-{3,}|`{3,}|~{3,})", re.M
)


def _clean(text: str, compact: bool) -> str:
    text = _CONTROL.sub(" ", text.replace("\r\n", "\n").replace("\r", "\n"))
    if not compact:
        return text
    text = _INVISIBLE.sub("", text)
    lines = [_SPACES.sub(" ", line).strip() for line in text.split("\n")]
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip()


def _escape(text: str) -> str:
    """Text that Markdown shows as written: no accidental headings, lists or comments."""
    text = _TAG.sub(r"\\<", text.replace("<!--", "&lt;!--"))
    return _LEADING.sub(lambda m: m.group(1) + "\\" + m.group(2), text)


def _cell(text: str, compact: bool) -> str:
    text = _clean(text or "", compact)
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ").strip()


def table(rows: list[list[str]], compact: bool = True) -> str:
    cells = [[_cell(c, compact) for c in row] for row in rows]
    if compact:
        cells = [row for row in cells if any(row)]
        if cells:
            width = max(len(r) for r in cells)
            cells = [r + [""] * (width - len(r)) for r in cells]
            keep = [j for j in range(width) if any(r[j] for r in cells)]
            cells = [[r[j] for j in keep] for r in cells]
    if not cells or (not any(cells[0]) and len(cells) == 1):
        return ""
    width = max(len(r) for r in cells) or 1
    cells = [r + [""] * (width - len(r)) for r in cells]
    lines = ["| " + " | ".join(cells[0]) + " |", "|" + "---|" * width]
    lines += ["| " + " | ".join(r) + " |" for r in cells[1:]]
    return "\n".join(lines)


def _render(block: Block, compact: bool) -> str:
    if block.kind == "page":
        return page_marker(int(block.page or 0))
    if block.kind == "table":
        return table(block.rows or [], compact)
    if block.kind == "markdown":  # a Markdown source, kept as written
        return _clean(block.text, compact) if compact else block.text.strip("\n")
    if block.kind == "code":
        text = block.text.replace("\r\n", "\n").strip("\n")
        fence = "````" if "```" in text else "```"
        return f"{fence}\n{text}\n{fence}" if text.strip() or not compact else ""
    text = _clean(block.text, compact)
    if block.kind == "heading":
        text = " ".join(text.split())
        return f"{'#' * min(max(block.level, 1), 6)} {_escape(text)}" if text else ""
    if block.kind == "item":
        body = _escape(text).replace("\n", "\n" + "  " * (block.level + 1))
        number = (block.extra or {}).get("number")
        if isinstance(number, int):
            bullet = f"{number}."
        elif isinstance(number, str) and number:
            bullet = number if number[-1] in ".)" else number + "."
        else:
            bullet = "-"
        return f"{'  ' * block.level}{bullet} {body}" if text else ""
    if block.kind == "quote":
        return "\n".join("> " + line for line in _escape(text).split("\n")) if text else ""
    return _escape(text)


def body(reading: Reading, compact: bool = True) -> str:
    """The Markdown body of ``reading`` (no front matter)."""
    parts: list[str] = []
    previous = ""
    for block in reading.blocks:
        text = _render(block, compact)
        if not text and compact:
            continue
        if parts and block.kind == "item" and previous == "item":
            parts.append("\n" + text)
        else:
            parts.append(("\n\n" if parts else "") + text)
        previous = block.kind
    return "".join(parts).strip("\n") + "\n" if parts else ""


def front_matter(fields: dict[str, Any]) -> str:
    data = {k: v for k, v in fields.items() if v is not None}
    dumped = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000)
    return f"---\n{dumped}---\n\n"
