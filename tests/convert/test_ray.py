"""Scale-out: the same run on a local Ray instance gives the same output and index."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.convert import docx, ruled_table_pdf, text_pdf
from mdcx.convert import ConvertOptions, convert

ray = pytest.importorskip("ray")


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "_mdcx" not in p.parts
    }


def test_ray_run_matches_local_run(tmp_path: Path) -> None:
    src = tmp_path / "docs"
    src.mkdir()
    ruled_table_pdf(src / "report.pdf")
    docx(src / "harbour.docx")
    text_pdf(src / "long.pdf", 5)
    (src / "legacy.doc").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + "WordDocument".encode("utf-16-le"))
    options = ConvertOptions(split_threshold=2)
    local = convert(src, tmp_path / "local", options)
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        remote = convert(src, tmp_path / "ray", ConvertOptions(split_threshold=2, ray="auto"))
    finally:
        ray.shutdown()
    assert remote.summary["workers"].startswith("ray")
    assert _tree(tmp_path / "ray") == _tree(tmp_path / "local")
    a = json.loads((tmp_path / "local" / "_mdcx" / "run.json").read_text(encoding="utf-8"))
    b = json.loads((tmp_path / "ray" / "_mdcx" / "run.json").read_text(encoding="utf-8"))

    def stable(index: dict) -> list:
        return [
            {k: v for k, v in d.items() if k not in ("seconds", "ocr_seconds")} for d in index["documents"]
        ]

    assert stable(a) == stable(b)
    assert local.summary["converted"] == remote.summary["converted"] == 3
