"""Benchmark of mdcx-format on a generated corpus.

    uv run python tools/bench --documents 20000

Generates (once, cached under --work) a corpus of N Markdown documents of
about 1,000 words, packs it with the real ``mdcx`` command in a fresh
process, and prints: pack time and peak memory, package bytes / input bytes,
open time, fresh-process ``mdcx search`` time and peak RSS, and warm query
latency (p50/p95) for rare, common and phrase questions.  ``--large-gb G``
also builds a package of at least G GB and compares its open time and fresh
search memory with a 1 MB package.  Targets from the issues are printed
beside each figure; this is a measurement, not a test: compare the ratios of
one run, machines here are shared and noisy.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import queries, write_corpus

KEY = "bench passphrase"


def run_measured(cmd: list[str], env: dict) -> tuple[float, int, str]:
    """Wall seconds, this child's own peak RSS (bytes, from wait4) and its output."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode:
            raise SystemExit(f"failed: {' '.join(cmd[:5])} ...\n{err.read().decode(errors='replace')}")
        return wall, usage.ru_maxrss * 1024, out.read().decode(errors="replace")


def mdcx(*args: str) -> list[str]:
    return [sys.executable, "-m", "mdcx.format", *args]


def corpus(work: Path, documents: int, words: int) -> tuple[Path, int]:
    folder = work / f"corpus-{documents}x{words}"
    stamp = folder / ".complete"
    if stamp.exists():
        return folder, int(stamp.read_text())
    print(f"generating {documents:,} documents of about {words} words into {folder} ...", flush=True)
    size = write_corpus(folder, documents, words)
    stamp.write_text(str(size))
    return folder, size


def pack(folder: Path, target: Path, env: dict, extra: list[str] = ()) -> tuple[float, int]:
    if target.exists():
        target.unlink()
    wall, rss, _ = run_measured(
        mdcx("pack", "--output", str(folder), "--target", str(target), "--quiet", *extra), env
    )
    return wall, rss


def open_seconds(target: Path, repeat: int = 5) -> float:
    from mdcx.format import Package

    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        with Package(target, KEY):
            times.append(time.perf_counter() - t)
    return statistics.median(times)


def warm_latency(target: Path, sets: dict[str, list[str]]) -> dict[str, tuple[float, float]]:
    from mdcx.format import Package, search

    out = {}
    with Package(target, KEY) as pkg:
        for q in sets["rare"][:5]:
            search([pkg], q)
        for name, qs in sets.items():
            times = []
            for q in qs:
                t = time.perf_counter()
                search([pkg], q, limit=10)
                times.append((time.perf_counter() - t) * 1000)
            times.sort()
            out[name] = (statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.95))])
    return out


def fresh_search(target: Path, env: dict, qs: list[str]) -> tuple[float, int]:
    walls, peaks = [], []
    for q in qs:
        wall, rss, _ = run_measured(mdcx("search", str(target), q), env)
        walls.append(wall)
        peaks.append(rss)
    return statistics.median(walls), max(peaks)


def line(name: str, value: str, target: str = "", ok: bool | None = None) -> None:
    mark = "" if ok is None else ("  ok" if ok else "  MISSED")
    print(f"  {name:<34} {value:>18}   {target}{mark}")


def main() -> int:
    ap = argparse.ArgumentParser(
        prog="tools/bench", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--documents", type=int, default=20_000)
    ap.add_argument("--words", type=int, default=1000, help="words per document (about)")
    ap.add_argument("--work", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "mdcx-bench")
    ap.add_argument("--queries", type=int, default=60, help="warm queries per kind")
    ap.add_argument("--fresh", type=int, default=5, help="fresh-process searches")
    ap.add_argument("--compression", choices=("zstd", "lzma"), default="zstd")
    ap.add_argument(
        "--large-gb", type=float, default=0.0, help="also build a package of at least this many GB"
    )
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "MDCX_KEY": KEY}

    folder, size = corpus(args.work, args.documents, args.words)
    target = args.work / f"bench-{args.documents}-{args.compression}.mdcx"
    pack_s, pack_rss = pack(folder, target, env, ["--compression", args.compression])
    pkg_bytes = target.stat().st_size
    small_folder, _ = corpus(args.work, 150, args.words)
    small = args.work / "small.mdcx"
    pack(small_folder, small, env)
    sets = queries(folder, args.queries)

    print(
        f"\nmdcx-format bench: {args.documents:,} documents, {size / 1e6:,.1f} MB of Markdown, {args.compression}"
    )
    scale = 131e6 / size if size else 1
    line(
        "pack",
        f"{pack_s:.1f} s",
        f"<= 40 s for 131 MB (scaled: {pack_s * scale:.1f} s)",
        pack_s * scale <= 40,
    )
    line("pack peak RSS", f"{pack_rss / 2**20:.0f} MiB")
    line("package / input", f"{pkg_bytes / size:.3f}", "<= 0.6", pkg_bytes / size <= 0.6)
    small_open, big_open = open_seconds(small), open_seconds(target)
    line("open, 1 MB-class package", f"{small_open * 1000:.0f} ms ({small.stat().st_size / 1e6:.1f} MB)")
    line(
        "open, bench package",
        f"{big_open * 1000:.0f} ms",
        f"<= 2x small ({big_open / small_open:.2f}x)",
        big_open <= 2 * small_open,
    )
    wall, rss = fresh_search(
        target, env, sets["rare"][: args.fresh // 2 + 1] + sets["common"][: args.fresh // 2]
    )
    line("fresh-process mdcx search", f"{wall:.2f} s", "<= 0.5 s", wall <= 0.5)
    line("fresh-process search peak RSS", f"{rss / 2**20:.0f} MiB", "<= 150 MiB", rss <= 150 * 2**20)
    for name, (p50, p95) in warm_latency(target, sets).items():
        line(
            f"warm {name} query p50 / p95",
            f"{p50:.1f} / {p95:.1f} ms",
            "<= 10 / 50 ms",
            p50 <= 10 and p95 <= 50,
        )

    if args.large_gb:
        # Aim 10 % over: the bytes per document shrink a little as the corpus
        # grows (a larger dictionary of shared terms), and 4 % fell short.
        n = int(args.documents * args.large_gb * 1e9 / max(pkg_bytes, 1) * 1.10) + 1
        large_folder, _large_size = corpus(args.work, n, args.words)
        large = args.work / f"large-{n}.mdcx"
        if not large.exists():
            pack(large_folder, large, env)
        large_open = open_seconds(large)
        large_bytes = large.stat().st_size
        line(
            "large package",
            f"{large_bytes / 1e9:.2f} GB ({n:,} docs)",
            f">= {args.large_gb:g} GB",
            large_bytes >= args.large_gb * 1e9,
        )
        line(
            "open, large package",
            f"{large_open * 1000:.0f} ms",
            f"<= 2x 1 MB ({large_open / small_open:.2f}x)",
            large_open <= 2 * small_open,
        )
        wall, rss = fresh_search(large, env, sets["rare"][:3] + sets["common"][:2])
        line("fresh search on large, peak RSS", f"{rss / 2**20:.0f} MiB", "<= 200 MiB", rss <= 200 * 2**20)
        line("fresh search on large", f"{wall:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
