"""Plain-text renderings of library results for the ``mdcx`` command."""

from __future__ import annotations

import textwrap

from ._card import size_text as _size
from ._reader import Header
from ._search import SearchResult
from ._signing import Verification
from ._writer import PackReport


def pack_report(r: PackReport) -> str:
    lines = [
        f"packed {r.documents:,} documents"
        + (f" and {r.attachments:,} attachment{'s' if r.attachments != 1 else ''}" if r.attachments else "")
        + f" into {r.target}"
    ]
    lines.append(f"  passages     {r.passages:,}")
    lines.append(f"  size         {_size(r.bytes_out)} from {_size(r.bytes_in)} of Markdown ({r.ratio:.2f}x)")
    if r.largest:
        lines.append(
            f"  largest      {r.largest.path}: {r.largest.passages:,} passages ({r.largest.share:.0%})"
        )
    phases = ", ".join(f"{k.replace('_', ' ')} {v:.1f}" for k, v in r.seconds_index_by_phase.items())
    lines.append(f"  time         index {r.seconds_index:.1f} s ({phases}), seal {r.seconds_seal:.1f} s")
    c = r.compression
    lines.append(f"  compression  {c['method']} level {c['level']}")
    lines.append(f"  dated        {r.dated:,} of {r.documents:,} documents")
    lines.append(f"  signed       {'yes' if r.signed else 'no'}")
    if r.encoding:
        e = r.encoding
        lines.append(
            f"  meaning      {e['model']} ({e['dimension']} dimensions): {e['encoded']:,} passages encoded, "
            f"{e['reused']:,} reused; {e['passages_per_second']:.1f} passages/s, "
            f"mean passage {e['mean_passage_chars']:.0f} characters"
        )
    if r.skipped:
        lines.append(f"not packed ({len(r.skipped):,}):")
        lines.extend(f"  {s.path}: {s.reason}" for s in r.skipped[:50])
        if len(r.skipped) > 50:
            lines.append(f"  ... and {len(r.skipped) - 50:,} more (use --json for all)")
    for w in r.warnings:
        lines.append(f"warning: {w}")
    return "\n".join(lines)


_INTEGRITY = {
    "intact": "intact",
    "altered": "ALTERED: the body does not match its digest",
    "truncated": "TRUNCATED: bytes are missing from the body, or were appended after it",
}


def info(h: Header, state: str) -> str:
    """``state``: the body's integrity, as ``body_state`` tells it."""
    f = h.fields
    lines = [h.path]
    if h.kind == "legacy":
        lines.append(f"  format       first-generation mdcx (version 1), created {f.get('created_utc', '?')}")
        lines.append(
            f"  issuer       {f.get('issuer') or '(none)'}; {'signed' if h.signed else 'not signed'}"
        )
        lines.append(f"  documents    {f.get('documents', '?')}, passages {f.get('passages', '?')}")
        lines.append(f"  language     {f.get('language') or 'unknown'}")
        lines.append(f"  integrity    {_INTEGRITY[state]}")
        lines.append(f"  compression  {f.get('compression') or 'lzma'}")
        return "\n".join(lines)
    lines.append(
        f"  format       mdcx {f.get('version')}, created {f.get('created')} by {f.get('generator')}"
    )
    signing = f"signed (Ed25519, public key {h.public_key})" if h.signed else "not signed"
    lines.append(f"  issuer       {f.get('issuer') or '(none)'}; {signing}")
    n_att = f.get("attachments") or 0
    att = f" and {n_att:,} attachment{'s' if n_att != 1 else ''}" if n_att else ""
    lines.append(f"  documents    {f.get('documents', 0):,}{att}; {f.get('passages', 0):,} passages")
    lines.append(f"  integrity    {_INTEGRITY[state]}")
    dated = f.get("dated_documents") or [0, f.get("documents", 0)]
    span = f.get("dated_range")
    lines.append(
        f"  dates        {dated[0]:,} of {dated[1]:,} documents dated"
        + (f", {span[0]} to {span[1]}" if span else "")
    )
    comp = f.get("compression") or {}
    lines.append(
        f"  compression  {comp.get('method')} level {comp.get('level')}, {f.get('blocks')} blocks of {int(f.get('block_size', 0)) // 1024} KiB"
    )
    kdf = f.get("kdf") or {}
    lines.append(
        f"  encryption   {f.get('cipher')}, scrypt N={kdf.get('n')} r={kdf.get('r')} p={kdf.get('p')}"
    )
    lines.append(
        f"  indexes      {', '.join(f.get('features') or [])}; quotations across cuts: {f.get('quotes')}"
    )
    if f.get("language"):
        lines.append(
            f"  language     {f['language']} ({float(f.get('language_share') or 0):.0%} of the text)"
        )
    calibration = f.get("calibration") or {}
    if calibration:
        at = float(calibration.get("answerable_at", 0))
        lines.append(
            f"  calibration  answers from {at:.0%} of a question's weight ({calibration.get('source')})"
        )
        if "similarity_at" in calibration:
            reach = calibration["similarity_at"]
            lines.append(
                "               by meaning: "
                + ("not measured (too few passages)" if reach is None else f"from similarity {reach:.3f}")
            )
    conversion = f.get("conversion")
    if isinstance(conversion, dict) and conversion:
        summary = ", ".join(f"{k} {v}" for k, v in conversion.items() if isinstance(v, int | float | str))
        lines.append(f"  conversion   {summary}")
    return "\n".join(lines)


def verification(v: Verification) -> str:
    status = "OK" if v.ok else "FAILED"
    return f"{status}: {v.path}: {v.reason}" + (f" (issuer {v.issuer})" if v.issuer and v.ok else "")


def search_result(r: SearchResult) -> str:
    lines = []
    if r.warning:
        lines.append(f"warning: {r.warning}")
    for pkg, terms in r.unknown_terms.items():
        lines.append(f"not in {pkg}: {', '.join(terms)}")
    for pkg, spellings in r.read_as.items():
        shown = ", ".join(f"{asked} read as {found}" for asked, found in spellings.items())
        lines.append(f"in {pkg}, no word of the question occurs as written; {shown}")
    if r.prefer_applied is not None:
        lines.append(f"prefer recent: {r.prefer_note}")
    for note in r.notes:
        lines.append(f"note: {note}")
    for d in r.documents:
        title = f" - {d.title}" if d.title else ""
        dated = f", {d.dated}" if d.dated else ""
        lines.append(f"{d.rank}. {d.document}{title}  [{d.package}{dated}, score {d.score:.2f}]")
        for p in d.passages:
            where = [f"passage {p.position + 1}"]
            if p.page is not None:
                pages = f"-{p.last_page}" if p.last_page and p.last_page != p.page else ""
                where.insert(0, f"page {p.page}{pages}")
            if p.heading:
                where.append(p.heading)
            lines.append(f"   ({', '.join(where)})")
            body = p.text if len(p.text) <= 600 else p.text[:600].rsplit(" ", 1)[0] + " ..."
            lines.append(textwrap.indent(body, "   | ", lambda _line: True))
    if not r.documents and not r.warning:
        lines.append("no results")
    return "\n".join(lines)


def vocabulary(v, asked=None) -> str:
    lang = v.language.get("name") or v.language.get("code") or "unknown"
    lines = [f"{v.package}: {v.terms:,} terms; mostly {lang}", f"  rule: {v.rule}"]
    lines.append("  commonest: " + ", ".join(f"{t} ({d:,})" for t, d in v.commonest))
    if asked is not None:
        unknown = ", ".join(asked.unknown) or "none"
        lines.append(f"  never seen: {unknown} ({asked.share:.0%} of the question's terms)")
        if asked.cross_language:
            lines.append(
                f"  the question looks like {asked.question_language}, the corpus like {asked.corpus_language}"
            )
    return "\n".join(lines)
