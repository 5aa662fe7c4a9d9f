"""A package's header as a card of labelled lines: what anyone can read without the key.

Used by the browse page; the ``mdcx info`` command has its own rendering.
"""

from __future__ import annotations

from pathlib import Path

from ._reader import Header


def _count(n: object, one: str, many: str) -> str:
    if not isinstance(n, int):
        return f"? {many}"
    return f"{n:,} {one if n == 1 else many}"


def size_text(n: float) -> str:
    """Bytes for people: ``950 bytes``, ``1.2 MB`` (decimal units)."""
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:,.1f} {unit}"
        n /= 1000
    return f"{n:.1f} GB"


def _conversion(summary: object) -> str | None:
    if not isinstance(summary, dict) or not summary:
        return None
    parts = []
    coverage = summary.get("coverage")
    if isinstance(coverage, int | float):
        parts.append(f"{coverage:.2%} of the originals' words found in the Markdown")
    measured = summary.get("measured")
    if isinstance(measured, int):
        partial = summary.get("partial") if isinstance(summary.get("partial"), int) else 0
        parts.append(f"{measured + partial:,} documents measured")
    for key, label in (
        ("unverifiable", "unverifiable (no text layer)"),
        ("below_threshold", "below the threshold"),
        ("failed", "failed"),
        ("skipped", "skipped"),
        ("ocr_pages", "pages read by OCR"),
    ):
        value = summary.get(key)
        if isinstance(value, int) and value:
            parts.append(f"{value:,} {label}")
    if not parts:
        parts = [f"{k} {v}" for k, v in summary.items() if isinstance(v, int | float | str)]
    return "; ".join(parts) or None


def signature_line(header: Header) -> str:
    if not header.signed:
        return "not signed"
    key = header.public_key or "?"
    return (
        f"signed with Ed25519 key {key}: this says who claims to have signed it, not that they did. "
        "To check the signature, give the issuer's public key, obtained from the issuer by another channel."
    )


def card(header: Header) -> list[tuple[str, str]]:
    """``(label, value)`` lines describing a package, from its header alone."""
    f = header.fields
    rows: list[tuple[str, str]] = [("file", f"{Path(header.path).name}, {size_text(header.file_bytes)}")]
    if header.kind == "legacy":
        rows.append(("format", f"first-generation mdcx (version 1), created {f.get('created_utc', '?')}"))
        rows.append(("issuer", str(f.get("issuer") or "none given")))
        rows.append(("signature", signature_line(header)))
        rows.append(
            (
                "contents",
                f"{_count(f.get('documents'), 'document', 'documents')}, "
                f"{_count(f.get('passages'), 'passage', 'passages')}",
            )
        )
        if f.get("language"):
            rows.append(("language", str(f["language"])))
        return rows
    rows.append(("issuer", str(f.get("issuer") or "none given")))
    rows.append(("signature", signature_line(header)))
    contents = _count(f.get("documents"), "document", "documents")
    if f.get("attachments"):
        contents += f" and {_count(f.get('attachments'), 'attachment', 'attachments')}"
    rows.append(("contents", f"{contents}; {_count(f.get('passages'), 'passage', 'passages')}"))
    language = f.get("language")
    if isinstance(language, str) and language:
        from ._language import NAMES

        language = NAMES.get(language, language)
        share = f.get("language_share")
        shown = f" ({share:.0%} of the text)" if isinstance(share, int | float) and share else ""
        rows.append(("language", f"mostly {language}{shown}"))
    dated = f.get("dated_documents")
    span = f.get("dated_range")
    if isinstance(dated, list) and len(dated) == 2 and all(isinstance(n, int) for n in dated):
        text = f"{dated[0]:,} of {dated[1]:,} documents dated"
        if isinstance(span, list) and len(span) == 2:
            text += f", from {span[0]} to {span[1]}"
        rows.append(("dates", text))
    conversion = _conversion(f.get("conversion"))
    rows.append(("conversion", conversion or "no conversion record (packed from Markdown)"))
    calibration = f.get("calibration")
    if isinstance(calibration, dict) and isinstance(calibration.get("answerable_at"), int | float):
        rows.append(
            (
                "calibration",
                f"answers when a passage holds {calibration['answerable_at']:.0%} of a question's weight "
                f"({calibration.get('source', 'default')})",
            )
        )
    rows.append(("created", f"{f.get('created', '?')} by {f.get('generator', '?')}"))
    features = f.get("features")
    features = ", ".join(x for x in features if isinstance(x, str)) if isinstance(features, list) else ""
    features = features or "words"
    rows.append(("indexes", features))
    embedding = f.get("embedding")
    if isinstance(embedding, dict) and embedding.get("model"):
        rows.append(
            ("meaning", f"passages encoded by {embedding['model']} ({embedding.get('dimension')} dimensions)")
        )
    return rows
