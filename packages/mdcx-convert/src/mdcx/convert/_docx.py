"""DOCX with python-docx: paragraphs, headings, numbered lists, tables, links,
text boxes, equations (as their text) and charts (as tables).

The body is walked with an explicit stack (content controls, nested tables
and text boxes can nest arbitrarily deep), so a hostile document costs no
recursion.  OOXML Strict documents, which python-docx cannot open, are read
from their XML with the same walker after their namespaces are renamed.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from pathlib import Path

from ._errors import DocumentError
from ._omml import latex
from ._ooxml import MC_FALLBACK, M, W, chart_table, docx_main_part, docx_reference, transitional
from ._reading import Reading
from ._xlsx import number as format_number

_HEADING = re.compile(r"^(?:heading|überschrift|titre|título|titolo)\s*(\d)$", re.I)
_TXBX = W + "txbxContent"
_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_W14 = "{http://schemas.microsoft.com/office/word/2010/wordml}"
_CHART = "{http://schemas.openxmlformats.org/drawingml/2006/chart}chart"
_CONTAINERS = {
    W + "sdt",
    W + "sdtContent",
    W + "customXml",
    W + "smartTag",
    _MC + "AlternateContent",
    _MC + "Choice",
}


def _roman(n: int) -> str:
    out = ""
    for value, letters in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
                           (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):  # fmt: skip
        while n >= value:
            out, n = out + letters, n - value
    return out


def _format(n: int, fmt: str) -> str:
    if fmt in ("lowerLetter", "upperLetter"):
        s = chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)
        return s.upper() if fmt == "upperLetter" else s
    if fmt in ("lowerRoman", "upperRoman"):
        return _roman(n).upper() if fmt == "upperRoman" else _roman(n)
    return str(n)


class _Numbering:
    """Counters of numbered lists, read from word/numbering.xml."""

    def __init__(self, root) -> None:
        self.abstract: dict[str, dict[int, tuple[str, int, str]]] = {}
        self.nums: dict[str, str] = {}
        self.starts: dict[tuple[str, int], int] = {}
        self.counters: dict[str, list[int]] = {}
        if root is None:
            return
        for ab in root.iter(W + "abstractNum"):
            levels = {}
            for lvl in ab.iter(W + "lvl"):
                fmt = lvl.find(W + "numFmt")
                start = lvl.find(W + "start")
                text = lvl.find(W + "lvlText")
                levels[int(lvl.get(W + "ilvl", "0"))] = (
                    fmt.get(W + "val", "decimal") if fmt is not None else "decimal",
                    int(start.get(W + "val", "1")) if start is not None else 1,
                    text.get(W + "val", "") if text is not None else "",
                )
            self.abstract[ab.get(W + "abstractNumId", "")] = levels
        for num in root.iter(W + "num"):
            ref = num.find(W + "abstractNumId")
            if ref is not None:
                self.nums[num.get(W + "numId", "")] = ref.get(W + "val", "")

    def label(self, num_id: str, level: int) -> str | None:
        """The label of the next item at ``level`` of list ``num_id`` (None for bullets)."""
        abstract = self.nums.get(num_id)
        levels = self.abstract.get(abstract or "", {})
        if level not in levels or num_id == "0":
            return None
        fmt, start, text = levels[level]
        counters = self.counters.setdefault(abstract or "", [0] * 10)
        level = min(level, 9)
        counters[level] = counters[level] + 1 if counters[level] else start
        for deeper in range(level + 1, 10):
            counters[deeper] = 0
        if fmt in ("bullet", "none") or not text:
            return None

        def value(m: re.Match) -> str:
            i = int(m.group(1)) - 1
            f, s, _ = levels.get(i, ("decimal", 1, ""))
            return _format(counters[i] or s, f)

        return re.sub(r"%(\d)", value, text).strip() or None


class _Walker:
    def __init__(self, reading: Reading, styles: dict[str, str], rels: dict[str, str], numbering: _Numbering,
                 chart) -> None:  # fmt: skip
        self.reading = reading
        self.styles = styles
        self.rels = rels
        self.numbering = numbering
        self.chart = chart  # rId -> (title, rows) or None
        self.charts: list = []
        self.page = 1
        self.breaks = 0  # page breaks met in the paragraph being read
        self.break_tag: str | None = None  # which element marks a page break (decided per document)

    def text(self, p, boxes: list) -> str:
        out: list[str] = []
        stack: list = [p]
        first = True
        while stack:
            el = stack.pop()
            if isinstance(el, str):  # the end of a hyperlink
                out.append(el)
                continue
            tag = el.tag
            if tag == MC_FALLBACK or not isinstance(tag, str):
                continue
            if tag == _TXBX:
                boxes.append(el)
                continue
            if not first and tag == W + "p":
                out.append(" ")
            first = False
            if tag in (W + "t", M + "t") and el.text:
                out.append(el.text)
            elif tag == W + "tab":
                out.append("\t")
            elif tag in (W + "br", W + "cr"):
                out.append("\n")
                if self.break_tag == "br" and el.get(W + "type") == "page":
                    self.breaks += 1
            elif tag == W + "lastRenderedPageBreak" and self.break_tag == "rendered":
                self.breaks += 1
            elif tag == _CHART:
                self.charts.append(el.get(_R + "id"))
            elif tag == W + "sdt" and el.find(f"{W}sdtPr/{_W14}checkbox") is not None:
                checked = el.find(f"{W}sdtPr/{_W14}checkbox/{_W14}checked")
                on = checked is not None and checked.get(_W14 + "val", "0") in ("1", "true")
                out.append("[x] " if on else "[ ] ")
                content = el.find(W + "sdtContent")
                if content is not None and "".join(content.itertext()).strip() in ("☐", "☒", "☑", "⌧"):
                    continue  # the box glyph itself
            elif tag == M + "oMathPara":
                formulas = [latex(m) for m in el.iter(M + "oMath")]
                out.append(" " + " ".join(f"$${f}$$" for f in formulas if f.strip()) + " ")
                continue
            elif tag == M + "oMath":
                formula = latex(el)
                if formula.strip():
                    out.append(f" ${formula}$ ")
                continue
            elif tag == W + "hyperlink":
                target = self.rels.get(el.get(_R + "id", ""))
                if target:
                    out.append("[")
                    stack.append(f"]({target})" if " " not in target else f"](<{target}>)")
            stack.extend(reversed(list(el)))
        return "".join(out)

    def cell(self, tc) -> str:
        parts = []
        for p in tc.iter(W + "p"):
            parts.append(self.text(p, []))
        return " ".join(t.strip() for t in parts if t.strip())

    def table(self, tbl) -> list[list[str]]:
        rows: list[list[str]] = []
        above: dict[int, str] = {}
        for tr in tbl.iterchildren(W + "tr"):
            row: list[str] = []
            for tc in tr.iterchildren(W + "tc"):
                span = tc.find(f"{W}tcPr/{W}gridSpan")
                n = int(span.get(W + "val", "1")) if span is not None else 1
                merge = tc.find(f"{W}tcPr/{W}vMerge")
                text = self.cell(tc)
                if merge is not None and merge.get(W + "val", "continue") == "continue" and not text:
                    text = above.get(len(row), "")  # a vertically merged cell repeats the text above
                for _ in range(max(1, min(n, 100))):
                    above[len(row)] = text
                    row.append(text)
            rows.append(row)
        return rows

    def kind(self, p) -> tuple[str, int, str | None]:
        ppr = p.find(W + "pPr")
        style_id = None
        label = None
        numbered = None
        if ppr is not None:
            ps = ppr.find(W + "pStyle")
            if ps is not None:
                style_id = ps.get(W + "val")
            num = ppr.find(W + "numPr")
            if num is not None:
                ilvl = num.find(W + "ilvl")
                nid = num.find(W + "numId")
                level = int(ilvl.get(W + "val", "0")) if ilvl is not None else 0
                if nid is not None:
                    label = self.numbering.label(nid.get(W + "val", ""), level)
                numbered = min(level, 8)
        name = self.styles.get(style_id or "", "")
        match = _HEADING.match(name)
        if match:
            return "heading", max(1, min(int(match.group(1)), 6)), label
        if ppr is not None:
            outline = ppr.find(W + "outlineLvl")
            if outline is not None:
                return "heading", min(int(outline.get(W + "val", "0")) + 1, 6), label
        if name.lower() == "title":
            return "heading", 1, label
        if numbered is not None:
            return "item", numbered, label
        if name.lower().startswith("list"):
            return "item", 0, None
        return "paragraph", 0, None

    def walk(self, body) -> None:
        # Word's last layout marks where its pages began; without it, explicit page breaks do.
        if next(body.iter(W + "lastRenderedPageBreak"), None) is not None:
            self.break_tag = "rendered"
        elif any(br.get(W + "type") == "page" for br in body.iter(W + "br")):
            self.break_tag = "br"
        if self.break_tag:
            self.reading.add("page", page=1)
            self.reading.notes["pages_from"] = (
                "the layout Word last saved (w:lastRenderedPageBreak)"
                if self.break_tag == "rendered"
                else "explicit page breaks"
            )
        stack = list(reversed(list(body)))
        while stack:
            el = stack.pop()
            tag = el.tag
            if tag == W + "p":
                boxes: list = []
                text = self.text(el, boxes)
                kind, level, label = self.kind(el)
                if text.strip():
                    extra = None
                    if label and kind == "item":
                        extra = {"number": label}
                    elif label:
                        text = f"{label} {text}"
                    self.reading.add(kind, text, level=level, engine="python-docx", extra=extra)
                for rid in self.charts:
                    title, rows = self.chart(rid)
                    if title:
                        self.reading.add("paragraph", title, engine="python-docx")
                    if rows:
                        self.reading.add("table", rows=rows, engine="python-docx")
                self.charts = []
                for box in reversed(boxes):  # text boxes follow their anchor paragraph
                    stack.extend(reversed(list(box)))
                for _ in range(self.breaks):
                    self.page += 1
                    self.reading.add("page", page=self.page)
                self.breaks = 0
            elif tag == W + "tbl":
                rows = self.table(el)
                if rows:
                    self.reading.add("table", rows=rows, engine="python-docx")
            elif tag in _CONTAINERS:
                stack.extend(reversed(list(el)))


def _styles_from_xml(zf: zipfile.ZipFile) -> dict[str, str]:
    import lxml.etree

    try:
        root = lxml.etree.fromstring(transitional(zf.read("word/styles.xml")))
    except KeyError:
        return {}
    styles = {}
    for st in root.iter(W + "style"):
        name = st.find(W + "name")
        styles[st.get(W + "styleId", "")] = name.get(W + "val", "") if name is not None else ""
    return styles


def read_docx(path: Path) -> Reading:
    import docx
    import lxml.etree
    from docx.opc.exceptions import PackageNotFoundError

    reading = Reading()
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise DocumentError(f"damaged DOCX container ({exc})") from exc
    with zf:
        names = set(zf.namelist())
        main = docx_main_part(zf)
        parser = lxml.etree.XMLParser(huge_tree=True, resolve_entities=False)
        numbering_root = None
        if "word/numbering.xml" in names:
            numbering_root = lxml.etree.fromstring(transitional(zf.read("word/numbering.xml")), parser)
        rel_name = posixpath.join(posixpath.dirname(main), "_rels", posixpath.basename(main) + ".rels")
        rels: dict[str, str] = {}
        targets: dict[str, str] = {}
        if rel_name in names:
            for rel in lxml.etree.fromstring(zf.read(rel_name), parser):
                rid, target = rel.get("Id", ""), rel.get("Target", "")
                if rel.get("TargetMode") == "External":
                    rels[rid] = target
                targets[rid] = posixpath.normpath(posixpath.join(posixpath.dirname(main), target))

        def chart(rid: str | None):
            name = targets.get(rid or "")
            if not name or name not in names:
                return None, []
            return chart_table(transitional(zf.read(name)), format_number)

        try:
            doc = docx.Document(str(path))
            body = doc.element.body
            styles = {s.style_id: (s.name or "") for s in doc.styles}
            props = doc.core_properties
            reading.title = props.title or None
            if props.created:
                reading.date = props.created.date().isoformat()
            reading.use("python-docx")
        except (PackageNotFoundError, KeyError, ValueError, lxml.etree.XMLSyntaxError) as exc:
            # OOXML Strict, or a package python-docx refuses (such as one nested deeper than its
            # parser allows): read the XML itself.
            try:
                root = lxml.etree.fromstring(transitional(zf.read(main)), parser)
            except (KeyError, lxml.etree.XMLSyntaxError) as inner:
                raise DocumentError(f"not a readable DOCX ({type(exc).__name__}: {exc})") from inner
            body = root.find(W + "body")
            if body is None:
                raise DocumentError("DOCX without a document body") from exc
            styles = _styles_from_xml(zf)
            reading.use("ooxml-xml")
            reading.notes["engine_note"] = f"python-docx refused the package ({exc}); read from its XML"
        _Walker(reading, styles, rels, _Numbering(numbering_root), chart).walk(body)
        reading.reference = docx_reference(zf)
    if reading.title is None:
        first = next((b for b in reading.blocks if b.kind == "heading"), None)
        reading.title = " ".join(first.text.split()) if first else None
    return reading
