"""A progress bar on a terminal, plain lines otherwise."""

from __future__ import annotations

import io

from mdcx.convert import Progress
from mdcx.convert._cli import Reporter


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


EVENTS = [
    Progress("notice", "docling layout models not found"),
    Progress("planned", "2 documents, 2 units to convert", 0, 2),
    Progress("unit", "coverage 100.00%", 1, 2, "a.pdf", "converted", 10),
    Progress("unit", "encrypted PDF", 2, 2, "b.pdf", "failed", 0),
    Progress("finished", "", 2, 2),
]


def test_plain_lines_when_not_a_terminal() -> None:
    out = io.StringIO()
    reporter = Reporter(out)
    for event in EVENTS:
        reporter(event)
    lines = out.getvalue().splitlines()
    assert lines[0] == "notice: docling layout models not found"
    assert "1/2 converted a.pdf: coverage 100.00%" in lines
    assert "2/2 failed b.pdf: encrypted PDF" in lines
    assert "\r" not in out.getvalue()


def test_bar_on_a_terminal() -> None:
    out = _Terminal()
    reporter = Reporter(out)
    for event in EVENTS:
        reporter(event)
    text = out.getvalue()
    assert "\r[############............] 1/2" in text and "pages/s" in text
    assert "] 2/2" in text and text.endswith("\n")
