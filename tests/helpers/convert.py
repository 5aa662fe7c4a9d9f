"""Small real documents made on the fly for mdcx-convert's tests."""

from __future__ import annotations

from pathlib import Path

TABLE = [
    ["Region", "Units", "Revenue"],
    ["North", "117", "1,234.50"],
    ["South", "98", "1,020.00"],
    ["East", "143", "1,587.25"],
]


def ruled_table_pdf(path: Path, pages: int = 1) -> Path:
    """A PDF whose first page has a paragraph and a table drawn with rules (fpdf2 cell borders)."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    for number in range(1, pages + 1):
        pdf.add_page()
        pdf.multi_cell(0, 6, f"Quarterly report page {number}. Sales grew in every region this quarter.")
        pdf.ln(4)
        if number == 1:
            for row in TABLE:
                for cell in row:
                    pdf.cell(45, 8, cell, border=1)
                pdf.ln(8)
            pdf.ln(4)
            pdf.multi_cell(0, 6, "The table above lists units and revenue by region.")
    pdf.output(str(path))
    return path


def text_pdf(path: Path, pages: int, words_per_page: int = 60) -> Path:
    """A born-digital PDF of ``pages`` pages, each naming its own page number."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("Helvetica", size=10)
    for number in range(1, pages + 1):
        pdf.add_page()
        body = " ".join(f"word{number}x{i}" for i in range(words_per_page))
        pdf.multi_cell(0, 5, f"Page marker text {number}. {body}")
    pdf.output(str(path))
    return path


def docx(path: Path) -> Path:
    import docx as python_docx

    doc = python_docx.Document()
    doc.core_properties.title = "Harbour inspection"
    doc.add_heading("Harbour inspection", 1)
    doc.add_paragraph("The pilot boat inspected the northern breakwater on Tuesday.")
    doc.add_paragraph("Replace the beacon lamp", style="List Bullet")
    doc.add_paragraph("Repaint the bollards", style="List Bullet")
    table = doc.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Item", "Cost"
    table.cell(1, 0).text, table.cell(1, 1).text = "Lamp", "240"
    doc.save(str(path))
    return path


SPREADSHEET = [
    ["Item", "Qty", "Unit price", "Total", "Due"],
    ["Beacon lamp", "4", "240.00", "960.00", "2024-03-01"],
    ["Bollard paint", "12", "18.50", "222.00", ""],
    ["Mooring rope", "2", "95.00", "190.00", "2024-04-15"],
    ["Fog horn", "1", "1,150.00", "1,150.00", "2024-05-30"],
]


def aligned_table_pdf(path: Path, rows: list[list[str]] = SPREADSHEET) -> Path:
    """A PDF whose table has no rules at all, as a spreadsheet prints without gridlines:
    columns held by alignment alone, words flush left, figures flush right, headings flush
    left (so a heading stands over the gap beside its figures), between two paragraphs."""
    from fpdf import FPDF

    pdf = FPDF(unit="pt", format="A4")
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    pdf.set_xy(56, 60)
    pdf.multi_cell(
        480, 13, "Harbour works ordered this spring are listed below with their quantities and prices."
    )
    numeric = [
        all(r[c].replace(",", "").replace(".", "").isdigit() for r in rows[1:] if r[c])
        for c in range(len(rows[0]))
    ]
    widths = [max(pdf.get_string_width(r[c]) for r in rows) + 24 for c in range(len(rows[0]))]
    y = 100.0
    for k, row in enumerate(rows):
        x = 56.0
        for c, text in enumerate(row):
            pdf.set_xy(x, y)
            pdf.cell(widths[c] - 8, 15, text, align="R" if numeric[c] and k else "L")
            x += widths[c]
        y += 15
    pdf.set_xy(56, y + 20)
    pdf.multi_cell(
        480, 13, "Prices include delivery to the north quay. The fog horn replaces the one lost in March."
    )
    pdf.output(str(path))
    return path


def prose_pdf(path: Path) -> Path:
    """Running text only: paragraphs across the page, then three columns side by side."""
    from fpdf import FPDF

    sentence = (
        "The pilot boat left the inner harbour at dawn and followed the buoyed channel past "
        "the breakwater, where the swell from the night before was still running. "
    )
    pdf = FPDF(unit="pt", format="A4")
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    pdf.set_xy(56, 60)
    for _ in range(3):
        pdf.multi_cell(480, 13, sentence * 3)
        pdf.ln(8)
    top = pdf.get_y() + 10
    for column in range(3):
        pdf.set_xy(56 + column * 165, top)
        pdf.multi_cell(150, 13, sentence * 2)
    pdf.output(str(path))
    return path
