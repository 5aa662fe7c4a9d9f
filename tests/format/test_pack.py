"""Packing: every input shape, every file accounted for, byte-identical export."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers.format import FAST_KDF, KEY, write
from mdcx.format import (
    InputError,
    Package,
    PackOptions,
    PassphraseError,
    export,
    pack,
    read_header,
    search,
)

SCRIPTS = {
    "latin": "Résumé d'été",
    "cyrillic": "Отчёт",
    "greek": "Αναφορά",
    "arabic": "تقرير",
    "hebrew": "דוח",
    "devanagari": "रिपोर्ट",
    "thai": "รายงาน",
    "han": "报告",
    "kana": "レポート",
    "hangul": "보고서",
    "emoji": "report 📄",
}


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_folder_report_accounts_for_every_file(collection: Path, tmp_path: Path, fast: PackOptions) -> None:
    report = pack(collection, tmp_path / "c.mdcx", KEY, fast)
    assert report.documents == 5 and report.attachments == 1
    assert [(s.path, "not Markdown" in s.reason) for s in report.skipped] == [("@/scan.pdf", True)]
    total = report.documents + report.attachments + len(report.skipped)
    assert total == sum(1 for p in collection.rglob("*") if p.is_file())
    assert report.passages >= 5
    assert report.seconds_index > 0 and report.seconds_seal > 0
    assert set(report.seconds_index_by_phase) >= {"read", "cut", "count_terms", "index"}
    assert report.largest is not None and report.largest.path == "@/reports/storage.md"
    assert report.bytes_out == (tmp_path / "c.mdcx").stat().st_size
    data = report.to_json()
    assert json.loads(json.dumps(data)) == data


def test_export_reproduces_every_file_byte_for_byte(
    collection: Path, tmp_path: Path, fast: PackOptions
) -> None:
    write(collection, "crlf.md", b"---\r\ntitle: Windows\r\n---\r\n# Title\r\n\r\nLine one.\r\nLine two.\r\n")
    write(collection, "bom.md", "\ufeffWith a byte-order mark.\n".encode("utf-8"))
    write(collection, "utf16.md", "\ufeffUTF-16 text, ünïcödé.\n".encode("utf-16-le"))
    write(collection, "no-final-newline.md", "ends here")
    write(collection, "empty.md", "")
    write(collection, "only-front-matter.md", "---\ntitle: nothing else\n---\n")
    for name, title in SCRIPTS.items():
        write(collection, f"{title}/{title} {name}.md", f"# {title}\n\n{title} text in {name}.\n")
    long_doc = "# Long\n\n" + "\n\n".join(f"Paragraph {i}. " + "word " * (20 + i % 300) for i in range(200))
    write(collection, "long.md", long_doc)
    target = tmp_path / "c.mdcx"
    pack(collection, target, KEY, fast)
    out = tmp_path / "restored"
    with Package(target, KEY) as pkg:
        report = export(pkg, out)
    expected = {k: v for k, v in _files(collection).items() if not k.endswith(".pdf")}
    assert _files(out) == expected
    assert report.files == len(expected)


def test_export_refuses_to_overwrite(collection: Path, tmp_path: Path, fast: PackOptions) -> None:
    target = tmp_path / "c.mdcx"
    pack(collection, target, KEY, fast)
    out = tmp_path / "restored"
    write(out, "reports/storage.md", "mine, keep me")
    with Package(target, KEY) as pkg, pytest.raises(InputError, match="already exist"):
        export(pkg, out)
    assert (out / "reports/storage.md").read_text() == "mine, keep me"
    assert not (out / "notes.txt").exists()  # nothing written when refused


def test_export_refuses_symlink_escape(collection: Path, tmp_path: Path, fast: PackOptions) -> None:
    target = tmp_path / "c.mdcx"
    pack(collection, target, KEY, fast)
    out = tmp_path / "restored"
    out.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, out / "reports")
    with Package(target, KEY) as pkg, pytest.raises(InputError, match="outside"):
        export(pkg, out)
    assert list(outside.iterdir()) == []


def test_single_file(tmp_path: Path, fast: PackOptions) -> None:
    src = write(tmp_path, "one.md", "# One\n\nOnly document, about zeppelins.\n")
    target = tmp_path / "one.mdcx"
    report = pack(src, target, KEY, fast)
    assert report.documents == 1
    with Package(target, KEY) as pkg:
        assert [d.path for d in pkg.documents()] == ["@/one.md"]
        assert search([pkg], "zeppelins").documents[0].document == "@/one.md"


def test_jsonl_records_streamed(tmp_path: Path, fast: PackOptions) -> None:
    lines = [
        {
            "path": "catalogue/a.md",
            "text": "# Alpha\n\nAbout glaciers.",
            "title": "Alpha",
            "date": "2019-03-02",
        },
        {"id": "b", "text": "About volcanoes.", "date": 2015},
        {"path": "../../etc/passwd", "text": "escape attempt"},
        {"path": "/abs/path.md", "text": "absolute"},
        {"path": "c:\\windows\\x.md", "text": "drive"},
        {"path": "ok/../../up.md", "text": "climb"},
        {"text": "no path"},
        {"path": "notext.md"},
        {"path": "catalogue/a.md", "text": "duplicate path"},
        {"path": "att.md", "text": "attached", "indexed": False},
    ]
    src = tmp_path / "records.jsonl"
    src.write_text("\n".join(json.dumps(x) for x in lines) + "\nnot json at all\n[1,2]\n", encoding="utf-8")
    target = tmp_path / "r.mdcx"
    report = pack(src, target, KEY, fast)
    assert report.documents == 2 and report.attachments == 1
    reasons = {s.path: s.reason for s in report.skipped}
    assert len(report.skipped) == 9
    assert any("leaves the collection" in r for r in reasons.values())
    assert any("absolute" in r for r in reasons.values())
    assert any("already packed" in r for r in reasons.values())
    with Package(target, KEY) as pkg:
        docs = {d.path: d for d in pkg.documents()}
        assert set(docs) == {"@/catalogue/a.md", "@/b.md", "@/att.md"}
        assert (docs["@/catalogue/a.md"].dated, docs["@/catalogue/a.md"].dated_from) == (
            "2019-03-02",
            "source",
        )
        assert docs["@/b.md"].dated == "2015"
        assert docs["@/catalogue/a.md"].title == "Alpha"
        assert pkg.document("@/catalogue/a.md").fields["title"] == "Alpha"
        out = tmp_path / "out"
        export(pkg, out)
    assert (out / "catalogue/a.md").read_text() == "# Alpha\n\nAbout glaciers."
    assert not (tmp_path / "etc").exists()


def test_attachments_are_kept_but_not_indexed(collection: Path, tmp_path: Path, fast: PackOptions) -> None:
    target = tmp_path / "c.mdcx"
    pack(collection, target, KEY, fast)
    with Package(target, KEY) as pkg:
        info = pkg.find_document("@/appendix/coordinates.md")
        assert info.attachment and info.passages == 0
        assert "| 1 | 2 |" in pkg.document("coordinates.md").text
        assert not search([pkg], "coordinates").documents
        indexed = sum(d.passages for d in pkg.documents())
    assert read_header(target).fields["passages"] == indexed


def test_dates_and_provenance(collection: Path, tmp_path: Path) -> None:
    sidecar = tmp_path / "dates.csv"
    sidecar.write_text(
        "path,date,provenance\n@/notes.txt,1999-12-31\nreports/network.md,2010-01\n", encoding="utf-8"
    )
    os.utime(collection / "sent/2020-reply.md", (1_600_000_000, 1_600_000_000))
    target = tmp_path / "c.mdcx"
    report = pack(collection, target, KEY, PackOptions(kdf=FAST_KDF, dates=sidecar, date_from_mtime=True))
    with Package(target, KEY) as pkg:
        docs = {d.path: (d.dated, d.dated_from) for d in pkg.documents(attachments=False)}
    assert docs["@/notes.txt"] == ("1999-12-31", "sidecar")
    assert docs["@/reports/network.md"] == ("2010-01", "sidecar")
    assert docs["@/reports/storage.md"] == ("2021-05-03", "front-matter")
    assert docs["@/sent/2020-reply.md"] == ("2020-09-13", "mtime")
    assert report.dated == 5
    header = read_header(target).fields
    assert header["dated_range"][0] == "1999-12-31"


def test_no_trustworthy_date_means_no_date(tmp_path: Path, fast: PackOptions) -> None:
    write(tmp_path / "c", "a.md", "# Book\n\nCopyright 1987 by the author. Reprinted 2003.\n")
    target = tmp_path / "c.mdcx"
    pack(tmp_path / "c", target, KEY, fast)
    with Package(target, KEY) as pkg:
        (doc,) = pkg.documents()
    assert doc.dated is None and doc.dated_from is None


def test_correspondence_only_from_top_level_folders(tmp_path: Path, fast: PackOptions) -> None:
    root = tmp_path / "mail"
    write(root, "received/a.md", "incoming")
    write(root, "sent/b.md", "outgoing")
    write(root, "archive/received/c.md", "nested: not a direction")
    write(root, "received-2020/d.md", "similar name: not a direction")
    write(root, "Sent/e.md", "different case: not a direction")
    target = tmp_path / "m.mdcx"
    pack(root, target, KEY, fast)
    with Package(target, KEY) as pkg:
        directions = {d.path: d.direction for d in pkg.documents()}
    assert directions == {
        "@/received/a.md": "received",
        "@/sent/b.md": "sent",
        "@/archive/received/c.md": None,
        "@/received-2020/d.md": None,
        "@/Sent/e.md": None,
    }


def test_unicode_names_in_many_scripts_round_trip(tmp_path: Path, fast: PackOptions) -> None:
    root = tmp_path / "names"
    for name, title in SCRIPTS.items():
        write(root, f"{title}.md", f"{name} {title}")
    target = tmp_path / "n.mdcx"
    pack(root, target, KEY, fast)
    with Package(target, KEY) as pkg:
        assert sorted(d.path for d in pkg.documents()) == sorted(f"@/{t}.md" for t in SCRIPTS.values())
        assert pkg.document("@/报告.md").text == "han 报告"


def test_hidden_symlinks_and_non_utf8_are_reported(tmp_path: Path, fast: PackOptions) -> None:
    root = tmp_path / "c"
    write(root, "ok.md", "fine")
    write(root, ".hidden.md", "secret")
    write(root, ".git/config", "x")
    write(root, "latin1.md", "caf\xe9".encode("latin-1"))
    os.symlink("/etc/hostname", root / "link.md")
    report = pack(root, tmp_path / "c.mdcx", KEY, fast)
    reasons = {s.path: s.reason for s in report.skipped}
    assert report.documents == 1
    assert "hidden" in reasons["@/.hidden.md"] and "hidden" in reasons["@/.git/"]
    assert "symbolic link" in reasons["@/link.md"]
    assert "UTF-8" in reasons["@/latin1.md"]


def test_front_matter_problems_are_warnings_not_failures(tmp_path: Path, fast: PackOptions) -> None:
    root = tmp_path / "c"
    write(root, "bad.md", "---\ntitle: [unclosed\n---\nbody text about otters\n")
    write(root, "alias.md", "---\na: &x [1]\nb: *x\n---\nbody about alias bombs\n")
    target = tmp_path / "c.mdcx"
    report = pack(root, target, KEY, fast)
    assert report.documents == 2
    assert any("bad.md" in w and "YAML" in w for w in report.warnings)
    assert any("alias.md" in w and "aliases" in w for w in report.warnings)
    with Package(target, KEY) as pkg:
        assert pkg.document("bad.md").text.startswith("---\ntitle: [unclosed")
        assert search([pkg], "otters").documents


def test_largest_contributor_warning(tmp_path: Path, fast: PackOptions) -> None:
    root = tmp_path / "c"
    write(root, "big.md", "\n\n".join(f"# Part {i}\n\ntext {i}" for i in range(40)))
    write(root, "small1.md", "one")
    write(root, "small2.md", "two")
    report = pack(root, tmp_path / "c.mdcx", KEY, fast)
    assert report.largest.path == "@/big.md" and report.largest.share > 0.9
    assert any("@/big.md" in w and "passages" in w for w in report.warnings)


def test_empty_passphrase_refused_before_any_write(
    collection: Path, tmp_path: Path, fast: PackOptions
) -> None:
    target = tmp_path / "c.mdcx"
    with pytest.raises(PassphraseError, match="empty"):
        pack(collection, target, "", fast)
    assert list(tmp_path.iterdir()) == [collection]


def test_failed_pack_leaves_nothing_and_keeps_old_target(
    collection: Path, tmp_path: Path, fast: PackOptions
) -> None:
    target = tmp_path / "c.mdcx"
    pack(collection, target, KEY, fast)
    previous = target.read_bytes()

    class Boom(Exception):
        pass

    def progress(count: int, path: str) -> None:
        if count == 3:
            raise Boom

    with pytest.raises(Boom):
        pack(collection, target, KEY, fast, progress=progress)
    assert target.read_bytes() == previous
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.mdcx", "collection"]


def test_missing_source_and_bad_target(tmp_path: Path, fast: PackOptions) -> None:
    with pytest.raises(InputError, match="does not exist"):
        pack(tmp_path / "absent", tmp_path / "x.mdcx", KEY, fast)
    src = write(tmp_path, "a.md", "x")
    with pytest.raises(InputError, match="does not exist"):
        pack(src, tmp_path / "no" / "such" / "x.mdcx", KEY, fast)
    with pytest.raises(InputError, match="folder"):
        pack(src, tmp_path, KEY, fast)
    pdf = write(tmp_path, "a.pdf", b"%PDF")
    with pytest.raises(InputError, match="convert"):
        pack(pdf, tmp_path / "y.mdcx", KEY, fast)


def test_conversion_summary_goes_into_header(collection: Path, tmp_path: Path, fast: PackOptions) -> None:
    write(collection, "_mdcx/run.json", json.dumps({"summary": {"converted": 5, "coverage": 0.998}}))
    target = tmp_path / "c.mdcx"
    report = pack(collection, target, KEY, fast)
    assert read_header(target).fields["conversion"] == {"converted": 5, "coverage": 0.998}
    assert all("_mdcx" not in s.path for s in report.skipped)


def test_spilling_postings_gives_the_same_index(tmp_path: Path, fast: PackOptions, monkeypatch) -> None:
    from mdcx.format import _index

    root = tmp_path / "c"
    for i in range(60):
        write(root, f"d{i:02}.md", f"# Doc {i}\n\n" + " ".join(f"w{(i * 7 + j) % 97}" for j in range(300)))
    whole, spilled = tmp_path / "whole.mdcx", tmp_path / "spilled.mdcx"
    pack(root, whole, KEY, fast)
    monkeypatch.setattr(_index, "_SPILL_TOKENS", 500)  # spill every couple of documents
    pack(root, spilled, KEY, fast)

    def index(path: Path) -> list[tuple]:
        with Package(path, KEY) as pkg:
            return pkg.execute(
                "SELECT t.term, t.df, t.cf, p.ids, p.tfs FROM term t JOIN posting p ON p.id = t.id ORDER BY t.term"
            )

    assert index(whole) == index(spilled)
    assert len(index(whole)) == 97 + 60 + 1  # w0..w96, the numbers 0..59 and "doc"


def test_nested_conversion_records_are_not_packed(tmp_path: Path, fast: PackOptions) -> None:
    root = tmp_path / "outputs"
    write(root, "batch1/doc.md", "converted text one")
    write(root, "batch1/_mdcx/summary.md", "# Conversion summary\n\nconverted 1")
    write(root, "batch1/_mdcx/run.json", "{}")
    write(root, "_mdcx/summary.md", "# top summary")
    report = pack(root, tmp_path / "o.mdcx", KEY, fast)
    assert report.documents == 1
    assert [(s.path, "conversion records" in s.reason) for s in report.skipped] == [("@/batch1/_mdcx/", True)]
