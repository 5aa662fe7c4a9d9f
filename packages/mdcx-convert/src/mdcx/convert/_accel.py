"""Accelerator check at start: a CUDA device the installed engines cannot use is reported."""

from __future__ import annotations

import glob
import importlib.util
import os
import shutil
import subprocess
from dataclasses import dataclass


@dataclass(frozen=True)
class Accelerators:
    device: str | None  # the CUDA device seen, or None
    onnxruntime_cuda: bool  # OCR can run on it
    torch_cuda: bool | None  # docling can run on it (None: torch not installed)
    notices: tuple[str, ...]


def cuda_device() -> str | None:
    """The name of the first NVIDIA GPU the kernel exposes, or None."""
    names = sorted(glob.glob("/proc/driver/nvidia/gpus/*/information"))
    for path in names:
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                for line in fh:
                    if line.lower().startswith("model:"):
                        return line.split(":", 1)[1].strip()
        except OSError:
            continue
    if names or os.path.exists("/dev/nvidia0"):
        return "NVIDIA GPU"
    smi = shutil.which("nvidia-smi")
    if smi:
        try:
            out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=10, check=False)
        except (OSError, subprocess.SubprocessError):
            return None
        first = out.stdout.strip().splitlines()[:1]
        if out.returncode == 0 and first:
            return first[0].split("(")[0].replace("GPU 0:", "").strip() or "NVIDIA GPU"
    return None


def check(use_gpu: bool = True, device: str | None = ...) -> Accelerators:  # type: ignore[assignment]
    """What the machine offers and what the installed engines can use of it."""
    seen = cuda_device() if device is ... else device
    if seen is None or not use_gpu:
        return Accelerators(seen, False, None, ())
    notices = []
    try:
        import onnxruntime

        ort_cuda = "CUDAExecutionProvider" in onnxruntime.get_available_providers()
    except ImportError:
        ort_cuda = False
    if not ort_cuda:
        notices.append(
            f"CUDA device found ({seen}) but the installed onnxruntime cannot use it: OCR runs on the CPU "
            '(replace onnxruntime with onnxruntime-gpu: pip install "mdcx-convert[ocr-gpu]" instead of [ocr])'
        )
    torch_cuda = None
    if importlib.util.find_spec("torch") is not None:
        try:
            import torch

            torch_cuda = bool(torch.cuda.is_available())
        except Exception:  # a broken torch install must not stop conversion
            torch_cuda = False
        if not torch_cuda:
            notices.append(
                f"CUDA device found ({seen}) but the installed torch cannot use it: docling would run on the CPU "
                "(install a CUDA build of torch)"
            )
    return Accelerators(seen, ort_cuda, torch_cuda, tuple(notices))
