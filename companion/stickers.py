"""Print-ready sheets of true-size QR stickers, one per physical component, labelled.

Sizing: a 720p camera seeing a 60 cm wide table has 1280 / 600 = 2.13 px per mm. Every
payload fits a version-2 code (25 x 25 modules, error correction M, alphanumeric), and
zxing-cpp reads clean codes reliably from about 2.5 px per module (VISION-NOTES.md). A module
of 1.5 mm gives 3.2 px per module seen straight on and still 2.6 px at 35 degrees of tilt:
so the code is 37.5 mm wide, plus a 2-module quiet zone, on a 43.5 mm sticker.
"""

from __future__ import annotations

from pathlib import Path

import segno
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from companion.engine import Component

MODULE_MM = 1.5
VERSION = 2
QUIET_MODULES = 2
CODE_MM = MODULE_MM * (17 + 4 * VERSION)  # 37.5 mm
STICKER_MM = CODE_MM + 2 * QUIET_MODULES * MODULE_MM  # 43.5 mm
LABEL_MM = 7.0
GAP_MM = 4.0
MARGIN_MM = 10.0
PAPERS = {"a4": A4, "letter": LETTER}


def qr_matrix(payload: str) -> list[list[int]]:
    """The modules of a sticker's code (1 = dark), always version 2, error correction M."""
    code = segno.make_qr(payload, error="m", version=VERSION, mode="alphanumeric",
                         boost_error=False)
    return [list(row) for row in code.matrix]


def write_sheets(components: list[Component], out: Path, paper: str = "a4",
                 title: str = "") -> int:
    """Write the stickers to a PDF at true size; returns the number of pages."""
    width, height = PAPERS[paper]
    cell_w = (STICKER_MM + GAP_MM) * mm
    cell_h = (STICKER_MM + LABEL_MM + GAP_MM) * mm
    columns = int((width - 2 * MARGIN_MM * mm + GAP_MM * mm) // cell_w)
    rows = int((height - 2 * MARGIN_MM * mm - 8 * mm + GAP_MM * mm) // cell_h)
    per_page = columns * rows
    canvas = Canvas(str(out), pagesize=(width, height))
    canvas.setTitle(title or "Gambit Table Companion stickers")
    pages = 0
    for start in range(0, len(components), per_page):
        pages += 1
        canvas.setFont("Helvetica", 8)
        canvas.drawString(MARGIN_MM * mm, height - MARGIN_MM * mm,
                          f"{title}  page {pages}  (print at 100%: each square is"
                          f" {STICKER_MM:.1f} mm; matte stickers read best)")
        for index, component in enumerate(components[start:start + per_page]):
            col, row = index % columns, index // columns
            x = MARGIN_MM * mm + col * cell_w
            y = height - MARGIN_MM * mm - 8 * mm - (row + 1) * cell_h + GAP_MM * mm
            _draw_sticker(canvas, component, x, y + LABEL_MM * mm)
        canvas.showPage()
    canvas.save()
    return pages


def _draw_sticker(canvas: Canvas, component: Component, x: float, y: float) -> None:
    """One sticker with its bottom-left corner at (x, y), the label below it."""
    canvas.setLineWidth(0.2)
    canvas.setStrokeGray(0.75)
    canvas.rect(x, y, STICKER_MM * mm, STICKER_MM * mm, stroke=1, fill=0)  # cutting guide
    canvas.setFillGray(0)
    quiet = QUIET_MODULES * MODULE_MM * mm
    module = MODULE_MM * mm
    matrix = qr_matrix(component.payload)
    size = len(matrix)
    for r, line in enumerate(matrix):
        for c, dark in enumerate(line):
            if dark:
                canvas.rect(x + quiet + c * module, y + quiet + (size - 1 - r) * module,
                            module, module, stroke=0, fill=1)
    canvas.setFont("Helvetica-Bold", 7)
    canvas.drawCentredString(x + STICKER_MM * mm / 2, y - 3.2 * mm, component.label[:34])
    canvas.setFont("Helvetica", 5)
    canvas.drawCentredString(x + STICKER_MM * mm / 2, y - 5.6 * mm, component.id)
