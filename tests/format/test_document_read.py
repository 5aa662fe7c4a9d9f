"""Reading one document reads that document's blocks, not the whole body."""

from __future__ import annotations

import random
from pathlib import Path

from helpers.format import FAST_KDF, KEY, write
from mdcx.format import Package, PackOptions, export, pack


def test_one_document_costs_its_own_blocks(tmp_path: Path) -> None:
    rnd = random.Random(5)
    words = [f"w{n}" for n in range(5000)]
    src = tmp_path / "src"
    for d in range(300):
        paragraphs = ["\n".join(" ".join(rnd.choices(words, k=12)) for _ in range(8)) for _ in range(6)]
        write(src, f"d{d:03}.md", f"# Document {d}\n\n" + "\n\n".join(paragraphs) + "\n")
    target = tmp_path / "p.mdcx"
    pack(src, target, KEY, PackOptions(kdf=FAST_KDF))
    with Package(target, KEY) as pkg:
        before = pkg.memory_bytes
        doc = pkg.document("@/d150.md")
        assert doc.text == (src / "d150.md").read_text(encoding="utf-8")
        assert pkg.memory_bytes - before < pkg.header.fields["database_bytes"] / 10
        export(pkg, tmp_path / "out")
    assert (tmp_path / "out" / "d299.md").read_bytes() == (src / "d299.md").read_bytes()
