"""Reading: shared between threads and processes, bounded memory, nothing on disk."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from helpers.format import FAST_KDF, KEY, write
from mdcx.format import Package, PackOptions, pack, search


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("reader")
    src = root / "src"
    for i in range(300):
        words = " ".join(f"term{(i * 31 + j * 17) % 2000}" for j in range(400))
        write(src, f"d{i:03}.md", f"# Document {i}\n\n{words}\n\nunique{i} marker.\n")
    target = root / "r.mdcx"
    pack(src, target, KEY, PackOptions(kdf=FAST_KDF))
    return target


QUERIES = [f"unique{i} term{i * 3}" for i in range(0, 300, 7)]


def _answers(pkg: Package) -> list[tuple]:
    return [tuple(d.document for d in search([pkg], q, limit=3).documents) for q in QUERIES]


def test_threads_share_one_package(package: Path) -> None:
    with Package(package, KEY, cache_bytes=256 * 1024) as pkg:
        expected = _answers(pkg)
        assert all(a[0] == f"@/d{int(q.split()[0][6:]):03}.md" for a, q in zip(expected, QUERIES))
        results: list[list[tuple]] = []
        errors: list[BaseException] = []

        def worker() -> None:
            try:
                for _ in range(3):
                    results.append(_answers(pkg))
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=worker) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not errors
    assert len(results) == 24 and all(r == expected for r in results)


def test_processes_read_the_same_file(package: Path) -> None:
    code = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(Path(__file__).resolve().parents[1])!r})
        from helpers.format import KEY
        from mdcx.format import Package, search
        with Package({str(package)!r}, KEY) as pkg:
            for i in range(0, 300, 7):
                top = search([pkg], f"unique{{i}}", limit=1).documents[0].document
                assert top == f"@/d{{i:03}}.md", top
        print("ok")
        """
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(4)
    ]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err.decode()
        assert out.strip() == b"ok"


def test_block_cache_is_bounded(package: Path) -> None:
    limit = 256 * 1024
    with Package(package, KEY, cache_bytes=limit) as pkg:
        for info in pkg.documents():
            pkg.document(info.path)
        assert 0 < pkg.memory_bytes <= limit


def test_reading_writes_nothing_to_disk(package: Path, tmp_path: Path) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    before = sorted(p.name for p in package.parent.iterdir())
    code = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(Path(__file__).resolve().parents[1])!r})
        from helpers.format import KEY
        from mdcx.format import Package, search
        with Package({str(package)!r}, KEY) as pkg:
            # a sort large enough that SQLite would spill it to a temporary file
            rows = pkg.execute("SELECT text FROM passage ORDER BY text DESC, id")
            assert len(rows) > 100
            search([pkg], "term5 term7 term9")
        """
    )
    env = {"TMPDIR": str(scratch), "SQLITE_TMPDIR": str(scratch), "PATH": "/usr/bin:/bin"}
    subprocess.run([sys.executable, "-c", code], check=True, env=env, timeout=120)
    assert list(scratch.iterdir()) == []
    assert sorted(p.name for p in package.parent.iterdir()) == before


def test_closed_package_says_so(package: Path) -> None:
    pkg = Package(package, KEY)
    pkg.close()
    pkg.close()  # closing twice is fine
    from mdcx.format import MdcxError

    with pytest.raises(MdcxError, match="closed"):
        pkg.execute("SELECT 1")


def test_reading_one_document_reads_only_its_passages(package: Path) -> None:
    with Package(package, KEY) as pkg:
        database = pkg.header.fields["database_bytes"]
        text = pkg.document("@/d150.md").text
        held = pkg.memory_bytes
    words = " ".join(f"term{(150 * 31 + j * 17) % 2000}" for j in range(400))
    assert text == f"# Document 150\n\n{words}\n\nunique150 marker.\n"
    # Its passages are one id range: a few blocks, not a scan of the passage table.
    assert held < database / 8, (held, database)
