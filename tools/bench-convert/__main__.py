"""Benchmark of mdcx-convert on the shared corpora.

    uv run python tools/bench-convert

Runs the real ``mdcx-convert`` command in fresh processes and prints:

* born-digital text PDFs (the 619-page and the 400-page PDF of
  unstructured-example-docs, OCR off: a few pages of the 400-page one are
  scans): pages per second on one core (``--serial``), verification and
  ruled-table recovery included, wall time of the whole process, and the
  same with the default worker processes;
* peak RSS of converting the 619-page PDF, in chapters (the default) and in
  one piece (``--no-split``: pages are still read one at a time);
* OCR seconds per page on docling's scanned test PDFs (``ocr/sources``).

Targets from the issue are printed beside each figure.  This is a
measurement, not a test: the machines here are shared and noisy, so compare
figures of one run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPORA = Path(os.environ.get("MDCX_CORPORA", ROOT.parent / "shared" / "corpora"))
TEXT_PDFS = (
    "unstructured-example-docs/pdf/DA-619p.pdf",
    "unstructured-example-docs/pdf/pdf2image-memory-error-test-400p.pdf",
)


def run_measured(cmd: list[str]) -> tuple[float, int, str]:
    """Wall seconds, the child's peak RSS in bytes (from wait4) and its output."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        if os.waitstatus_to_exitcode(status):
            raise SystemExit(f"failed: {' '.join(cmd)}\n{err.read().decode(errors='replace')}")
        return wall, usage.ru_maxrss * 1024, out.read().decode(errors="replace")


def convert(src: Path, out: Path, *options: str) -> tuple[float, int, dict]:
    cmd = [
        sys.executable,
        "-m",
        "mdcx.convert",
        "--input",
        str(src),
        "--output",
        str(out),
        "--force",
        *options,
    ]
    wall, rss, _ = run_measured(cmd)
    index = json.loads((out / "_mdcx" / "run.json").read_text(encoding="utf-8"))
    return wall, rss, index


def link_inputs(folder: Path, names: tuple[str, ...]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        source = CORPORA / name
        target = folder / source.name
        if not target.exists():
            try:
                os.link(source, target)
            except OSError:
                target.write_bytes(source.read_bytes())
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(prog="tools/bench-convert", description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "mdcx-bench-convert")
    parser.add_argument("--skip-ocr", action="store_true", help="leave out the OCR measurement")
    args = parser.parse_args()
    missing = [n for n in TEXT_PDFS if not (CORPORA / n).is_file()]
    if missing:
        raise SystemExit(f"shared corpora absent ({CORPORA / missing[0]}); set MDCX_CORPORA")
    work: Path = args.work
    pdfs = link_inputs(work / "text-pdfs", TEXT_PDFS)
    long_pdf = link_inputs(work / "long-pdf", TEXT_PDFS[:1])

    wall, rss, index = convert(pdfs, work / "out-serial", "--serial", "--no-ocr")
    pages = index["summary"]["pages"]
    cov = index["summary"]["coverage"]
    inside = sum(u["seconds"] for u in index["units"])
    print(
        f"text PDFs, one core (--serial): {pages} pages in {wall:.1f} s = {pages / wall:.0f} pages/s per core "
        f"(process included; {pages / inside:.0f} pages/s inside the engines), coverage {cov:.4%}   target >= 50"
    )
    wall, _, index = convert(pdfs, work / "out-workers", "--no-ocr")
    print(
        f"text PDFs, default workers ({index['summary']['workers']}): {pages / wall:.0f} pages/s on {os.cpu_count()} cores"
    )

    wall, rss, index = convert(long_pdf, work / "out-619")
    chapters = next(d["chapters"] for d in index["documents"])
    print(
        f"619-page PDF, default (chapters={chapters}, workers): {wall:.1f} s, peak RSS of the command {rss / 2**20:.0f} MiB "
        "(workers are separate processes: see --serial below)"
    )
    wall, rss, index = convert(long_pdf, work / "out-619-serial", "--serial")
    print(f"619-page PDF, --serial, in chapters: {wall:.1f} s, peak RSS {rss / 2**20:.0f} MiB")
    wall, rss, index = convert(long_pdf, work / "out-619-whole", "--serial", "--no-split")
    print(f"619-page PDF, --serial --no-split: {wall:.1f} s, peak RSS {rss / 2**20:.0f} MiB")

    if not args.skip_ocr:
        scans = CORPORA / "docling-testdata" / "ocr" / "sources"
        if scans.is_dir():
            wall, rss, index = convert(scans, work / "out-ocr", "--serial", "--only", "*.pdf")
            s = index["summary"]
            per_page = s["ocr_seconds"] / max(s["ocr_pages"], 1)
            print(
                f"OCR: {s['ocr_pages']} scanned pages, {per_page:.2f} s per page (RapidOCR, 200 dpi, one thread), "
                f"peak RSS {rss / 2**20:.0f} MiB"
            )


if __name__ == "__main__":
    main()
