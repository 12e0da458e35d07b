"""Print-ready sheets of true-size stickers, one per physical component, labelled.

A card's sticker is a QR code of its payload. Sizing: a 720p camera seeing a 60 cm wide table
has 1280 / 600 = 2.13 px per mm. Every card payload fits a version-2 code (25 x 25 modules,
error correction M, alphanumeric), and zxing-cpp reads clean codes reliably from about 2.5 px
per module (VISION-NOTES.md). A module of 1.5 mm gives 3.2 px per module seen straight on and
still 2.6 px at 35 degrees of tilt: so the code is 37.5 mm wide, plus a 2-module quiet zone,
on a 43.5 mm sticker.

A component that declares its own size (a board's corner) gets the smallest QR version its
payload fits, so that its modules are as big as the sticker allows; one that declares a
marker (a piece, a tile) gets that square marker (engine MARKER_FAMILY) with a one-cell white
margin: benchmarks/vision/bench_codes.py shows a 20 mm marker read where a QR code needs 50.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import cv2
import segno
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from companion.engine import MARKER_FAMILY, MARKER_MARGIN, Component

MODULE_MM = 1.5
VERSION = 2
QUIET_MODULES = 2
CODE_MM = MODULE_MM * (17 + 4 * VERSION)  # 37.5 mm
STICKER_MM = CODE_MM + 2 * QUIET_MODULES * MODULE_MM  # 43.5 mm
LABEL_MM = 7.0
GAP_MM = 4.0
MARGIN_MM = 10.0
PAPERS = {"a4": A4, "letter": LETTER}


def qr_matrix(payload: str, version: int | None = VERSION) -> list[list[int]]:
    """The modules of a QR sticker's code (1 = dark), error correction M: version 2 for a
    card's sticker, or (``version`` None) the smallest version the payload fits."""
    code = segno.make_qr(payload, error="m", version=version, mode="alphanumeric",
                         boost_error=False)
    return [list(row) for row in code.matrix]


@cache
def _marker_dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, MARKER_FAMILY))


def marker_matrix(number: int) -> list[list[int]]:
    """The cells of square marker ``number`` (1 = dark), its black border included."""
    dictionary = _marker_dictionary()
    cells = dictionary.markerSize + 2
    image = cv2.aruco.generateImageMarker(dictionary, number, cells, borderBits=1)
    return [[int(v < 128) for v in row] for row in image]


def printed_modules(component: Component) -> list[list[int]]:
    """Everything printed on the component's sticker, as modules (1 = dark), its white
    margin included: what a camera sees of it."""
    if component.marker is not None:
        inner, quiet = marker_matrix(component.marker), MARKER_MARGIN
    else:
        inner = qr_matrix(component.payload, VERSION if component.size_mm is None else None)
        quiet = QUIET_MODULES
    width = len(inner) + 2 * quiet
    blank = [[0] * width for _ in range(quiet)]
    return blank + [[0] * quiet + row + [0] * quiet for row in inner] + blank


def sticker_mm(component: Component) -> float:
    """The printed side of the component's sticker."""
    return component.size_mm if component.size_mm is not None else STICKER_MM


def write_sheets(components: list[Component], out: Path, paper: str = "a4",
                 title: str = "") -> int:
    """Write the stickers to a PDF at true size, row by row (a row as tall as its biggest
    sticker); returns the number of pages."""
    width, height = PAPERS[paper]
    canvas = Canvas(str(out), pagesize=(width, height))
    canvas.setTitle(title or "Gambit Table Companion stickers")
    pages = 0
    x = y = row_height = 0.0
    for component in components:
        side = sticker_mm(component) * mm
        step_x = max(side, 24 * mm) + GAP_MM * mm
        step_y = side + (LABEL_MM + GAP_MM) * mm
        if pages == 0 or x + step_x > width - MARGIN_MM * mm + GAP_MM * mm:
            x = MARGIN_MM * mm
            y -= row_height
            row_height = 0.0
        if pages == 0 or y - step_y < MARGIN_MM * mm:
            if pages:
                canvas.showPage()
            pages += 1
            canvas.setFont("Helvetica", 8)
            canvas.drawString(MARGIN_MM * mm, height - MARGIN_MM * mm,
                              f"{title}  page {pages}  (print at 100%, \"actual size\": each"
                              " sticker's size is under it; matte stickers read best)")
            x, y, row_height = MARGIN_MM * mm, height - MARGIN_MM * mm - 6 * mm, 0.0
        row_height = max(row_height, step_y)
        _draw_sticker(canvas, component, x + (step_x - GAP_MM * mm - side) / 2,
                      y - side - GAP_MM * mm)
        x += step_x
    canvas.showPage()
    canvas.save()
    return pages


def _draw_sticker(canvas: Canvas, component: Component, x: float, y: float) -> None:
    """One sticker with its bottom-left corner at (x, y), the label below it."""
    side = sticker_mm(component) * mm
    canvas.setLineWidth(0.2)
    canvas.setStrokeGray(0.75)
    canvas.rect(x, y, side, side, stroke=1, fill=0)  # cutting guide
    canvas.setFillGray(0)
    matrix = printed_modules(component)
    size = len(matrix)
    module = side / size
    for r, line in enumerate(matrix):
        for c, dark in enumerate(line):
            if dark:
                canvas.rect(x + c * module, y + (size - 1 - r) * module, module, module,
                            stroke=0, fill=1)
    middle = x + side / 2
    canvas.setFont("Helvetica-Bold", 6 if side < 30 * mm else 7)
    canvas.drawCentredString(middle, y - 3.0 * mm, component.label[:34])
    canvas.setFont("Helvetica", 4.5)
    size_text = f"{sticker_mm(component):.1f} mm"
    canvas.drawCentredString(middle, y - 5.4 * mm, f"{component.id}  {size_text}"
                             if side >= 30 * mm else size_text)
