"""Regenerate the sample documents in examples/documents (written for this project; free to reuse).

    uv run python examples/make_documents.py

They are tiny on purpose: a two-page PDF with a ruled table, a Word file with
a heading, a list and a table, and an HTML page; the README's first command
converts them, packs them and asks them a question.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

HERE = Path(__file__).resolve().parent / "documents"
FIXED = dt.datetime(2024, 5, 2, 9, 0, tzinfo=dt.UTC)


def pdf(path: Path) -> None:
    from fpdf import FPDF

    doc = FPDF()
    doc.set_creation_date(FIXED)
    doc.set_title("Fog signal trials at Point Aven")
    doc.set_font("Helvetica", size=11)
    doc.add_page()
    doc.set_font("Helvetica", "B", 14)
    doc.cell(0, 10, "Fog signal trials at Point Aven", new_x="LMARGIN", new_y="NEXT")
    doc.set_font("Helvetica", size=11)
    doc.multi_cell(
        0,
        6,
        "When fog hides the light, a lighthouse warns ships with sound. The keepers at Point Aven "
        "compared three fog signals over one winter: a reed horn, a siren and an electric emitter. "
        "Each signal sounds its own pattern of blasts so that a navigator can tell the station by ear.",
    )
    doc.ln(4)
    rows = [["Signal", "Range (nautical miles)", "Blasts every"], ["Reed horn", "2", "30 s"],
            ["Siren", "4", "60 s"], ["Electric emitter", "3", "20 s"]]  # fmt: skip
    for row in rows:
        for cell in row:
            doc.cell(60, 8, cell, border=1)
        doc.ln(8)
    doc.add_page()
    doc.multi_cell(
        0,
        6,
        "The siren carried furthest but needed steam or compressed air. The keepers recommended the "
        "electric emitter for unattended stations, since it starts by itself when the visibility "
        "sensor reports fog.",
    )
    doc.output(str(path))


def docx(path: Path) -> None:
    import docx as python_docx

    doc = python_docx.Document()
    doc.core_properties.title = "Keeper's checklist for foggy nights"
    doc.core_properties.created = FIXED.replace(tzinfo=None)
    doc.add_heading("Keeper's checklist for foggy nights", 1)
    doc.add_paragraph("Start the fog signal as soon as the far buoy can no longer be seen from the gallery.")
    for item in ("Log the time the fog signal was started", "Check the lamp and the spare bulb",
                 "Listen for ships' horns and answer on the radio"):  # fmt: skip
        doc.add_paragraph(item, style="List Bullet")
    table = doc.add_table(rows=3, cols=2)
    for r, (a, b) in enumerate(
        [
            ("Visibility", "Action"),
            ("Under 2 miles", "Fog signal on"),
            ("Under 0.5 miles", "Call the coastguard"),
        ]
    ):
        table.cell(r, 0).text, table.cell(r, 1).text = a, b
    doc.save(str(path))


HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Reading a light's character</title></head>
<body>
<h1>Reading a light's character</h1>
<p>Every lighthouse flashes in its own rhythm, written on charts as its <em>character</em>:
<code>Fl(2) 10s</code> means two flashes every ten seconds.</p>
<ul><li>Fl: flashing, more dark than light</li><li>Oc: occulting, more light than dark</li>
<li>Iso: isophase, equal light and dark</li></ul>
<p>In fog the light may not be seen at all, which is why stations also carry a fog signal.</p>
</body></html>
"""


def main() -> None:
    HERE.mkdir(exist_ok=True)
    pdf(HERE / "fog-signal-trials.pdf")
    docx(HERE / "foggy-night-checklist.docx")
    (HERE / "light-characters.html").write_text(HTML, encoding="utf-8")


if __name__ == "__main__":
    main()
