"""HTML to blocks with the standard library's event parser.

The parser is event driven, so a document nested a million elements deep
costs no recursion.  Scripts, styles and the head (but its title) are not
text; headings, paragraphs, lists, tables (nested tables flattened into their
cell), preformatted code and quotations keep their structure.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from ._reading import Reading

_SKIP = {"script", "style", "noscript", "template", "head", "svg", "math", "object", "iframe", "rp"}
_BLOCK = {
    "p", "div", "section", "article", "header", "footer", "nav", "aside", "main", "figure",
    "figcaption", "address", "dl", "dt", "dd", "form", "fieldset", "legend", "details", "summary",
    "center", "body", "html", "hr", "caption", "label", "option",
}  # fmt: skip
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_VOID = {"br", "hr", "img", "input", "meta", "link", "area", "base", "col", "embed", "source", "track", "wbr"}
_SPACE = re.compile(r"\s+")


def _span(value: str | None) -> int:
    try:
        return min(max(int(value or 1), 1), 1000)
    except ValueError:
        return 1


class _Table:
    def __init__(self) -> None:
        self.rows: list[list[tuple[str, int, int]]] = []
        self.row: list[tuple[str, int, int]] | None = None
        self.cell: list[str] | None = None
        self.spans = (1, 1)

    def start_cell(self, attrs: dict[str, str | None]) -> None:
        self.end_cell()
        if self.row is None:
            self.row = []
        self.cell = []
        self.spans = (_span(attrs.get("colspan")), _span(attrs.get("rowspan")))

    def end_cell(self) -> None:
        if self.cell is not None:
            if self.row is None:
                self.row = []
            self.row.append((_SPACE.sub(" ", "".join(self.cell)).strip(), *self.spans))
            self.cell = None
            self.spans = (1, 1)

    def end_row(self) -> None:
        self.end_cell()
        if self.row is not None:
            self.rows.append(self.row)
            self.row = None

    def grid(self) -> list[list[str]]:
        """Cells spanning rows or columns repeat their text in every cell they cover."""
        self.end_row()
        grid: list[list[str]] = []
        pending: dict[int, tuple[str, int]] = {}  # column -> (text, rows still covered)
        for row in self.rows:
            out: list[str] = []
            cells = list(row)
            col = 0
            while cells or any(c >= col for c in pending):
                if col in pending:
                    text, left = pending[col]
                    out.append(text)
                    if left > 1:
                        pending[col] = (text, left - 1)
                    else:
                        del pending[col]
                    col += 1
                    continue
                if not cells:
                    out.append("")
                    col += 1
                    continue
                text, colspan, rowspan = cells.pop(0)
                for _ in range(colspan):
                    if rowspan > 1:
                        pending[col] = (text, rowspan - 1)
                    out.append(text)
                    col += 1
            grid.append(out)
        return grid

    def as_text(self) -> str:
        return " ; ".join(" ".join(c for c in r if c) for r in self.grid())


class _Converter(HTMLParser):
    def __init__(self, reading: Reading, engine: str) -> None:
        super().__init__(convert_charrefs=True)
        self.reading = reading
        self.engine = engine
        self.buffer: list[str] = []
        self.skip = 0
        self.pre = 0
        self.pre_buffer: list[str] = []
        self.heading = 0
        self.lists = 0
        self.in_item = False
        self.quote = 0
        self.tables: list[_Table] = []
        self.in_title = False
        self.title: list[str] = []
        self.in_head = False
        self.links: list[str | None] = []
        self.numbers: list[int | None] = []  # per open list: next number, None for bullets
        self.number: int | None = None

    # -- text ---------------------------------------------------------------
    def flush(self) -> None:
        text = "".join(self.buffer)
        self.buffer = []
        text = _SPACE.sub(" ", text).strip()
        if not text:
            return
        if self.heading:
            self.reading.add("heading", text, level=self.heading, engine=self.engine)
        elif self.in_item:
            extra = {"number": self.number} if self.number is not None else None
            self.number = None  # a second paragraph of the same item is not numbered again
            self.reading.add("item", text, level=max(self.lists - 1, 0), engine=self.engine, extra=extra)
        elif self.quote:
            self.reading.add("quote", text, engine=self.engine)
        else:
            self.reading.add("paragraph", text, engine=self.engine)

    def _sink(self) -> list[str] | None:
        if self.in_title or self.skip or self.in_head:
            return None
        if self.tables:
            return self.tables[-1].cell
        return self.pre_buffer if self.pre else self.buffer

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title.append(data)
            return
        if self.skip or self.in_head:
            return
        if self.tables and self.tables[-1].cell is not None:
            self.tables[-1].cell.append(data)
        elif self.tables:
            if data.strip():  # text loose in a table, outside any cell
                self.tables[-1].cell = [data]
                self.tables[-1].end_cell()
        elif self.pre:
            self.pre_buffer.append(data)
        else:
            self.buffer.append(data)

    # -- tags ---------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title" and not self.title:
            self.in_title = True
            return
        if tag == "head":
            self.in_head = True
            return
        if tag == "body":
            self.in_head = False  # a head left open ends where the body begins
        if tag in _SKIP:
            if tag not in _VOID:
                self.skip += 1
            return
        if self.skip or self.in_head:
            return
        if tag == "a":
            href = dict(attrs).get("href")
            sink = self._sink()
            if href and not href.lower().startswith("javascript:") and sink is not None:
                sink.append("[")
                self.links.append(href.strip())
            else:
                self.links.append(None)
            return
        if tag == "rt":  # a ruby reading follows its base text in parentheses
            sink = self._sink()
            if sink is not None:
                sink.append("(")
            return
        if tag == "img":
            alt = (dict(attrs).get("alt") or "").strip()
            sink = self._sink()
            if alt and sink is not None:
                sink.append(" " + alt + " ")
            return
        if self.tables and tag not in ("table", "tr", "td", "th"):
            t = self.tables[-1]
            if t.cell is not None and (tag in _BLOCK or tag in ("br", "li", "p") or tag in _HEADINGS):
                t.cell.append(" ")
            return
        if tag == "table":
            if self.tables and self.tables[-1].cell is None:
                self.tables[-1].cell = []
            if not self.tables:
                self.flush()
            self.tables.append(_Table())
        elif tag == "tr" and self.tables:
            self.tables[-1].end_row()
            self.tables[-1].row = []
        elif tag in ("td", "th") and self.tables:
            self.tables[-1].start_cell(dict(attrs))
        elif tag == "pre":
            self.flush()
            self.pre += 1
        elif tag == "br":
            if self.pre:
                self.pre_buffer.append("\n")
            else:
                self.buffer.append("\n")
        elif tag in _HEADINGS:
            self.flush()
            self.heading = _HEADINGS[tag]
        elif tag in ("ul", "ol"):
            self.flush()
            self.lists += 1
            self.numbers.append(_span(dict(attrs).get("start")) if tag == "ol" else None)
        elif tag == "li":
            self.flush()
            self.in_item = True
            if self.numbers and self.numbers[-1] is not None:
                self.number = self.numbers[-1]
                self.numbers[-1] += 1
        elif tag == "blockquote":
            self.flush()
            self.quote += 1
        elif tag in _BLOCK:
            self.flush()

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == "title" and self.in_title:
            self.in_title = False
            return
        if tag == "head":
            self.in_head = False
            return
        if tag == "rt":
            sink = self._sink()
            if sink is not None:
                sink.append(")")
            return
        if tag == "a" and self.links:
            href = self.links.pop()
            sink = self._sink()
            if href is not None and sink is not None:
                target = f"<{href}>" if any(c in href for c in " ()<>") else href
                sink.append(f"]({target})")
            return
        if tag in _SKIP:
            if self.skip and tag not in _VOID:
                self.skip -= 1
            return
        if self.skip:
            return
        if self.tables and tag not in ("table", "tr", "td", "th"):
            return
        if tag == "table" and self.tables:
            t = self.tables.pop()
            t.end_row()
            if self.tables:  # a nested table becomes text in its cell
                outer = self.tables[-1]
                if outer.cell is None:
                    outer.cell = []
                outer.cell.append(" " + t.as_text() + " ")
            else:
                rows = t.grid()
                if rows:
                    self.reading.add("table", rows=rows, engine=self.engine)
        elif tag == "tr" and self.tables:
            self.tables[-1].end_row()
        elif tag in ("td", "th") and self.tables:
            self.tables[-1].end_cell()
        elif tag == "pre" and self.pre:
            self.pre -= 1
            if not self.pre:
                text = "".join(self.pre_buffer)
                self.pre_buffer = []
                if text.strip():
                    self.reading.add("code", text, engine=self.engine)
        elif tag in _HEADINGS:
            self.flush()
            self.heading = 0
        elif tag in ("ul", "ol"):
            self.flush()
            self.lists = max(self.lists - 1, 0)
            if self.numbers:
                self.numbers.pop()
            self.in_item = self.lists > 0 and self.in_item
        elif tag == "li":
            self.flush()
            self.in_item = False
        elif tag == "blockquote":
            self.flush()
            self.quote = max(self.quote - 1, 0)
        elif tag in _BLOCK:
            self.flush()

    def close(self) -> None:
        super().close()
        while self.tables:
            self.handle_endtag("table")
        if self.pre:
            self.pre = 1
            self.handle_endtag("pre")
        self.flush()


def html_into(reading: Reading, markup: str, engine: str = "html.parser") -> str | None:
    """Append the blocks of ``markup`` to ``reading``; returns the page's <title>."""
    converter = _Converter(reading, engine)
    converter.feed(markup)
    converter.close()
    title = _SPACE.sub(" ", "".join(converter.title)).strip()
    return title or None


def reference_text(markup: bytes | str) -> str:
    """The text of an HTML document read by lxml (the verification reference)."""
    import lxml.etree
    import lxml.html

    if isinstance(markup, str):
        markup = markup.encode("utf-8")
        parser = lxml.html.HTMLParser(encoding="utf-8", huge_tree=True)
    else:
        parser = lxml.html.HTMLParser(huge_tree=True)
    if not markup.strip():
        return ""
    try:
        root = lxml.html.document_fromstring(markup, parser=parser)
    except (lxml.etree.ParserError, ValueError):
        return ""
    skip = {"script", "style", "noscript", "template", "head", "svg", "math", "rp"}
    blocks = (
        _BLOCK | set(_HEADINGS) | {"li", "ul", "ol", "table", "tr", "td", "th", "pre", "br", "blockquote"}
    )
    parts: list[str] = []
    hidden = 0
    for event, el in lxml.etree.iterwalk(root, events=("start", "end")):
        tag = el.tag.lower() if isinstance(el.tag, str) else ""
        if event == "start":
            if tag in skip:
                hidden += 1
            if hidden:
                continue
            if tag in blocks:
                parts.append("\n")
            if isinstance(el.tag, str) and el.text:
                parts.append(el.text)
        else:
            if tag in skip:
                hidden -= 1
            if hidden:
                continue
            if tag in blocks:
                parts.append("\n")
            if el.tail:
                parts.append(el.tail)
    return "".join(parts)
