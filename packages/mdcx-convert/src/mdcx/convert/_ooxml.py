"""Independent references for Office documents: their XML read with xml.etree.

These readers share nothing with python-docx, python-pptx or openpyxl, so a
word those engines drop shows up as lost.  Alternate content (``mc:Fallback``)
duplicates what ``mc:Choice`` holds and is not counted twice.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
import zipfile

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
M = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
S = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"


def _texts(root: ET.Element, tags: set[str], breaks: set[str]) -> str:
    """Text of ``tags`` in document order, skipping fallback copies (iteratively).

    Runs of an equation are separate symbols: each counts on its own.
    """
    out: list[str] = []
    stack = [root]
    while stack:
        el = stack.pop()
        if el.tag == MC_FALLBACK:
            continue
        if el.tag == M + "t" and el.text:
            out.append(" " + el.text + " ")
        elif el.tag in tags and el.text:
            out.append(el.text)
        elif el.tag in breaks:
            out.append("\n")
        stack.extend(reversed(list(el)))
    return "".join(out)


_STRICT = (
    (
        b"http://purl.oclc.org/ooxml/wordprocessingml/main",
        b"http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    ),
    (
        b"http://purl.oclc.org/ooxml/officeDocument/relationships",
        b"http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    ),
    (
        b"http://purl.oclc.org/ooxml/officeDocument/math",
        b"http://schemas.openxmlformats.org/officeDocument/2006/math",
    ),
    (b"http://purl.oclc.org/ooxml/drawingml/main", b"http://schemas.openxmlformats.org/drawingml/2006/main"),
    (
        b"http://purl.oclc.org/ooxml/drawingml/chart",
        b"http://schemas.openxmlformats.org/drawingml/2006/chart",
    ),
)


def transitional(xml: bytes) -> bytes:
    """OOXML Strict markup with its namespaces renamed to the Transitional ones."""
    for strict, usual in _STRICT:
        xml = xml.replace(strict, usual)
    return xml


def docx_main_part(zf: zipfile.ZipFile) -> str:
    """The main document part's name (usually word/document.xml)."""
    try:
        rels = ET.fromstring(zf.read("_rels/.rels"))
        for rel in rels:
            if rel.get("Type", "").endswith("/officeDocument"):
                return rel.get("Target", "").lstrip("/")
    except (KeyError, ET.ParseError):
        pass
    return "word/document.xml"


def docx_reference(zf: zipfile.ZipFile) -> str:
    root = ET.fromstring(transitional(zf.read(docx_main_part(zf))))
    return _texts(root, {W + "t", M + "t"}, {W + "p", W + "tab", W + "br", W + "tc", M + "oMath"})


def _slide_number(name: str) -> int:
    match = re.search(r"(\d+)\.xml$", name)
    return int(match.group(1)) if match else 0


def pptx_reference(zf: zipfile.ZipFile) -> list[str]:
    """Text of each slide, in slide-file order."""
    names = sorted(
        (n for n in zf.namelist() if re.fullmatch(r"ppt/slides/slide\d+\.xml", n)), key=_slide_number
    )
    return [_texts(ET.fromstring(zf.read(n)), {A + "t"}, {A + "p", A + "br"}) for n in names]


_DATE_IDS = set(range(14, 23)) | set(range(27, 37)) | set(range(45, 48)) | set(range(50, 59))
_QUOTED = re.compile(r'"[^"]*"|\[[^\]]*\]|\\.')


def _date_styles(zf: zipfile.ZipFile) -> set[int]:
    """Indexes of cell styles that show a number as a date or time."""
    try:
        root = ET.fromstring(zf.read("xl/styles.xml"))
    except KeyError:
        return set()
    custom = {}
    for fmt in root.iter(S + "numFmt"):
        code = _QUOTED.sub("", fmt.get("formatCode", "")).lower()
        custom[int(fmt.get("numFmtId", "0"))] = bool(re.search(r"[dmyhs]", code)) and "general" not in code
    xfs = root.find(S + "cellXfs")
    dates = set()
    for i, xf in enumerate(xfs if xfs is not None else []):
        fid = int(xf.get("numFmtId", "0"))
        if fid in _DATE_IDS or custom.get(fid):
            dates.add(i)
    return dates


def xlsx_reference(zf: zipfile.ZipFile, number: callable) -> str:
    """Shared and inline strings and the numbers of every worksheet.

    Dates, booleans and error values are left out: their text depends on the
    reader's formatting rather than on the file.
    """
    shared: list[str] = []
    if "xl/sharedStrings.xml" in zf.namelist():
        for si in ET.fromstring(zf.read("xl/sharedStrings.xml")).iter(S + "si"):
            shared.append("".join(t.text or "" for t in si.iter(S + "t") if t.text))
    dates = _date_styles(zf)
    out: list[str] = []
    sheets = [n for n in zf.namelist() if re.fullmatch(r"xl/worksheets/sheet\d+\.xml", n)]
    for name in sorted(sheets, key=_slide_number):
        for _, el in ET.iterparse(zf.open(name)):
            if el.tag != S + "c":
                continue
            kind = el.get("t", "n")
            v = el.find(S + "v")
            if kind == "s" and v is not None and v.text:
                idx = int(v.text)
                if 0 <= idx < len(shared):
                    out.append(shared[idx])
            elif kind == "inlineStr":
                out.append("".join(t.text or "" for t in el.iter(S + "t")))
            elif kind == "str" and v is not None and v.text:
                out.append(v.text)
            elif kind == "n" and v is not None and v.text and int(el.get("s", "0")) not in dates:
                try:
                    out.append(number(float(v.text)))
                except ValueError:
                    pass
            el.clear()
    return "\n".join(out)


C = "{http://schemas.openxmlformats.org/drawingml/2006/chart}"


def _values(el: ET.Element | None) -> list[str]:
    if el is None:
        return []
    points: dict[int, str] = {}
    for pt in el.iter(C + "pt"):
        v = pt.find(C + "v")
        if v is not None and v.text is not None:
            points[int(pt.get("idx", len(points)))] = v.text
    return [points[i] for i in sorted(points)]


def chart_table(xml: bytes, number: callable) -> tuple[str | None, list[list[str]]]:
    """A chart's title and its data as rows: categories down, one column per series."""
    root = ET.fromstring(xml)
    title_el = root.find(f".//{C}title")
    title = None
    if title_el is not None:
        title = " ".join(t.text for t in title_el.iter(A + "t") if t.text) or None
    area = root.find(f".//{C}plotArea")
    kinds = [
        el.tag[len(C) : -len("Chart")]
        for el in (area if area is not None else [])
        if el.tag.endswith("Chart")
    ]
    if kinds:
        kind = re.sub(r"(?<!^)(?=[A-Z])", " ", kinds[0].replace("3D", " 3D")).strip().capitalize()
        title = f"{kind} chart" + (f": {title}" if title else "")
    series = []
    categories: list[str] = []
    for ser in root.iter(C + "ser"):
        tx = ser.find(C + "tx")
        name = " ".join(_values(tx)) if tx is not None else ""
        if not name and tx is not None:
            name = " ".join(v.text or "" for v in tx.iter(C + "v"))
        cats = _values(ser.find(C + "cat"))
        vals = _values(ser.find(C + "val")) or _values(ser.find(C + "yVal"))
        if cats and not categories:
            categories = cats
        shown = []
        for v in vals:
            try:
                shown.append(number(float(v)))
            except ValueError:
                shown.append(v)
        series.append((name, shown))
    if not series:
        return title, []
    length = max([len(categories)] + [len(v) for _, v in series])
    rows = [[""] + [name for name, _ in series]]
    for i in range(length):
        rows.append(
            [categories[i] if i < len(categories) else ""] + [v[i] if i < len(v) else "" for _, v in series]
        )
    return title, rows


P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"


def comments(zf: zipfile.ZipFile) -> list[str]:
    """Reviewers' comments of an Office package, as ``[author: NAME, time: WHEN]: text`` lines."""
    names = zf.namelist()
    authors: dict[str, str] = {}
    for name in names:
        low = name.lower()
        if low.endswith(("authors.xml", "commentauthors.xml", "persons/person.xml")) or "/persons/" in low:
            try:
                root = ET.fromstring(zf.read(name))
            except ET.ParseError:
                continue
            for el in root.iter():
                if el.get("id") is not None and (el.get("name") or el.get("displayName")):
                    name_ = el.get("name") or el.get("displayName") or ""
                    initials = el.get("initials")
                    authors[el.get("id", "")] = f"{name_} ({initials})" if initials else name_
    out = []
    for name in sorted(names):
        low = name.lower()
        if not re.search(r"(comments?\d*|modernComment[^/]*|threadedComment\d*)\.xml$", name, re.I):
            continue
        if "/word/" in "/" + low or low.startswith("word/"):
            continue  # Word comments stay anchored in the text they annotate
        try:
            root = ET.fromstring(zf.read(name))
        except ET.ParseError:
            continue
        for el in root.iter():
            local = el.tag.rsplit("}", 1)[-1]
            if local not in ("cm", "comment", "threadedComment"):
                continue
            text = " ".join(
                t.text.strip()
                for t in el.iter()
                if t.tag.rsplit("}", 1)[-1] in ("t", "text") and t.text and t.text.strip()
            )
            if not text:
                continue
            who = el.get("authorId") or el.get("personId") or ""
            author = authors.get(who)
            if author is None and local == "comment":  # spreadsheet notes list their authors by index
                listed = [a.text or "" for a in root.iter(S + "author")]
                author = listed[int(who)] if who.isdigit() and int(who) < len(listed) else None
            when = el.get("created") or el.get("dt") or el.get("dT")
            label = ", ".join(
                x for x in (f"author: {author}" if author else "", f"time: {when}" if when else "") if x
            )
            out.append(f"[{label}]: {text}" if label else text)
    return out
