"""Markdown to HTML that is safe to show, for the browse page.

Document text is untrusted: a package may hold anything.  So this renderer
passes no HTML through.  Every character of the source reaches the output
through ``html.escape`` (by way of a ``Highlighter``); the only tags written
are a fixed set this module names, with no attributes but ``class``, ``id``,
``dir``, ``colspan``, ``start``, ``data-page`` and, on links to ``http``, ``https`` or ``mailto``
addresses only, an escaped ``href``.  Raw HTML in a document shows as text,
comments are dropped (page markers excepted), and images are shown as a
placeholder naming them rather than fetched.

What it reads: front matter, ATX and setext headings, paragraphs, hard line
breaks, block quotes, bullet and numbered lists (nested by indentation),
fenced and indented code, thematic breaks, GitHub tables (alignment
included; a page marker inside a table becomes a row), emphasis, strong,
strikethrough, code spans, links, autolinks and backslash escapes.  Page
markers (``<!-- page: N -->``) become visible page dividers.

Each top-level block keeps the character range of the source it came from,
so the reader can mark the blocks a passage covers and scroll to them.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from ._highlight import PLAIN, Highlighter
from ._markdown_inline import Inline

_PAGE = re.compile(r"^\s*<!--\s*page:\s*(\d+)\s*-->\s*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_HR = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_BULLET = re.compile(r"^( *)([-*+])(?:[ \t]+(.*))?$")
_ORDERED = re.compile(r"^( *)(\d{1,9})[.)](?:[ \t]+(.*))?$")
_QUOTE = re.compile(r"^ {0,3}> ?(.*)$")
_DELIMITER_CELL = re.compile(r"^:?-+:?$")
_FRONT_END = re.compile(r"^(---|\.\.\.)\s*$")
_MAX_DEPTH = 12  # quotes and lists nested deeper are shown flat


@dataclass(frozen=True)
class Block:
    """One top-level block of rendered HTML and the source range it came from."""

    start: int
    end: int
    html: str
    page: int | None = None  # set on page dividers


@dataclass
class _Line:
    text: str  # without its line end
    start: int
    end: int  # after its line end


def _lines(text: str, base: int = 0) -> list[_Line]:
    out = []
    at = base
    for raw in text.splitlines(keepends=True):
        body = raw.rstrip("\r\n")
        out.append(_Line(body.expandtabs(4), at, at + len(raw)))
        at += len(raw)
    return out


def _dir() -> str:
    return ' dir="auto"'


# -- blocks -----------------------------------------------------------------------------------


def _split_row(line: str) -> list[str]:
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    cells, buf, i = [], [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s) and s[i + 1] == "|":
            buf.append("|")
            i += 2
            continue
        if s[i] == "|":
            cells.append("".join(buf).strip())
            buf = []
        else:
            buf.append(s[i])
        i += 1
    cells.append("".join(buf).strip())
    return cells


def _is_delimiter_row(line: str) -> bool:
    if "-" not in line:
        return False
    cells = _split_row(line)
    return bool(cells) and all(_DELIMITER_CELL.match(c.replace(" ", "")) for c in cells)


def _alignments(line: str) -> list[str | None]:
    out: list[str | None] = []
    for cell in _split_row(line):
        cell = cell.replace(" ", "")
        left, right = cell.startswith(":"), cell.endswith(":")
        out.append("center" if left and right else "right" if right else "left" if left else None)
    return out


class _Blocks:
    """Renders a list of lines into top-level blocks."""

    def __init__(self, marks: Highlighter, depth: int = 0) -> None:
        self.marks = marks
        self.depth = depth
        self.inline = Inline(marks)

    def _starts_block(self, line: str) -> bool:
        return bool(
            _PAGE.match(line)
            or _FENCE.match(line)
            or _ATX.match(line)
            or _HR.match(line)
            or _QUOTE.match(line)
            or _BULLET.match(line)
            or _ORDERED.match(line)
        )

    def render(self, lines: list[_Line]) -> list[Block]:
        out: list[Block] = []
        i = 0
        n = len(lines)
        while i < n:
            line = lines[i]
            text = line.text
            if not text.strip():
                i += 1
                continue
            page = _PAGE.match(text)
            if page:
                number = int(page.group(1))
                out.append(
                    Block(
                        line.start,
                        line.end,
                        f'<div class="page-marker" data-page="{number}">page {number}</div>',
                        number,
                    )
                )
                i += 1
                continue
            if text.lstrip().startswith("<!--"):
                j = i
                while j < n and "-->" not in lines[j].text:
                    j += 1
                i = min(j, n - 1) + 1  # comments are not shown
                continue
            fence = _FENCE.match(text)
            if fence and not (fence.group(1)[0] == "`" and "`" in fence.group(2)):
                i = self._fenced(lines, i, fence, out)
                continue
            atx = _ATX.match(text)
            if atx:
                level = len(atx.group(1))
                body = self.inline.render(atx.group(2) or "")
                out.append(Block(line.start, line.end, f"<h{level}{_dir()}>{body}</h{level}>"))
                i += 1
                continue
            if _HR.match(text):
                out.append(Block(line.start, line.end, "<hr>"))
                i += 1
                continue
            if i + 1 < n and "|" in text and _is_delimiter_row(lines[i + 1].text):
                i = self._table(lines, i, out)
                continue
            if _QUOTE.match(text):
                i = self._quote(lines, i, out)
                continue
            if _BULLET.match(text) or _ORDERED.match(text):
                i = self._list(lines, i, out)
                continue
            if text.startswith("    "):
                j = i
                while j < n and (lines[j].text.startswith("    ") or not lines[j].text.strip()):
                    j += 1
                while j > i and not lines[j - 1].text.strip():
                    j -= 1
                code = "\n".join(ln.text[4:] for ln in lines[i:j])
                out.append(
                    Block(line.start, lines[j - 1].end, f"<pre><code>{self.marks.html(code)}</code></pre>")
                )
                i = j
                continue
            i = self._paragraph(lines, i, out)
        return out

    def _fenced(self, lines: list[_Line], i: int, fence: re.Match, out: list[Block]) -> int:
        marker = fence.group(1)
        j = i + 1
        while j < len(lines):
            closing = _FENCE.match(lines[j].text)
            if (
                closing
                and closing.group(1)[0] == marker[0]
                and len(closing.group(1)) >= len(marker)
                and not closing.group(2).strip()
            ):
                break
            j += 1
        code = "\n".join(ln.text for ln in lines[i + 1 : j])
        end = lines[min(j, len(lines) - 1)].end
        out.append(Block(lines[i].start, end, f"<pre><code>{self.marks.html(code)}</code></pre>"))
        return j + 1

    def _table(self, lines: list[_Line], i: int, out: list[Block]) -> int:
        head = _split_row(lines[i].text)
        align = _alignments(lines[i + 1].text)
        width = len(head)

        def cell(tag: str, text: str, k: int) -> str:
            a = align[k] if k < len(align) else None
            cls = f' class="al-{a}"' if a else ""
            return f"<{tag}{cls}{_dir()}>{self.inline.render(text)}</{tag}>"

        rows = [
            "<thead><tr>" + "".join(cell("th", c, k) for k, c in enumerate(head)) + "</tr></thead><tbody>"
        ]
        j = i + 2
        while j < len(lines):
            text = lines[j].text
            page = _PAGE.match(text)
            if (
                page
                and j + 1 < len(lines)
                and "|" in lines[j + 1].text
                and not _is_delimiter_row(lines[j + 1].text)
            ):
                number = int(page.group(1))
                rows.append(
                    f'<tr class="page-row"><td colspan="{width}">'
                    f'<div class="page-marker" data-page="{number}">page {number}</div></td></tr>'
                )
                j += 1
                continue
            if (
                not text.strip()
                or "|" not in text
                or (self._starts_block(text) and not text.lstrip().startswith("|"))
            ):
                break
            cells = (_split_row(text) + [""] * width)[:width]
            rows.append("<tr>" + "".join(cell("td", c, k) for k, c in enumerate(cells)) + "</tr>")
            j += 1
        rows.append("</tbody>")
        out.append(
            Block(
                lines[i].start,
                lines[j - 1].end,
                '<div class="table-wrap"><table>' + "".join(rows) + "</table></div>",
            )
        )
        return j

    def _nested(self, inner: list[_Line]) -> str:
        if self.depth >= _MAX_DEPTH:
            return f"<p{_dir()}>{self.marks.html(' '.join(ln.text.strip() for ln in inner))}</p>"
        return "".join(b.html for b in _Blocks(self.marks, self.depth + 1).render(inner))

    def _quote(self, lines: list[_Line], i: int, out: list[Block]) -> int:
        j = i
        inner: list[_Line] = []
        while j < len(lines):
            m = _QUOTE.match(lines[j].text)
            if m:
                inner.append(_Line(m.group(1), lines[j].start, lines[j].end))
            elif (
                lines[j].text.strip()
                and inner
                and inner[-1].text.strip()
                and not self._starts_block(lines[j].text)
            ):
                inner.append(lines[j])  # a lazy continuation of the quoted paragraph
            else:
                break
            j += 1
        out.append(Block(lines[i].start, lines[j - 1].end, f"<blockquote>{self._nested(inner)}</blockquote>"))
        return j

    def _list(self, lines: list[_Line], i: int, out: list[Block]) -> int:
        first = _BULLET.match(lines[i].text) or _ORDERED.match(lines[i].text)
        ordered = first.re is _ORDERED
        indent = len(first.group(1))
        items: list[list[_Line]] = []
        j = i
        while j < len(lines):
            text = lines[j].text
            m = (_ORDERED if ordered else _BULLET).match(text)
            if m and len(m.group(1)) == indent:
                content_at = m.end(2) + 1
                items.append([_Line(m.group(3) or "", lines[j].start + content_at, lines[j].end)])
                j += 1
                continue
            if not text.strip():
                following = lines[j + 1].text if j + 1 < len(lines) else ""
                if following.startswith(" " * (indent + 2)) or (
                    (_ORDERED if ordered else _BULLET).match(following)
                    and len((_ORDERED if ordered else _BULLET).match(following).group(1)) == indent
                ):
                    items[-1].append(lines[j])
                    j += 1
                    continue
                break
            leading = len(text) - len(text.lstrip(" "))
            if leading > indent or (not self._starts_block(text) and items[-1][-1].text.strip()):
                cut = min(leading, indent + 4 if ordered else indent + 2)
                items[-1].append(_Line(text[cut:], lines[j].start, lines[j].end))
                j += 1
                continue
            break
        tag = "ol" if ordered else "ul"
        start = ""
        if ordered and first.group(2) != "1":
            start = f' start="{int(first.group(2))}"'
        body = []
        for item in items:
            rendered = self._nested(item)
            if rendered.count("<p") == 1 and rendered.startswith("<p") and rendered.endswith("</p>"):
                rendered = rendered[rendered.index(">") + 1 : -4]  # a tight item: no paragraph
            body.append(f"<li{_dir()}>{rendered}</li>")
        out.append(Block(lines[i].start, lines[j - 1].end, f"<{tag}{start}>{''.join(body)}</{tag}>"))
        return j

    def _paragraph(self, lines: list[_Line], i: int, out: list[Block]) -> int:
        j = i + 1
        while j < len(lines):
            text = lines[j].text
            if not text.strip():
                break
            setext = _SETEXT.match(text)
            if setext:
                level = 1 if setext.group(1)[0] == "=" else 2
                body = self.inline.render("\n".join(ln.text.strip() for ln in lines[i:j]))
                out.append(Block(lines[i].start, lines[j].end, f"<h{level}{_dir()}>{body}</h{level}>"))
                return j + 1
            if self._starts_block(text) or (
                j + 1 < len(lines) and "|" in text and _is_delimiter_row(lines[j + 1].text)
            ):
                break
            j += 1
        source = "\n".join(ln.text.lstrip() for ln in lines[i:j])
        out.append(Block(lines[i].start, lines[j - 1].end, f"<p{_dir()}>{self.inline.render(source)}</p>"))
        return j


def _front_matter(text: str) -> int:
    """Length of the front matter at the start of ``text`` (0 if none)."""
    body = text[1:] if text.startswith("\ufeff") else text
    skip = len(text) - len(body)
    first = body.split("\n", 1)[0].rstrip("\r")
    if first.strip() != "---":
        return 0
    at = len(body.split("\n", 1)[0]) + 1
    while at < len(body):
        nl = body.find("\n", at)
        line = body[at : nl if nl != -1 else len(body)]
        if _FRONT_END.match(line.rstrip("\r")):
            return skip + (nl + 1 if nl != -1 else len(body))
        if nl == -1:
            break
        at = nl + 1
    return 0


def render(text: str, marks: Highlighter = PLAIN) -> list[Block]:
    """The blocks of a Markdown document, each as safe HTML with its source range."""
    blocks: list[Block] = []
    front = _front_matter(text)
    if front:
        shown = html.escape(text[:front].lstrip("\ufeff").strip(), quote=False)
        blocks.append(
            Block(
                0,
                front,
                f'<details class="front-matter"><summary>front matter</summary><pre>{shown}</pre></details>',
            )
        )
    blocks.extend(_Blocks(marks).render(_lines(text[front:], front)))
    return blocks


def render_html(text: str, marks: Highlighter = PLAIN) -> str:
    """A Markdown fragment (a passage) as one string of safe HTML."""
    return "".join(b.html for b in _Blocks(marks).render(_lines(text)))
