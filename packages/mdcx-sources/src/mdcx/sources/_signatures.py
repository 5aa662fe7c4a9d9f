"""What bytes are, from their signature, never from a declared type.

A catalogue's ``Content-Type`` header or file name says what the server
thinks it sends; a login page served as ``application/pdf`` is still HTML.
``identify`` reads the bytes instead: magic numbers for most formats, the
parts list of a ZIP container for Office and EPUB, the opening markup for
HTML.  Plain text has no signature, so it is not identified (None).
"""

from __future__ import annotations

import codecs
import io
import re
import struct
import zipfile

ZIP_KINDS = ("docx", "xlsx", "pptx", "epub", "odt", "ods", "odp", "odg", "zip")
OLE2_KINDS = ("doc", "xls", "ppt", "ole2")
KINDS = (
    "pdf",
    *ZIP_KINDS,
    *OLE2_KINDS,
    "rtf",
    "html",
    "png",
    "jpeg",
    "gif",
    "tiff",
    "bmp",
    "webp",
    "gzip",
)
_ALIASES = {"jpg": "jpeg", "tif": "tiff", "htm": "html", "xhtml": "html", "gz": "gzip", "cfb": "ole2"}

_PREFIXES = (
    (b"\x89PNG\r\n\x1a\n", "png"),
    (b"\xff\xd8\xff", "jpeg"),
    (b"GIF87a", "gif"),
    (b"GIF89a", "gif"),
    (b"II*\x00", "tiff"),
    (b"MM\x00*", "tiff"),
    (b"{\\rtf", "rtf"),
    (b"\x1f\x8b\x08", "gzip"),
)
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_OLE2_STREAMS = (  # stream names are UTF-16 in the directory sectors
    ("WordDocument", "doc"),
    ("Workbook", "xls"),
    ("Book", "xls"),
    ("PowerPoint Document", "ppt"),
)
# The main part's content type in [Content_Types].xml names the document,
# whatever the part is called; macro-enabled and template variants included.
_OOXML_TYPES = (
    ("wordprocessingml.document.main+xml", "docx"),
    ("wordprocessingml.template.main+xml", "docx"),
    ("ms-word.document.macroenabled.main+xml", "docx"),
    ("ms-word.template.macroenabledtemplate.main+xml", "docx"),
    ("spreadsheetml.sheet.main+xml", "xlsx"),
    ("spreadsheetml.template.main+xml", "xlsx"),
    ("ms-excel.sheet.macroenabled.main+xml", "xlsx"),
    ("ms-excel.template.macroenabled.main+xml", "xlsx"),
    ("presentationml.presentation.main+xml", "pptx"),
    ("presentationml.slideshow.main+xml", "pptx"),
    ("presentationml.template.main+xml", "pptx"),
    ("ms-powerpoint.presentation.macroenabled.main+xml", "pptx"),
    ("ms-powerpoint.slideshow.macroenabled.main+xml", "pptx"),
)
_OOXML_PARTS = (("word/document.xml", "docx"), ("xl/workbook.xml", "xlsx"), ("ppt/presentation.xml", "pptx"))
_OPENDOCUMENT = {
    b"application/vnd.oasis.opendocument.text": "odt",
    b"application/vnd.oasis.opendocument.spreadsheet": "ods",
    b"application/vnd.oasis.opendocument.presentation": "odp",
    b"application/vnd.oasis.opendocument.graphics": "odg",
}
_HTML = re.compile(rb"<(?:!doctype\s+html|html|head|body)[\s>/]", re.I)
_SMALL_PART = 1 << 20  # [Content_Types].xml and mimetype are tiny; never inflate more to identify


def _canonical(kind: str) -> str:
    name = kind.strip().lower().lstrip(".")
    name = _ALIASES.get(name, name)
    if name not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; known kinds: {', '.join(KINDS)}")
    return name


def _read_small(zf: zipfile.ZipFile, name: str) -> bytes:
    with zf.open(name) as fh:
        return fh.read(_SMALL_PART)


def _ooxml(zf: zipfile.ZipFile, names: set[str]) -> str | None:
    from xml.etree import ElementTree  # only ZIP containers need it

    if "[Content_Types].xml" in names:
        try:
            root = ElementTree.fromstring(_read_small(zf, "[Content_Types].xml"))
        except ElementTree.ParseError:
            root = None
        if root is not None:
            for element in root:
                content_type = (element.get("ContentType") or "").lower()
                for suffix, kind in _OOXML_TYPES:
                    if content_type.endswith(suffix):
                        return kind
    for part, kind in _OOXML_PARTS:
        if part in names:
            return kind
    return None


def _zip_kind(data: bytes) -> str:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            names = set(zf.namelist())
            mimetype = _read_small(zf, "mimetype").strip() if "mimetype" in names else b""
            if mimetype == b"application/epub+zip" or (
                "META-INF/container.xml" in names and any(n.endswith(".opf") for n in names)
            ):
                return "epub"
            if mimetype in _OPENDOCUMENT:
                return _OPENDOCUMENT[mimetype]
            return _ooxml(zf, names) or "zip"
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError, RuntimeError):
        return _zip_head_kind(data)


def _zip_head_kind(data: bytes) -> str:
    """EPUB and OpenDocument put an uncompressed ``mimetype`` first, readable even in a truncated file."""
    if len(data) >= 30 and data.startswith(b"PK\x03\x04"):
        size = struct.unpack("<I", data[18:22])[0]
        name_length, extra_length = struct.unpack("<HH", data[26:30])
        if data[30 : 30 + name_length] == b"mimetype" and size <= 100:
            start = 30 + name_length + extra_length
            value = data[start : start + size].strip()
            if value == b"application/epub+zip":
                return "epub"
            if value in _OPENDOCUMENT:
                return _OPENDOCUMENT[value]
    return "zip"


def _ole2_kind(data: bytes) -> str:
    if "EncryptedPackage".encode("utf-16-le") in data:
        return "ole2"  # a password-protected OOXML file: its type is sealed inside
    for stream, kind in _OLE2_STREAMS:
        if stream.encode("utf-16-le") in data:
            return kind
    return "ole2"


def _is_bmp(data: bytes) -> bool:
    # "BM" alone starts ordinary words; the reserved zeros and a known header size make it a bitmap.
    if len(data) < 18 or not data.startswith(b"BM"):
        return False
    reserved, header = struct.unpack("<I", data[6:10])[0], struct.unpack("<I", data[14:18])[0]
    return reserved == 0 and header in (12, 16, 40, 52, 56, 64, 108, 124)


def _is_html(data: bytes) -> bool:
    head = data[:4096]
    for bom, encoding in (
        (codecs.BOM_UTF32_LE, "utf-32-le"),
        (codecs.BOM_UTF32_BE, "utf-32-be"),
        (codecs.BOM_UTF16_LE, "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be"),
        (codecs.BOM_UTF8, "utf-8"),
    ):
        if head.startswith(bom):
            head = head[len(bom) :].decode(encoding, "replace").encode("utf-8", "replace")
            break
    # Markup from the first character on: a text that merely mentions <html> later is not HTML.
    head = head.lstrip(b" \t\r\n\f")
    return head.startswith(b"<") and _HTML.search(head) is not None


def identify(data: bytes) -> str | None:
    """The kind of ``data`` (one of ``KINDS``) from its signature, or None when it has none.

    Office and EPUB files are ZIP containers told apart by their parts, so
    give the whole file for those; a truncated one comes back as ``zip``
    (EPUB and OpenDocument are still recognised from their first entry).
    Plain text, Markdown, CSV and JSON carry no signature: None.
    """
    data = bytes(data)  # bytearray and memoryview too; bytes are not copied
    if not data:
        return None
    if b"%PDF-" in data[:1024]:  # readers accept the header anywhere in the first KiB
        return "pdf"
    if data.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return _zip_kind(data)
    if data.startswith(_OLE2):
        return _ole2_kind(data[: 8 << 20])
    for magic, kind in _PREFIXES:
        if data.startswith(magic):
            return kind
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return "webp"
    if _is_bmp(data):
        return "bmp"
    if _is_html(data):
        return "html"
    return None


def looks_like(data: bytes, kind: str) -> bool:
    """Whether ``data`` is of ``kind`` by its signature (``looks_like(data, "pdf")``).

    ``zip`` holds for every ZIP-based kind (a DOCX is a ZIP archive) and
    ``ole2`` for every OLE2-based one; aliases such as ``jpg`` and ``tif``
    are accepted.  An unknown kind raises ``ValueError`` naming the known ones.
    """
    wanted = _canonical(kind)
    found = identify(data)
    if wanted == "zip":
        return found in ZIP_KINDS
    if wanted == "ole2":
        return found in OLE2_KINDS
    return found == wanted
