"""OCR of page images with RapidOCR (rapidocr 3.x on onnxruntime, bundled models).

The engine is loaded once per process, on first use, and its start-up cost is
measured.  Text boxes on one line are joined left to right; lines keep the
engine's top-to-bottom order.
"""

from __future__ import annotations

import importlib.util
import time
from dataclasses import dataclass

from ._errors import MissingDependency

DPI = 200
INSTALL = 'pip install "mdcx-convert[ocr]" (or "mdcx-convert[ocr-gpu]" for onnxruntime-gpu)'


def available() -> bool:
    """Whether RapidOCR and an onnxruntime build are installed (without importing them).

    onnxruntime is an extra, not a dependency, so that a GPU install can
    carry onnxruntime-gpu instead (the two cannot be installed together).
    """
    try:
        return all(importlib.util.find_spec(name) is not None for name in ("rapidocr", "onnxruntime"))
    except (ImportError, ValueError):  # a module blocked in sys.modules, or a broken install
        return False


@dataclass(frozen=True)
class OcrLine:
    text: str
    score: float
    box: tuple[float, float, float, float]  # left, top, right, bottom in image pixels


class Ocr:
    """A loaded RapidOCR engine."""

    def __init__(self, use_gpu: bool = False, threads: int = 1) -> None:
        start = time.perf_counter()
        try:
            from rapidocr import RapidOCR
        except ImportError as exc:
            raise MissingDependency(f"OCR needs rapidocr and onnxruntime ({exc}); run: {INSTALL}") from exc
        params = {
            "Global.log_level": "error",
            "EngineConfig.onnxruntime.intra_op_num_threads": threads,
            "EngineConfig.onnxruntime.inter_op_num_threads": 1,
        }
        if use_gpu:
            params["EngineConfig.onnxruntime.use_cuda"] = True
        self.engine = RapidOCR(params=params)
        self.startup_seconds = time.perf_counter() - start

    def image(self, image) -> list[OcrLine]:
        result = self.engine(image)
        if not result.txts:
            return []
        items = []
        for text, score, box in zip(result.txts, result.scores, result.boxes):
            xs = [float(p[0]) for p in box]
            ys = [float(p[1]) for p in box]
            items.append(OcrLine(text, float(score), (min(xs), min(ys), max(xs), max(ys))))
        return _lines(items)

    def page(self, page, dpi: int = DPI) -> list[OcrLine]:
        bitmap = page.render(scale=dpi / 72)
        try:
            return self.image(bitmap.to_pil())
        finally:
            bitmap.close()


def _lines(items: list[OcrLine]) -> list[OcrLine]:
    """Boxes sharing a line (vertical overlap over half their height) joined left to right."""
    lines: list[list[OcrLine]] = []
    for item in items:
        left, top, right, bottom = item.box
        height = bottom - top
        if height > 2 * (right - left):  # vertical text: keep it as it came
            lines.append([item])
            continue
        for line in lines:
            ref = line[-1].box
            overlap = min(bottom, ref[3]) - max(top, ref[1])
            if ref[3] - ref[1] <= 2 * (ref[2] - ref[0]) and overlap > 0.5 * min(height, ref[3] - ref[1]):
                line.append(item)
                break
        else:
            lines.append([item])
    out = []
    for line in lines:
        line.sort(key=lambda i: i.box[0])
        out.append(
            OcrLine(
                " ".join(i.text for i in line),
                min(i.score for i in line),
                (
                    min(i.box[0] for i in line),
                    min(i.box[1] for i in line),
                    max(i.box[2] for i in line),
                    max(i.box[3] for i in line),
                ),
            )
        )
    return out
