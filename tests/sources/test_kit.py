"""The kit every source plugin shares: signatures, patience with rate limits."""

from __future__ import annotations

import datetime as dt
import io
import zipfile

import pytest
from conftest import corpus_path
from mdcx.sources import KINDS, FetchError, RateLimited, identify, looks_like, patiently, retry_after_seconds

FILES = [  # (corpus, file, kind) — real files written by others
    ("docling-testdata", "pdf/sources/multi_page.pdf", "pdf"),
    ("docling-testdata", "docx/sources/word_sample.docx", "docx"),
    ("docling-testdata", "docx/sources/Strict.docx", "docx"),
    ("docling-testdata", "pptx/sources/powerpoint_sample.pptx", "pptx"),
    ("docling-testdata", "xlsx/sources/xlsx_01.xlsx", "xlsx"),
    ("docling-testdata", "xlsx/sources/xlsx_02_sample_sales_data.xlsm", "xlsx"),
    ("docling-testdata", "epub/sources/epub_purvis_poetry.epub", "epub"),
    ("docling-testdata", "html/sources/wiki_duck.html", "html"),
    ("docling-testdata", "html/sources/example_image_01.png", "png"),
    ("docling-testdata", "tiff/sources/2206.01062.tif", "tiff"),
    ("docling-testdata", "webp/sources/webp-test.webp", "webp"),
    ("docling-testdata", "md/sources/wiki.md", None),
    ("docling-testdata", "csv/sources/csv-semicolon.csv", None),
    ("unstructured-example-docs", "fake-html-pre.htm", "html"),
    ("unstructured-example-docs", "example-steelJIS-datasheet-utf-16.html", "html"),
    ("unstructured-example-docs", "fake.doc", "doc"),
    ("unstructured-example-docs", "tests-example.xls", "xls"),
    ("unstructured-example-docs", "fake-power-point.ppt", "ppt"),
    ("unstructured-example-docs", "password_protected.xlsx", "ole2"),
    ("unstructured-example-docs", "fake.odt", "odt"),
    ("unstructured-example-docs", "fake-doc.rtf", "rtf"),
    ("unstructured-example-docs", "simple.zip", "zip"),
    ("unstructured-example-docs", "img/example.jpg", "jpeg"),
    ("unstructured-example-docs", "img/bmp_24.bmp", "bmp"),
    ("unstructured-example-docs", "img/layout-parser-paper-fast.tiff", "tiff"),
    ("unstructured-example-docs", "winter-sports.epub", "epub"),
    ("unstructured-example-docs", "factbook.xml", None),
    ("unstructured-example-docs", "simple.json", None),
    ("unstructured-example-docs", "fake-text.txt", None),
    ("unstructured-example-docs", "fake-email.eml", None),
    ("unstructured-example-docs", "empty.txt", None),
]


@pytest.mark.parametrize(("corpus", "name", "kind"), FILES, ids=[f[1] for f in FILES])
def test_identify_real_files(corpus: str, name: str, kind: str | None) -> None:
    data = (corpus_path(corpus) / name).read_bytes()
    assert identify(data) == kind
    if kind is not None:
        assert looks_like(data, kind)


def _zip(entries: dict[str, bytes], stored_first: str | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        if stored_first:
            zf.writestr(zipfile.ZipInfo(stored_first), entries.pop(stored_first), zipfile.ZIP_STORED)
        for name, data in entries.items():
            zf.writestr(name, data)
    return buffer.getvalue()


CONTENT_TYPES = (
    b'<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    b'<Override PartName="/w/main.xml" ContentType="application/vnd.openxmlformats-officedocument.'
    b'wordprocessingml.document.main+xml"/></Types>'
)


def test_office_is_told_by_its_content_types_not_its_part_names() -> None:
    docx = _zip({"[Content_Types].xml": CONTENT_TYPES, "w/main.xml": b"<w:document/>"})
    assert identify(docx) == "docx"
    assert looks_like(docx, "zip") and looks_like(docx, "docx") and not looks_like(docx, "xlsx")
    assert identify(_zip({"[Content_Types].xml": b"<Types/>", "xl/workbook.xml": b"<workbook/>"})) == "xlsx"
    assert identify(_zip({"notes.txt": b"a plain archive"})) == "zip"


def test_truncated_containers_still_say_what_they_can() -> None:
    epub = _zip({"mimetype": b"application/epub+zip", "META-INF/container.xml": b"<c/>"}, "mimetype")
    assert identify(epub[:60]) == "epub"  # the first entry survives the cut
    odp = _zip({"mimetype": b"application/vnd.oasis.opendocument.presentation"}, "mimetype")
    assert identify(odp[:100]) == "odp"
    docx = _zip({"[Content_Types].xml": CONTENT_TYPES, "w/main.xml": b"<w:document/>"})
    assert identify(docx[:40]) == "zip"


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        (b"\n\n%PDF-1.7\n", "pdf"),  # junk before the header, as readers allow
        (b"\xef\xbb\xbf  <!DOCTYPE html><html lang=en>", "html"),
        ("<html><body>wide</body></html>".encode("utf-16"), "html"),
        (b"<?xml version='1.0'?><html xmlns='http://www.w3.org/1999/xhtml'>", "html"),
        (b"Notes on <html> tags, in prose", None),  # markup must come first
        (b"BMW and BMX are words, not bitmaps", None),
        (b"\x1f\x8b\x08\x00\x00\x00\x00\x00", "gzip"),
        (b"GIF89a\x01\x00", "gif"),
        (b"", None),
        (bytearray(b"%PDF-1.4"), "pdf"),
    ],
)
def test_identify_signatures(data: bytes, kind: str | None) -> None:
    assert identify(data) == kind


def test_looks_like_takes_aliases_and_refuses_unknown_kinds() -> None:
    assert looks_like(b"\xff\xd8\xff\xe0", "jpg") and looks_like(b"\xff\xd8\xff\xe0", "JPEG")
    assert not looks_like(b"%PDF-1.4", "html")
    with pytest.raises(ValueError, match="known kinds"):
        looks_like(b"%PDF-1.4", "pdfx")
    assert "pdf" in KINDS and "docx" in KINDS


class Clock:
    """A wall clock that moves only when slept on."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0
        self.slept: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds

    def time(self) -> float:
        return self.now


def refusing(times: int, retry_after: object = None, then: object = b"ok"):
    calls = []

    def call():
        calls.append(1)
        if len(calls) <= times:
            raise RateLimited("429 from example.org", retry_after=retry_after)
        return then

    return call, calls


def test_patiently_honours_retry_after_in_seconds() -> None:
    clock = Clock()
    call, calls = refusing(2, retry_after="7")
    assert patiently(call, sleep=clock.sleep, now=clock.time) == b"ok"
    assert clock.slept == [7.0, 7.0] and len(calls) == 3


def test_patiently_honours_retry_after_as_an_http_date() -> None:
    clock = Clock()
    when = dt.datetime.fromtimestamp(clock.now + 42, dt.UTC)
    stamp = when.strftime("%a, %d %b %Y %H:%M:%S GMT")
    call, _ = refusing(1, retry_after=stamp)
    assert patiently(call, sleep=clock.sleep, now=clock.time) == b"ok"
    assert clock.slept == [pytest.approx(42, abs=1)]


def test_patiently_backs_off_when_no_delay_is_named() -> None:
    clock = Clock()
    call, _ = refusing(3)
    patiently(call, sleep=clock.sleep, now=clock.time)
    assert clock.slept == [1.0, 2.0, 4.0]


def test_patiently_gives_up_after_its_attempts() -> None:
    clock = Clock()
    call, calls = refusing(10, retry_after=1)
    with pytest.raises(RateLimited, match="gave up after 3 attempts") as caught:
        patiently(call, attempts=3, sleep=clock.sleep, now=clock.time)
    assert len(calls) == 3 and clock.slept == [1.0, 1.0]
    assert caught.value.retry_after == 1 and isinstance(caught.value, FetchError)


def test_patiently_never_waits_past_its_bound() -> None:
    clock = Clock()
    call, calls = refusing(10, retry_after="3600")
    with pytest.raises(RateLimited, match="past the 300 s allowed"):
        patiently(call, sleep=clock.sleep, now=clock.time)
    assert clock.slept == [] and len(calls) == 1
    call, calls = refusing(10, retry_after=40)
    with pytest.raises(RateLimited, match="80 s waited"):
        patiently(call, longest=100, attempts=10, sleep=clock.sleep, now=clock.time)
    assert clock.slept == [40.0, 40.0] and len(calls) == 3


def test_patiently_lets_other_errors_through_at_once() -> None:
    def call():
        raise FetchError("404")

    with pytest.raises(FetchError, match="404"):
        patiently(call, sleep=pytest.fail)


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("120", 120.0),
        (" 1.5 ", 1.5),
        (30, 30.0),
        ("-5", 0.0),
        ("Thu, 01 Jan 1970 00:00:00 GMT", 0.0),  # a date in the past: no wait
        (dt.datetime.fromtimestamp(1_000_060, dt.UTC), 60.0),
        ("soon", None),
        (None, None),
        ("nan", None),
    ],
)
def test_retry_after_values(value: object, seconds: float | None) -> None:
    assert retry_after_seconds(value, 1_000_000.0) == seconds
