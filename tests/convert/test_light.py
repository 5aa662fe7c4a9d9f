"""``import mdcx.convert`` stays light; the accelerator check says what it cannot use."""

from __future__ import annotations

import json
import subprocess
import sys

from mdcx.convert._accel import check

HEAVY = (
    "pypdfium2",
    "docx",
    "pptx",
    "openpyxl",
    "rapidocr",
    "onnxruntime",
    "docling",
    "torch",
    "ray",
    "lxml",
    "cv2",
)


def test_import_is_light() -> None:
    code = "import sys, mdcx.convert; print(__import__('json').dumps(sorted(sys.modules)))"
    modules = json.loads(subprocess.check_output([sys.executable, "-c", code]))
    assert not [m for m in modules if m.split(".")[0] in HEAVY]


def test_cuda_device_the_engines_cannot_use_is_reported() -> None:
    found = check(use_gpu=True, device="NVIDIA H200")
    import onnxruntime

    if "CUDAExecutionProvider" not in onnxruntime.get_available_providers():
        assert not found.onnxruntime_cuda
        assert any("onnxruntime cannot use it" in n and "NVIDIA H200" in n for n in found.notices)
    assert check(use_gpu=False, device="NVIDIA H200").notices == ()
    assert check(use_gpu=True, device=None).notices == ()
