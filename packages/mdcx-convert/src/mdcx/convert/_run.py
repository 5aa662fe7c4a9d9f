"""A conversion run: plan, resume, convert, verify, write, summarise."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

from . import _aligned_tables, _layout
from ._accel import check as check_accelerators
from ._engine import GENERATOR, UnitResult
from ._errors import ConversionError
from ._markdown import front_matter
from ._options import ConvertOptions
from ._output import OutputTree
from ._plan import Document, Skip, Unit, display, plan


@dataclass(frozen=True)
class Progress:
    """What the library tells whoever watches a run (the CLI draws it)."""

    kind: str  # "notice", "planned", "unit", "finished"
    message: str = ""
    done: int = 0  # units finished so far
    total: int = 0  # units to convert in this run
    source: str | None = None
    status: str | None = None
    pages: int = 0


ProgressCallback = Callable[[Progress], None]


@dataclass(frozen=True)
class DocumentReport:
    source: str
    status: str  # "converted", "reused", "failed", "skipped"
    output: str | None = None
    format: str | None = None
    reason: str | None = None
    verification: str | None = None  # "measured", "partial", "unverifiable"
    coverage: float | None = None
    reference_words: int = 0
    found_words: int = 0
    appended_words: int = 0
    lost: tuple[tuple[str, int], ...] = ()
    findings: tuple[str, ...] = ()
    pages: int | None = None
    chapters: int = 0
    reused_units: int = 0
    engines: tuple[str, ...] = ()
    ocr_pages: int = 0
    ocr_seconds: float = 0.0
    seconds: float = 0.0
    below_threshold: bool = False
    catalogue: dict[str, str | None] | None = None  # the candidate's record, for documents from a source


@dataclass(frozen=True)
class RunReport:
    input: str
    output: str
    documents: tuple[DocumentReport, ...]
    notices: tuple[str, ...]
    summary: dict[str, Any]
    elapsed: float
    index: dict[str, Any] = field(repr=False, default_factory=dict)


def _reusable(rec: dict[str, Any] | None, unit: Unit, tree: OutputTree, options: ConvertOptions) -> bool:
    if options.force or not rec:
        return False
    if rec.get("digest") != unit.digest or rec.get("status") != "converted":
        return False
    if (rec.get("pages") or None) != (list(unit.pages) if unit.pages else None):
        return False
    if rec.get("findings"):
        return False  # a unit whose verification reported findings is redone
    if (rec.get("catalogue") or None) != (dict(unit.catalogue) if unit.catalogue else None):
        return False  # the catalogue's record changed: its front matter must follow
    cov = rec.get("coverage")
    if cov is not None and cov < options.threshold:
        return False
    return tree.md_path(unit.output).is_file()


def _document_report(
    doc: Document, records: list[dict[str, Any]], reused: int, threshold: float
) -> DocumentReport:
    failed = [r for r in records if r.get("status") != "converted"]
    ref = sum(r.get("reference_words") or 0 for r in records)
    found = sum(r.get("found_words") or 0 for r in records)
    lost: Counter = Counter()
    for r in records:
        for word, n in r.get("lost") or []:
            lost[word] += n
    verifications = {r.get("verification") for r in records if r.get("status") == "converted"}
    if not ref:
        verification = "unverifiable"
    elif verifications - {"measured"}:
        verification = "partial"
    else:
        verification = "measured"
    coverage = round(found / ref, 6) if ref else None
    if failed:
        status = "failed"
        reason = "; ".join(
            (f"chapter {r.get('chapter')}: " if r.get("chapter") else "") + str(r.get("reason"))
            for r in failed
        )
    else:
        status = "reused" if reused == len(records) else "converted"
        reason = None
    engines: list[str] = []
    for r in records:
        for e in r.get("engines") or []:
            if e not in engines:
                engines.append(e)
    return DocumentReport(
        source=doc.source,
        status=status,
        output=display(doc.output),
        format=doc.format,
        reason=reason,
        verification=verification if status != "failed" or len(failed) < len(records) else None,
        coverage=coverage,
        reference_words=ref,
        found_words=found,
        appended_words=sum(r.get("appended_words") or 0 for r in records),
        lost=tuple(lost.most_common(20)),
        findings=tuple(f for r in records for f in (r.get("findings") or [])),
        pages=doc.total_pages
        if doc.total_pages is not None
        else (sum(r.get("page_count") or 0 for r in records) or None),
        chapters=len(records) if doc.split else 0,
        reused_units=reused,
        engines=tuple(engines),
        ocr_pages=sum(r.get("ocr_pages") or 0 for r in records),
        ocr_seconds=round(sum(r.get("ocr_seconds") or 0.0 for r in records), 3),
        seconds=round(sum(r.get("seconds") or 0.0 for r in records), 3),
        below_threshold=coverage is not None and coverage < threshold,
        catalogue=dict(doc.units[0].catalogue) if doc.units and doc.units[0].catalogue else None,
    )


def _index_document(doc: Document, report: DocumentReport) -> str:
    fields = {
        "title": doc.title or PurePosixPath(doc.source).stem,
        "type": "document_index",
        "indexed": False,
        "date": doc.date,
        "date_from": "source" if report.catalogue and report.catalogue.get("date") else None,
        "source": doc.source,
        "source_digest": doc.digest,
        "format": doc.format,
        "total_pages": doc.total_pages,
        "chapters": len(doc.units),
        "coverage": report.coverage,
        "verification": report.verification,
        "catalogue": {k: v for k, v in report.catalogue.items() if v is not None}
        if report.catalogue
        else None,
        "converter": GENERATOR,
    }
    folder = PurePosixPath(doc.output).parent
    lines = [f"# {fields['title']}", ""]
    for unit in doc.units:
        first, last = unit.pages[0], unit.pages[-1]
        link = (
            PurePosixPath(unit.output).relative_to(folder).as_posix() if str(folder) != "." else unit.output
        )
        name = unit.chapter_title or f"Pages {first}-{last}"
        lines.append(f"- [{name}]({link.replace(' ', '%20')}) (pages {first}-{last})")
    return front_matter(fields) + "\n".join(lines) + "\n"


def _summary_text(report: RunReport) -> str:
    s = report.summary
    cov = "n/a" if s["coverage"] is None else f"{s['coverage'] * 100:.2f}%"
    lines = [
        "# Conversion summary",
        "",
        f"- input: `{report.input}`"
        + (f" (fetched by the source `{s['source']}`)" if s.get("source") else ""),
        f"- documents: {s['documents']} (converted {s['converted']}, reused {s['reused']}, "
        f"failed {s['failed']}, skipped {s['skipped']})",
        f"- verified coverage: {cov} over {s['measured']} measured documents; "
        f"{s['unverifiable']} unverifiable (no text layer), {s['partial']} partly verifiable",
        f"- pages: {s['pages']} ({s['ocr_pages']} by OCR in {s['ocr_seconds']} s); elapsed {s['elapsed_seconds']} s",
        "",
    ]
    if report.notices:
        lines += ["## Notices", ""] + [f"- {n}" for n in report.notices] + [""]
    below = [d for d in report.documents if d.below_threshold]
    if below:
        lines += [f"## Below {s['threshold'] * 100:.1f}% coverage", ""]
        for d in below:
            lost = ", ".join(f"{w} ×{n}" for w, n in d.lost[:10])
            lines.append(f"- `{d.source}`: {d.coverage * 100:.2f}% — lost: {lost}")
        lines.append("")
    flagged = [d for d in report.documents if d.findings]
    if flagged:
        lines += ["## Findings", ""]
        lines += [f"- `{d.source}`: {f}" for d in flagged for f in d.findings[:5]]
        lines.append("")
    unverifiable = [d for d in report.documents if d.verification == "unverifiable" and d.status != "failed"]
    if unverifiable:
        lines += ["## Unverifiable (no text layer to compare with)", ""]
        lines += [f"- `{d.source}`" for d in unverifiable] + [""]
    failed = [d for d in report.documents if d.status in ("failed", "skipped")]
    if failed:
        lines += ["## Failed or skipped", ""]
        lines += [f"- `{d.source}` ({d.status}): {d.reason}" for d in failed] + [""]
    return "\n".join(lines)


def _summary(
    documents: list[DocumentReport], elapsed: float, threshold: float, workers: str
) -> dict[str, Any]:
    measured = [d for d in documents if d.verification in ("measured", "partial") and d.status != "skipped"]
    ref = sum(d.reference_words for d in measured)
    found = sum(d.found_words for d in measured)
    pages = sum(d.pages or 0 for d in documents if d.status in ("converted", "reused"))
    return {
        "generator": GENERATOR,
        "documents": len(documents),
        "converted": sum(1 for d in documents if d.status == "converted"),
        "reused": sum(1 for d in documents if d.status == "reused"),
        "failed": sum(1 for d in documents if d.status == "failed"),
        "skipped": sum(1 for d in documents if d.status == "skipped"),
        "measured": sum(1 for d in measured if d.verification == "measured"),
        "partial": sum(1 for d in measured if d.verification == "partial"),
        "unverifiable": sum(
            1 for d in documents if d.verification == "unverifiable" and d.status != "failed"
        ),
        "coverage": round(found / ref, 6) if ref else None,
        "below_threshold": sum(1 for d in documents if d.below_threshold),
        "threshold": threshold,
        "pages": pages,
        "ocr_pages": sum(d.ocr_pages for d in documents),
        "ocr_seconds": round(sum(d.ocr_seconds for d in documents), 3),
        "elapsed_seconds": round(elapsed, 3),
        "workers": workers,
    }


class Run:
    """The state of one run; the resident converter keeps one open across documents."""

    def __init__(
        self,
        input: Path,
        output: Path,
        options: ConvertOptions,
        progress: ProgressCallback | None,
        origin: str | None = None,
    ) -> None:
        self.input = input
        self.origin = origin  # the source plugin the documents were fetched from, if any
        self.output = output
        self.options = options
        self.emit = progress or (lambda event: None)
        self.tree = OutputTree(output)
        self.records: dict[str, dict[str, Any]] = {}
        self.reused: set[str] = set()
        self.documents: list[Document] = []
        self.skipped: list[Skip] = []
        self.notices: list[str] = []
        self.done = 0
        self.total = 0
        self.started = time.perf_counter()

    def notice(self, message: str) -> None:
        self.notices.append(message)
        self.emit(Progress("notice", message))

    def start_checks(self) -> tuple[_layout.LayoutStatus, Any]:
        from . import _ocr

        # A model path that is wrong stops the run before anything is said or done.
        tables = _aligned_tables.status(self.options.aligned_tables, self.options.table_model)
        if self.options.ocr and not _ocr.available():  # said once; pages without text stay unread
            self.notice(
                "OCR is off: onnxruntime is not installed, so pages without a text layer are left unread "
                f"and reported; {_ocr.INSTALL}"
            )
            self.options = replace(self.options, ocr=False)
        layout = _layout.status(self.options.docling, self.options.docling_models)
        if self.options.formulas:
            _layout.check_formulas(layout)
        if self.options.docling and not layout.available:
            self.notice(layout.reason)
            # Off for the run: with no layout stage (and no table model) a page
            # need not even be searched for tables drawn without rules.
            self.options = replace(self.options, docling=False)
        if self.options.aligned_tables and not tables.available:  # said once; such tables go to layout
            self.notice(tables.reason)
            self.options = replace(self.options, aligned_tables=False)
        elif tables.available:  # workers use the model checked here, whatever their environment says
            self.options = replace(self.options, table_model=tables.model)
        accel = check_accelerators(use_gpu=self.options.gpu)
        for n in accel.notices:
            self.notice(n)
        return layout, accel

    def pending(self, documents: list[Document]) -> list[Unit]:
        previous = self.tree.previous()
        todo = []
        for doc in documents:
            for unit in doc.units:
                rec = previous.get(display(unit.output))
                if _reusable(rec, unit, self.tree, self.options):
                    self.records[unit.output] = rec  # type: ignore[assignment]
                    self.reused.add(unit.output)
                else:
                    todo.append(unit)
        return todo

    def on_result(self, result: UnitResult) -> None:
        record = self.tree.write_unit(result)
        self.records[result.unit.output] = record
        self.done += 1
        message = result.reason or (
            f"coverage {result.coverage * 100:.2f}%" if result.coverage is not None else result.verification
        )
        self.emit(
            Progress("unit", message, self.done, self.total, result.unit.source, result.status, result.pages)
        )

    def finish(self, workers: str) -> RunReport:
        reports: list[DocumentReport] = []
        for doc in self.documents:
            records = [self.records[u.output] for u in doc.units if u.output in self.records]
            if len(records) < len(doc.units):
                continue  # not reached (interrupted)
            reused = sum(1 for u in doc.units if u.output in self.reused)
            report = _document_report(doc, records, reused, self.options.threshold)
            if doc.split and report.status != "failed" and reused < len(doc.units):
                from ._output import write_atomic

                write_atomic(self.tree.md_path(doc.output), _index_document(doc, report))
            reports.append(report)
        for skip in self.skipped:
            reports.append(
                DocumentReport(
                    skip.source,
                    "failed" if skip.failed else "skipped",
                    format=skip.format,
                    reason=skip.reason,
                    catalogue=dict(skip.catalogue) if skip.catalogue else None,
                )
            )
        elapsed = time.perf_counter() - self.started
        summary = _summary(reports, elapsed, self.options.threshold, workers)
        if self.origin:
            summary["source"] = self.origin
        index = {
            "generator": GENERATOR,
            "input": display(str(self.input)),
            **({"source": self.origin} if self.origin else {}),
            "options": {k: v for k, v in vars(self.options).items()},
            "summary": summary,
            "notices": self.notices,
            "documents": [vars(r) | {"lost": [list(x) for x in r.lost]} for r in reports],
            "units": [self.records[k] for k in sorted(self.records)],
        }
        report = RunReport(display(str(self.input)), display(str(self.output)), tuple(reports), tuple(self.notices),
                           summary, elapsed, index)  # fmt: skip
        self.tree.write_index(index, _summary_text(report))
        self.emit(Progress("finished", "", self.done, self.total))
        return report


def convert(
    input: str | Path,
    output: str | Path,
    options: ConvertOptions | None = None,
    progress: ProgressCallback | None = None,
) -> RunReport:
    """Convert every document under ``input`` into Markdown under ``output``.

    Returns the run's report; never prints.  Each finished unit is on disk and
    journalled before the next one starts.
    """
    options = options or ConvertOptions()
    source, target = Path(input), Path(output)
    if not source.exists():
        raise ConversionError(f"input {display(str(source))} does not exist")
    if source.resolve() == target.resolve():
        raise ConversionError("--output must differ from --input")
    if target.exists() and not target.is_dir():
        raise ConversionError(f"output {display(str(target))} exists and is not a folder")
    run = Run(source, target, options, progress)
    _, accel = run.start_checks()
    run.documents, run.skipped = plan(source, target, options)
    return execute(run, accel)


def execute(run: Run, accel: Any) -> RunReport:
    """Convert the units ``run`` planned (resuming what is up to date) and write its records."""
    options, target = run.options, run.output
    target.mkdir(parents=True, exist_ok=True)
    todo = run.pending(run.documents)
    run.total = len(todo)
    run.emit(
        Progress("planned", f"{len(run.documents)} documents, {len(todo)} units to convert", 0, run.total)
    )
    if options.ray:
        from ._ray import run_ray

        workers = run_ray(todo, options, run.on_result)
    elif options.serial or not todo:
        from ._engine import Engines
        from ._workers import run_serial

        run_serial(todo, Engines(options), run.on_result, options.timeout)
        workers = "serial"
    else:
        from ._workers import run_pool, worker_counts

        cpu, gpu = worker_counts(options, accel.onnxruntime_cuda, len(todo))
        run_pool(todo, options, run.on_result, cpu, gpu)
        workers = f"{cpu} cpu + {gpu} gpu processes"
    return run.finish(workers)
