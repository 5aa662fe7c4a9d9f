"""EPUB: the spine's XHTML documents in reading order, through the HTML engine."""

from __future__ import annotations

import posixpath
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path
from urllib.parse import unquote

from ._errors import DocumentError
from ._html import html_into, reference_text
from ._reading import Reading

_MAX_MEMBER = 256 * 1024 * 1024  # refuse members that inflate past this (zip bombs)
_HTML_TYPES = ("application/xhtml+xml", "text/html", "application/xml")


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _read(zf: zipfile.ZipFile, name: str) -> bytes:
    info = zf.getinfo(name)
    if info.file_size > _MAX_MEMBER:
        raise DocumentError(f"EPUB member {name} inflates to {info.file_size} bytes; refused")
    return zf.read(name)


def _spine(zf: zipfile.ZipFile) -> tuple[list[str], dict[str, str]]:
    try:
        container = ET.fromstring(_read(zf, "META-INF/container.xml"))
        opf_path = next(e.get("full-path") for e in container.iter() if _local(e.tag) == "rootfile")
    except (KeyError, StopIteration, ET.ParseError) as exc:
        opfs = [n for n in zf.namelist() if n.endswith(".opf")]
        if not opfs:
            raise DocumentError("EPUB without a package document (.opf)") from exc
        opf_path = opfs[0]
    try:
        opf = ET.fromstring(_read(zf, opf_path or ""))
    except (KeyError, ET.ParseError) as exc:
        raise DocumentError(f"EPUB package document unreadable ({exc})") from exc
    base = posixpath.dirname(opf_path or "")
    manifest: dict[str, tuple[str, str]] = {}
    meta: dict[str, str] = {}
    spine: list[str] = []
    for el in opf.iter():
        name = _local(el.tag)
        if name == "item" and el.get("id") and el.get("href"):
            href = posixpath.normpath(posixpath.join(base, unquote(el.get("href", ""))))
            manifest[el.get("id", "")] = (href, el.get("media-type", ""))
        elif name == "itemref" and el.get("idref"):
            spine.append(el.get("idref", ""))
        elif name in ("title", "date", "language") and el.text and name not in meta:
            meta[name] = el.text.strip()
    docs = []
    for idref in spine:
        href, media = manifest.get(idref, ("", ""))
        if href and (media in _HTML_TYPES or href.endswith((".xhtml", ".html", ".htm"))):
            docs.append(href)
    return docs, meta


def read_epub(path: Path) -> Reading:
    reading = Reading()
    reading.use("html.parser")
    references: list[str] = []
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise DocumentError(f"damaged EPUB container ({exc})") from exc
    with zf:
        docs, meta = _spine(zf)
        names = set(zf.namelist())
        for href in docs:
            if href not in names:
                reading.findings.append(f"spine document {href} is missing from the EPUB")
                continue
            data = _read(zf, href)
            text = data.decode("utf-8", errors="replace")
            html_into(reading, text)
            references.append(reference_text(data))
    reading.title = meta.get("title")
    reading.date = meta.get("date")
    if meta.get("language"):
        reading.notes["language"] = meta["language"]
    reading.notes["spine_documents"] = len(docs)
    reading.reference = "\n".join(references)
    return reading
