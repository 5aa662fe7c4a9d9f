"""What a file is, decided from its first bytes, never from its name.

Only plain text, Markdown and CSV carry no signature: for those alone the
extension decides.  A file that is none of the supported formats comes back
with the reason it is skipped, so nothing disappears silently.  Signatures
are read by mdcx-sources' kit (``identify``), the same reading a catalogue's
bytes get; containers are then opened here, with the limits a file on disk
needs (zip bombs).
"""

from __future__ import annotations

import codecs
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from mdcx.sources import identify, looks_like

FORMATS = ("pdf", "epub", "docx", "xlsx", "pptx", "html", "md", "csv", "txt")
HEAD = 8192

_IMAGES = {"png": "PNG", "jpeg": "JPEG", "gif": "GIF", "tiff": "TIFF", "bmp": "BMP", "webp": "WEBP"}
_TEXT_SUFFIXES = {
    ".md": "md",
    ".markdown": "md",
    ".csv": "csv",
    ".tsv": "csv",
    ".txt": "txt",
    ".text": "txt",
    ".htm": "html",
    ".html": "html",
    ".xhtml": "html",
}
_HTML = re.compile(rb"<(?:!doctype\s+html|html|head|body)[\s>/]", re.I)


@dataclass(frozen=True)
class Detected:
    format: str | None  # one of FORMATS, or None when the file is skipped
    reason: str | None = None  # why it is skipped
    encoding: str | None = None  # for text formats: the encoding that decodes it


def _utf16_32_without_bom(data: bytes) -> str | None:
    sample = data[:4096]
    n = len(sample) - len(sample) % 4
    if n < 8 or b"\x00" not in sample:
        return None
    s = sample[:n]
    zeros = [s[i::4].count(0) / (n // 4) for i in range(4)]
    if zeros[1] > 0.9 and zeros[2] > 0.9 and zeros[3] > 0.9:
        return "utf-32-le"
    if zeros[0] > 0.9 and zeros[1] > 0.9 and zeros[2] > 0.9:
        return "utf-32-be"
    even = s[0::2].count(0) / (n // 2)
    odd = s[1::2].count(0) / (n // 2)
    if odd > 0.6 and even < 0.1:
        return "utf-16-le"
    if even > 0.6 and odd < 0.1:
        return "utf-16-be"
    return None


def text_encoding(data: bytes) -> str | None:
    """The encoding that decodes ``data`` as text, or None for binary data.

    Byte-order marks first (UTF-8, UTF-32, UTF-16), then UTF-16/32 recognised
    by their zero bytes, then strict UTF-8, then cp1252, then Latin-1 for
    anything else that holds no control bytes.
    """
    if data.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "utf-32"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    wide = _utf16_32_without_bom(data)
    if wide:
        return wide
    if b"\x00" in data:
        return None
    try:
        data.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError as exc:
        if exc.start >= len(data) - 3 and len(data) >= HEAD:  # a character cut by the sample
            return "utf-8"
    controls = sum(1 for b in data[:HEAD] if b < 32 and b not in (9, 10, 12, 13, 27))
    if controls > 2:
        return None
    try:
        data.decode("cp1252")
        return "cp1252"
    except UnicodeDecodeError:
        return "latin-1"


def decode_text(data: bytes, encoding: str | None = None) -> tuple[str, str]:
    """``(text, encoding)``; undecodable bytes become U+FFFD rather than failing."""
    enc = encoding or text_encoding(data) or "utf-8"
    text = data.decode(enc, errors="replace")
    return text.lstrip("\ufeff"), enc


MAX_INFLATED = 4 * 1024**3  # a container that inflates past this is refused (a zip bomb)
MAX_RATIO = 1000  # nor may it inflate more than this many times its size on disk


def _zip_format(path: Path) -> Detected:
    try:
        with zipfile.ZipFile(path) as zf:
            inflated = sum(info.file_size for info in zf.infolist())
            if inflated > MAX_INFLATED or inflated > MAX_RATIO * max(path.stat().st_size, 1):
                return Detected(
                    None, f"ZIP container inflating to {inflated:,} bytes; refused as a likely zip bomb"
                )
            names = set(zf.namelist())
            mimetype = b""
            if "mimetype" in names:
                mimetype = zf.read("mimetype")[:100].strip()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError) as exc:
        return Detected(None, f"damaged ZIP container ({exc}); cannot tell which document it holds")
    if mimetype == b"application/epub+zip" or (
        "META-INF/container.xml" in names and any(n.endswith(".opf") for n in names)
    ):
        return Detected("epub")
    if "word/document.xml" in names:
        return Detected("docx")
    if "xl/workbook.xml" in names:
        return Detected("xlsx")
    if "ppt/presentation.xml" in names:
        return Detected("pptx")
    if mimetype.startswith(b"application/vnd.oasis.opendocument"):
        return Detected(None, f"OpenDocument ({mimetype.decode('ascii', 'replace')}) is not supported")
    return Detected(None, "ZIP archive that is not an EPUB or Office document")


def _ole2_format(path: Path, suffix: str) -> Detected:
    try:
        data = path.read_bytes()[: 8 * 1024 * 1024]
    except OSError as exc:
        return Detected(None, f"cannot be read ({exc.strerror or exc})")
    if "EncryptedPackage".encode("utf-16-le") in data:
        return Detected(None, "encrypted Office document (password protected); save it without a password")
    kinds = (
        ("WordDocument", "legacy Word .doc"),
        ("Workbook", "legacy Excel .xls"),
        ("Book", "legacy Excel .xls"),
        ("PowerPoint Document", "legacy PowerPoint .ppt"),
    )
    for stream, kind in kinds:
        if stream.encode("utf-16-le") in data:
            return Detected(None, f"{kind} (binary OLE2) is not supported; save it as .docx/.xlsx/.pptx")
    return Detected(None, f"OLE2 compound file ({suffix or 'no extension'}) is not a supported format")


def detect(path: Path) -> Detected:
    """The format of the file at ``path`` from its content."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(HEAD)
    except OSError as exc:
        return Detected(None, f"cannot be read ({exc.strerror or exc})")
    suffix = path.suffix.lower()
    if not head:
        return Detected(None, "empty file (0 bytes)")
    kind = identify(head)
    if kind == "pdf":
        return Detected("pdf")
    if kind is not None and looks_like(head, "zip"):  # the head of a container: open the whole file
        return _zip_format(path)
    if kind is not None and looks_like(head, "ole2"):
        return _ole2_format(path, suffix)
    if kind == "rtf":
        return Detected(None, "RTF is not supported; save it as .docx")
    if kind in _IMAGES:
        return Detected(None, f"{_IMAGES[kind]} image: images are read only inside PDFs")
    if kind == "gzip":
        return Detected(None, "gzip-compressed file; decompress it first")
    encoding = text_encoding(head)
    if encoding is None:
        return Detected(None, "binary file of unknown format")
    sample = head.decode(encoding, errors="replace").lstrip("\ufeff \t\r\n").encode("utf-8", "replace")
    if sample.startswith(b"<") and _HTML.search(sample[:4096]):  # markup from the first character on
        return Detected("html", encoding=encoding)
    fmt = _TEXT_SUFFIXES.get(suffix)
    if fmt is None:
        what = f"'{suffix}'" if suffix else "no extension"
        return Detected(None, f"text file with {what}: only .txt, .md and .csv are read as text")
    return Detected(fmt, encoding=encoding)
