"""Resident conversion: engines loaded once, documents converted one at a time.

``Converter`` writes exactly what ``mdcx-convert`` writes for the same
document and options (chapters, index document, records under ``_mdcx``):
both go through the same run machinery.  It converts in this process, so a
document that crashes an engine would take the caller with it; use the CLI
(worker processes) for untrusted collections.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from ._engine import Engines, convert_unit
from ._errors import ConversionError
from ._options import ConvertOptions
from ._plan import Skip, display, plan_file
from ._run import DocumentReport, ProgressCallback, Run, RunReport


@dataclass(frozen=True)
class DocumentResult:
    report: DocumentReport
    outputs: tuple[str, ...]  # Markdown files written, relative to the output folder


class Converter:
    """Load the engines once, then convert documents one at a time.

    >>> with Converter("markdown/") as conv:             # doctest: +SKIP
    ...     result = conv.convert("reports/q3.pdf")
    ...     print(conv.startup_seconds, result.report.coverage)
    """

    def __init__(
        self,
        output: str | Path,
        options: ConvertOptions | None = None,
        root: str | Path | None = None,
        progress: ProgressCallback | None = None,
    ) -> None:
        self.options = replace(options or ConvertOptions(), serial=True, ray=None)
        self.output = Path(output)
        self.root = Path(root) if root is not None else None
        self.progress = progress
        self.startup_seconds = 0.0
        self._run: Run | None = None
        self._engines: Engines | None = None
        self._taken: set[str] = set()
        self.report: RunReport | None = None

    def __enter__(self) -> Converter:
        start = time.perf_counter()
        self.output.mkdir(parents=True, exist_ok=True)
        self._run = Run(self.root or self.output, self.output, self.options, self.progress)
        self._run.start_checks()
        self.options = self._run.options  # the checks may switch a stage off (OCR without onnxruntime)
        self._engines = Engines(self.options)
        self._engines.warm()
        self.startup_seconds = time.perf_counter() - start
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> RunReport | None:
        if self._run is not None:
            self.report = self._run.finish("resident")
            self._run = None
        return self.report

    def _relative(self, path: Path) -> str:
        if self.root is not None:
            try:
                return path.resolve().relative_to(self.root.resolve()).as_posix()
            except ValueError:
                pass
        return path.name

    def convert(self, path: str | Path, split: bool = True) -> DocumentResult:
        """Convert one document; ``split=False`` keeps a long PDF in one file."""
        if self._run is None or self._engines is None:
            raise ConversionError("use Converter as a context manager: with Converter(out) as conv: ...")
        source = Path(path)
        if not source.is_file():
            raise ConversionError(f"{display(str(source))} is not a file")
        options = self.options if split else replace(self.options, split=False)
        rel = self._relative(source)
        planned = plan_file(rel, source, options, self._taken)
        run = self._run
        if isinstance(planned, Skip):
            run.skipped.append(planned)
            report = DocumentReport(planned.source, "failed" if planned.failed else "skipped",
                                    format=planned.format, reason=planned.reason)  # fmt: skip
            return DocumentResult(report, ())
        run.documents.append(planned)
        for unit in run.pending([planned]):
            run.total += 1
            run.on_result(convert_unit(unit, self._engines))
        from ._run import _document_report, _index_document

        records = [run.records[u.output] for u in planned.units]
        reused = sum(1 for u in planned.units if u.output in run.reused)
        report = _document_report(planned, records, reused, options.threshold)
        outputs = [u.output for u in planned.units]
        if planned.split and report.status != "failed":
            from ._output import write_atomic

            write_atomic(run.tree.md_path(planned.output), _index_document(planned, report))
            outputs.insert(0, planned.output)
        return DocumentResult(report, tuple(outputs))

    def convert_many(self, paths: Iterable[str | Path], split: bool = True) -> Iterator[DocumentResult]:
        """Convert documents one at a time, yielding each result as it is written."""
        for path in paths:
            yield self.convert(path, split=split)
