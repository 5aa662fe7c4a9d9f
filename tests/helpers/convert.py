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
