"""Cut a Markdown body into passages by its structure, within a size bound.

The cut is a partition: the passages' texts, concatenated in order, are the
body byte for byte.  That is what lets a package hold one copy of the text
and still export every file exactly.

A heading opens a new passage and heads it; paragraphs join the passage until
it reaches the target size; a block larger than the limit is split at
sentence (or line) ends.  Each passage keeps its heading path and the pages
it spans, read from the page markers conversion writes
(``<!-- page: 12 -->``, see ``page_marker``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

TARGET_WEIGHT = 160  # about words; a passage closes once it would pass this
LIMIT_WEIGHT = 320  # a single block above this is split
_WINDOW = 4 * 6 * LIMIT_WEIGHT  # characters; any text this long weighs more than LIMIT_WEIGHT

_PAGE_MARKER = re.compile(r"^[ \t]*<!--[ \t]*page:?[ \t]*(\d{1,7})[ \t]*-->[ \t]*\r?\n?$")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*\r?\n?$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*\r?\n?$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_LINE = re.compile(r"[^\n]*\n|[^\n]+")
_SENTENCE_END = re.compile(r"(?<=[.!?;:。！？])\s+|(?<=[。！？])")
_SPACE = re.compile(r"\s+")


def page_marker(page: int) -> str:
    """The line conversion writes where page ``page`` of the original begins."""
    return f"<!-- page: {page} -->"


@dataclass(frozen=True)
class Piece:
    start: int
    end: int
    page: int | None
    last_page: int | None
    heading: tuple[str, ...]


@dataclass
class _Block:
    start: int
    end: int
    kind: str  # "text", "heading", "page"
    weight: int = 0
    level: int = 0
    title: str = ""
    page: int = 0


def _weight(text: str) -> int:
    # Words where there are spaces; about a word per six characters where there are none.
    return max(len(text.split()), len(text) // 6)


def _is_blank(line: str) -> bool:
    return not line.strip()


def _blocks(body: str) -> list[_Block]:
    blocks: list[_Block] = []
    lines = [(m.start(), m.group()) for m in _LINE.finditer(body)]
    i, n = 0, len(lines)
    while i < n:
        start, line = lines[i]
        if _is_blank(line):  # blank lines belong to the block before them
            if blocks:
                blocks[-1].end = start + len(line)
            else:
                blocks.append(_Block(start, start + len(line), "text"))
            i += 1
            continue
        marker = _PAGE_MARKER.match(line)
        if marker:
            blocks.append(_Block(start, start + len(line), "page", page=int(marker.group(1))))
            i += 1
            continue
        atx = _ATX.match(line)
        if atx:
            title = (atx.group(2) or "").strip()
            blocks.append(
                _Block(start, start + len(line), "heading", _weight(title), len(atx.group(1)), title)
            )
            i += 1
            continue
        fence = _FENCE.match(line)
        j = i + 1
        if fence:
            closing = fence.group(1)[0] * len(fence.group(1))
            while j < n and not lines[j][1].lstrip(" ").startswith(closing):
                j += 1
            j = min(j + 1, n)
        else:
            while j < n:
                nxt = lines[j][1]
                if _is_blank(nxt) or _PAGE_MARKER.match(nxt) or _ATX.match(nxt) or _FENCE.match(nxt):
                    break
                j += 1
        end = lines[j - 1][0] + len(lines[j - 1][1])
        text = body[start:end]
        if not fence and j - i == 2 and _SETEXT.match(lines[i + 1][1]):
            level = 1 if lines[i + 1][1].strip().startswith("=") else 2
            title = line.strip()
            blocks.append(_Block(start, end, "heading", _weight(title), level, title))
        else:
            blocks.append(_Block(start, end, "text", _weight(text)))
        i = j
    return blocks


def _segments(body: str, block: _Block) -> list[tuple[int, int]]:
    """Split an oversized block at line, then sentence, then word ends (exact ranges)."""
    text = body[block.start : block.end]
    pieces: list[tuple[int, int]] = []
    lines = [(m.start(), m.end()) for m in _LINE.finditer(text)]
    units = lines if len(lines) > 1 else [(0, len(text))]
    for a, b in units:
        if _weight(text[a:b]) <= LIMIT_WEIGHT:
            pieces.append((a, b))
            continue
        cut = a
        for m in _SENTENCE_END.finditer(text, a, b):
            if m.end() > cut and m.end() < b:
                pieces.append((cut, m.end()))
                cut = m.end()
        pieces.append((cut, b))
    bounded: list[tuple[int, int]] = []
    for a, b in pieces:  # a sentence without ends: cut by size
        while True:
            # Weigh a window, not all that is left: a long run without ends
            # would be weighed again at every cut (quadratic).  A window this
            # long is over the limit by its length alone, so the test is exact.
            end = min(b, a + _WINDOW)
            weight = _weight(text[a:end])
            if weight <= LIMIT_WEIGHT:
                break
            step = a + max(1, (end - a) * TARGET_WEIGHT // weight)
            space = _SPACE.search(text, step, end)
            cut = space.end() if space and space.end() < b else step
            bounded.append((a, cut))
            a = cut
        bounded.append((a, b))
    return [(block.start + a, block.start + b) for a, b in bounded if b > a]


def cut_passages(body: str) -> list[Piece]:
    """Partition ``body`` into passages; ``body[p.start:p.end]`` joined over all is ``body``."""
    if not body:
        return []
    pieces: list[Piece] = []
    stack: list[str] = []
    page: int | None = None
    cur_start = 0
    cur_weight = 0
    cur_first: int | None = None
    cur_last: int | None = None
    cur_heading: tuple[str, ...] = ()
    has_content = False

    def close(at: int) -> None:
        nonlocal cur_start, cur_weight, has_content, cur_first, cur_last
        if at > cur_start:
            pieces.append(Piece(cur_start, at, cur_first, cur_last, cur_heading))
        cur_start, cur_weight, has_content = at, 0, False
        cur_first = cur_last = None

    def take(weight: int) -> None:
        nonlocal cur_weight, has_content, cur_first, cur_last, cur_heading
        if not has_content:
            cur_first, cur_heading = page, tuple(stack)
        cur_last = page
        cur_weight += weight
        has_content = True

    for block in _blocks(body):
        if block.kind == "page":
            if has_content and cur_weight >= TARGET_WEIGHT // 2:
                close(block.start)
            page = block.page
            if has_content and cur_first is None:
                cur_first = page  # a heading written just before its page's marker is on that page
            continue
        if block.kind == "heading":
            if has_content:
                close(block.start)
            del stack[block.level - 1 :]
            stack.extend([""] * (block.level - 1 - len(stack)))
            stack.append(block.title)
            take(block.weight)
            continue
        segments = [(block.start, block.end)] if block.weight <= LIMIT_WEIGHT else _segments(body, block)
        for a, b in segments:
            weight = block.weight if len(segments) == 1 else _weight(body[a:b])
            if has_content and cur_weight + weight > TARGET_WEIGHT and cur_weight > 0:
                close(a)
            take(weight)
    close(len(body))
    return _merge_tail(pieces)


def _merge_tail(pieces: list[Piece]) -> list[Piece]:
    """A last scrap (a closing line) joins the passage before it rather than standing alone."""
    if len(pieces) >= 2:
        last, prev = pieces[-1], pieces[-2]
        if last.heading == prev.heading and (last.end - last.start) < 200 and (prev.end - prev.start) < 4000:
            pieces[-2:] = [
                Piece(prev.start, last.end, prev.page, last.last_page or prev.last_page, prev.heading)
            ]
    return pieces
