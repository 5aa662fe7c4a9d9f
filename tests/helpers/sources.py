"""Source plugins for the tests, installed through a real ``mdcx.sources`` entry point.

``install(folder)`` writes a minimal distribution (``*.dist-info`` with
``METADATA`` and ``entry_points.txt``) into ``folder``; with ``folder`` on
``sys.path`` (or ``PYTHONPATH`` for a child process),
``importlib.metadata.entry_points(group="mdcx.sources")`` finds these
plugins exactly as it finds an installed one.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from mdcx.sources import Candidate, FetchError, RateLimited

FOG = b"""<!doctype html><html><head><title>Fog signals</title></head><body>
<h1>Fog signals</h1><p>The siren at Cape Race carried furthest, about twenty miles in still air.</p>
<p>Bells were heard at two miles and reed horns at eight.</p></body></html>"""
BELLS = b"# Bells and horns\n\nA bell struck by the swell rings without a keeper.\n"
KEEPERS = (
    b"""<html><body><h2>Keepers' log</h2><p>Oil was carried up the tower each evening.</p></body></html>"""
)
LENS = b"# Fresnel lenses\n\nA first-order lens weighs several tonnes and floats on mercury.\n"


class ReferenceSource:
    """The reference source: the whole contract in about twenty lines, no network."""

    DOCUMENTS: ClassVar[dict] = {  # identifier: (title, date, download, bytes)
        "fog-1": ("Fog signals", "1901-05", "https://lights.example.org/fog-1.html", FOG),
        "bells-2": ("Bells and horns", "1898", "https://lights.example.org/bells-2.md", BELLS),
        "keepers/3": ("Keepers' log", None, "https://archive.example.net/keepers-3", KEEPERS),
        "lens-4": ("Fresnel lenses", "1923-07-14", "https://archive.example.net/lens-4.md", LENS),
    }

    def candidates(self):
        for identifier, (title, date, download, _) in self.DOCUMENTS.items():
            yield Candidate(identifier, title, date, download)

    def fetch(self, candidate: Candidate) -> bytes:
        try:
            return self.DOCUMENTS[candidate.identifier][3]
        except KeyError:
            raise FetchError(f"{candidate.identifier}: not in this catalogue") from None


class SkewedSource(ReferenceSource):
    """Three of its four candidates come from one host."""

    DOCUMENTS: ClassVar[dict] = {
        **ReferenceSource.DOCUMENTS,
        "keepers/3": ("Keepers' log", None, "https://lights.example.org/keepers-3", KEEPERS),
    }


class UntidySource:
    """Breaks the contract in several ways at once."""

    def candidates(self):
        yield Candidate("a", "A", "1 May 1901", "https://x.example/a")
        yield Candidate("a", "Again", None, None)
        yield Candidate("", None, None, None)
        yield object()

    def fetch(self, candidate):
        return "text, not bytes"


class TroubledSource(ReferenceSource):
    """What a real catalogue does on a bad day: a rate limit, a refusal, an image, a plugin bug."""

    DOCUMENTS: ClassVar[dict] = {
        **ReferenceSource.DOCUMENTS,
        "gone-5": ("Gone", None, "https://lights.example.org/gone-5.pdf", b""),
        "photo-6": (
            "A photograph",
            "1910",
            "https://lights.example.org/photo-6",
            b"\x89PNG\r\n\x1a\n" + b"\0" * 32,
        ),
        "bug-7": ("Buggy", None, None, b""),
    }

    def __init__(self) -> None:
        self.fetches: list[str] = []

    def fetch(self, candidate: Candidate) -> bytes:
        self.fetches.append(candidate.identifier)
        if candidate.identifier == "fog-1" and self.fetches.count("fog-1") == 1:
            raise RateLimited("lights.example.org answered 429", retry_after="0")
        if candidate.identifier == "gone-5":
            raise FetchError("lights.example.org answered 404 for gone-5")
        if candidate.identifier == "bug-7":
            raise KeyError("a plugin bug")
        return super().fetch(candidate)


ENTRY_POINTS = """[mdcx.sources]
reference = helpers.sources:ReferenceSource
skewed = helpers.sources:SkewedSource
untidy = helpers.sources:UntidySource
troubled = helpers.sources:TroubledSource
broken = helpers.no_such_module:Catalogue
"""


def install(folder: Path) -> Path:
    """Declare the plugins above in a distribution under ``folder``; returns ``folder``."""
    info = folder / "mdcx_test_sources-1.0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mdcx-test-sources\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    return folder
