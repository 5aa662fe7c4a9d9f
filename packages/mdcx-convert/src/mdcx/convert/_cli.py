"""The ``mdcx-convert`` command: parse arguments, call the library, print the result.

Every failure the user can cause ends in one line on standard error
(``mdcx-convert: error: ...``) and a non-zero exit status, never a traceback
(set ``MDCX_DEBUG=1`` to see one).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from mdcx.format import MdcxError

from ._errors import ConversionError
from ._options import DEFAULT_SPLIT_THRESHOLD, DEFAULT_THRESHOLD, ConvertOptions
from ._run import Progress, RunReport, convert
from ._sourced import convert_source

EXIT_ERROR = 1
EXIT_INTERRUPTED = 130


def _positive(value: str) -> int:
    n = int(value)
    if n < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return n


def _count(value: str) -> int:
    n = int(value)
    if n < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return n


def _seconds(value: str) -> float:
    n = float(value)
    if not n > 0:
        raise argparse.ArgumentTypeError("must be more than 0")
    return n


def _share(value: str) -> float:
    n = float(value)
    if not 0 <= n <= 1:  # also refuses nan
        raise argparse.ArgumentTypeError("must be a share from 0 to 1")
    return n


def _folder(value: str, option: str) -> Path:
    """A folder argument; an empty one would silently mean the current folder."""
    if not value.strip():
        raise ConversionError(f"{option} is empty; give a folder")
    return Path(value)


def parser() -> argparse.ArgumentParser:
    from . import __version__

    p = argparse.ArgumentParser(
        prog="mdcx-convert",
        description="Convert a folder of documents (PDF, EPUB, DOCX, XLSX, PPTX, HTML, Markdown, CSV, text) "
        "to Markdown, checking each conversion against the original's own text.",
        epilog="The output mirrors the input tree; records (run.json, summary.md, lossless backups) go "
        "under OUTPUT/_mdcx/.  A second run reuses what is up to date.",
    )
    p.add_argument("--version", action="version", version=f"mdcx-convert {__version__}")
    given = p.add_mutually_exclusive_group(required=True)
    given.add_argument("--input", metavar="DIR", help="folder (or one file) of documents")
    given.add_argument(
        "--source",
        metavar="NAME",
        help="convert what the catalogue plugin installed as NAME fetches (see python -m mdcx.sources)",
    )
    p.add_argument("--output", required=True, metavar="DIR", help="folder the Markdown is written to")
    p.add_argument(
        "--force",
        action="store_true",
        help="redo documents whose output is up to date (with --source: fetch them again too)",
    )
    p.add_argument("--no-lossless", action="store_true", help="do not write the JSON backup of each reading")
    p.add_argument("--no-compact", action="store_true", help="keep converter noise that compaction removes")
    p.add_argument("--no-split", action="store_true", help="never split long documents into chapters")
    p.add_argument(
        "--split-threshold",
        type=_positive,
        default=DEFAULT_SPLIT_THRESHOLD,
        metavar="N",
        help=f"split documents of more than N pages into chapters of at most N pages (default {DEFAULT_SPLIT_THRESHOLD})",
    )
    p.add_argument("--sample-pages", type=_positive, metavar="N", help="convert N pages spread over each PDF")
    p.add_argument("--only", metavar="PATTERN", help="only files whose relative path or name matches (glob)")
    p.add_argument(
        "--limit", type=_positive, metavar="N", help="at most N documents (with --source: N candidates)"
    )
    p.add_argument("--serial", action="store_true", help="convert in this process, one unit at a time")
    p.add_argument("--max-cores", type=_positive, metavar="N", help="use at most N cores (default: all)")
    p.add_argument("--cpu-workers", type=_count, metavar="N", help="worker processes on the CPU")
    p.add_argument("--gpu-workers", type=_count, metavar="N", help="worker processes that run OCR on the GPU")
    p.add_argument("--no-gpu", action="store_true", help="never use a GPU")
    p.add_argument("--no-docling", action="store_true", help="never use docling's layout stage")
    p.add_argument("--docling-models", metavar="DIR", help="folder of pre-downloaded docling models")
    p.add_argument(
        "--table-model",
        metavar="PATH",
        help="table-structure model (SLANet-plus, ONNX) for tables drawn without rules "
        "(default: MDCX_TABLE_MODEL, else the one the tables extra installs)",
    )
    p.add_argument(
        "--no-table-model",
        action="store_true",
        help="never run the table-structure model: tables drawn without rules go to the layout stage",
    )
    p.add_argument(
        "--formulas", action="store_true", help="transcribe formulas to LaTeX (docling's formula model)"
    )
    p.add_argument("--no-ocr", action="store_true", help="leave pages without a text layer unread")
    p.add_argument(
        "--timeout", type=_seconds, metavar="SECONDS", help="abandon a document (or chapter) after this long"
    )
    p.add_argument(
        "--recycle-after",
        type=_count,
        default=50,
        metavar="N",
        help="replace a worker after N units (0: never; default 50)",
    )
    p.add_argument(
        "--threshold",
        type=_share,
        default=DEFAULT_THRESHOLD,
        metavar="SHARE",
        help=f"coverage under which a document is listed with what it lost (default {DEFAULT_THRESHOLD})",
    )
    p.add_argument("--ray", metavar="ADDRESS", help="run on a Ray cluster (an address, 'auto', or 'local')")
    p.add_argument("--json", action="store_true", help="print the run's summary as JSON")
    return p


def options_from(args: argparse.Namespace) -> ConvertOptions:
    return ConvertOptions(
        lossless=not args.no_lossless,
        compact=not args.no_compact,
        split=not args.no_split,
        split_threshold=args.split_threshold,
        sample_pages=args.sample_pages,
        force=args.force,
        only=args.only,
        limit=args.limit,
        serial=args.serial,
        max_cores=args.max_cores,
        cpu_workers=args.cpu_workers,
        gpu_workers=args.gpu_workers,
        gpu=not args.no_gpu,
        docling=not args.no_docling,
        docling_models=args.docling_models,
        aligned_tables=not args.no_table_model,
        table_model=args.table_model,
        formulas=args.formulas,
        ocr=not args.no_ocr,
        timeout=args.timeout,
        recycle_after=args.recycle_after,
        threshold=args.threshold,
        ray=args.ray,
    )


class Reporter:
    """A progress bar on a terminal, plain lines otherwise; notices always on their own line."""

    def __init__(self, stream=None) -> None:
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.started = time.monotonic()
        self.pages = 0

    def __call__(self, event: Progress) -> None:
        if event.kind == "notice":
            self._line(f"notice: {event.message}")
        elif event.kind == "planned":
            self._line(event.message)
        elif event.kind == "fetch":
            if self.tty:
                self._status(f"fetching from the source: {event.done} {(event.source or '')[-50:]}")
            else:
                self._line(f"fetch {event.done} {event.status} {event.source}: {event.message}")
        elif event.kind == "unit":
            self.pages += event.pages
            if self.tty:
                width = 24
                filled = int(width * event.done / max(event.total, 1))
                rate = self.pages / max(time.monotonic() - self.started, 1e-6)
                name = (event.source or "")[-40:]
                self._status(
                    f"[{'#' * filled}{'.' * (width - filled)}] {event.done}/{event.total} {rate:.0f} pages/s {name}"
                )
            else:
                self._line(f"{event.done}/{event.total} {event.status} {event.source}: {event.message}")
        elif event.kind == "finished" and self.tty:
            self.stream.write("\n")
            self.stream.flush()

    def _status(self, text: str) -> None:
        """Redraw the one status line of a terminal, cut to its width."""
        cols = shutil.get_terminal_size((100, 20)).columns
        self.stream.write(("\r" + text)[: cols - 1].ljust(cols - 1))
        self.stream.flush()

    def _line(self, text: str) -> None:
        if self.tty:
            self.stream.write("\r\033[K")
        self.stream.write(text + "\n")
        self.stream.flush()


def render(report: RunReport) -> str:
    s = report.summary
    cov = "n/a" if s["coverage"] is None else f"{s['coverage'] * 100:.2f}%"
    lines = [
        f"converted {s['converted']}, reused {s['reused']}, unverifiable {s['unverifiable']}, "
        f"failed {s['failed']}, skipped {s['skipped']} of {s['documents']} documents in {s['elapsed_seconds']:.1f} s",
        f"coverage {cov} over {s['measured'] + s['partial']} verified documents; {s['pages']} pages "
        f"({s['ocr_pages']} by OCR); workers: {s['workers']}",
    ]
    for d in report.documents:
        if d.below_threshold:
            lost = ", ".join(w for w, _ in d.lost[:8])
            lines.append(f"below threshold: {d.source}: {d.coverage * 100:.2f}% (lost: {lost})")
    for d in report.documents:
        if d.status in ("failed", "skipped"):
            lines.append(f"{d.status}: {d.source}: {d.reason}")
    lines.append(f"records: {report.output}/_mdcx/run.json and summary.md")
    return "\n".join(lines)


def _fail(message: str) -> None:
    print(f"mdcx-convert: error: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a name the console cannot show must not stop us
        try:
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
        except (AttributeError, ValueError):
            pass
    args = parser().parse_args(argv)
    try:
        output = _folder(args.output, "--output")
        if args.source:
            report = convert_source(args.source, output, options_from(args), Reporter())
        else:
            report = convert(_folder(args.input, "--input"), output, options_from(args), Reporter())
    except MdcxError as exc:
        _fail(str(exc))
        return EXIT_ERROR
    except KeyboardInterrupt:
        _fail("interrupted; finished documents are kept and the next run resumes")
        return EXIT_INTERRUPTED
    except OSError as exc:
        where = f": {exc.filename}" if getattr(exc, "filename", None) else ""
        _fail(f"{exc.strerror or exc}{where}")
        return EXIT_ERROR
    except Exception as exc:  # a bug: still one line, unless asked for more
        if os.environ.get("MDCX_DEBUG"):
            raise
        _fail(
            f"internal error ({type(exc).__name__}: {exc}); set MDCX_DEBUG=1 for details and please report it"
        )
        return EXIT_ERROR
    if args.json:
        print(json.dumps(report.summary, ensure_ascii=False, indent=1))
    else:
        print(render(report))
    return 0
