"""Benchmark of the MCP server on the bench package.

    uv run python tools/bench-mcp --documents 20000

Packs (once, cached under --work, with the real ``mdcx pack`` and the real
key derivation) the generated corpus of ``tools/bench``, starts
``python -m mdcx.mcp_server`` on it as a client would, and prints: server
start to the initialize reply, server start to the first search answer
(that search opens the package: key derivation, block table, index), warm
search latency p50/p95 for rare and common questions, a whole-document read,
the size of a 20-document reply, and the server's peak RSS (from wait4, after
it exits because the client closed its standard input).  The client here
speaks JSON-RPC over the pipes directly, so the times are the server's.
The first-generation server took 8 s to its first search and peaked at 945 MiB.
This is a measurement, not a test: machines here are shared and noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from corpus import FUNCTION_WORDS, vocabulary, write_corpus

KEY = "bench passphrase"


class Server:
    """The spawned server and a minimal JSON-RPC client over its pipes."""

    def __init__(self, package: Path, env: dict):
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mdcx.mcp_server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**env, "MDCX_FILE": str(package), "MDCX_KEY": KEY},
        )
        self.ids = 0

    def send(self, method: str, params: dict | None = None, *, notify: bool = False) -> dict | None:
        message = {"jsonrpc": "2.0", "method": method, **({"params": params} if params is not None else {})}
        if not notify:
            self.ids += 1
            message["id"] = self.ids
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        self.proc.stdin.flush()
        if notify:
            return None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit(f"the server ended: {self.proc.stderr.read().decode(errors='replace')}")
            answer = json.loads(line)
            if answer.get("id") == self.ids:
                if "error" in answer:
                    raise SystemExit(f"{method} failed: {answer['error']}")
                return answer["result"]

    def call(self, tool: str, arguments: dict) -> tuple[float, dict, int]:
        start = time.perf_counter()
        result = self.send("tools/call", {"name": tool, "arguments": arguments})
        took = time.perf_counter() - start
        if result.get("isError"):
            raise SystemExit(f"{tool} failed: {result['content'][0]['text']}")
        return took, result["structuredContent"], len(result["content"][0]["text"].encode())

    def rss(self) -> int:
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        except OSError:
            pass
        return 0

    def close(self) -> tuple[float, int]:
        """Close standard input, as a disconnecting client does; seconds to exit and peak RSS."""
        start = time.perf_counter()
        self.proc.stdin.close()
        _, status, usage = os.wait4(self.proc.pid, 0)
        self.proc.returncode = os.waitstatus_to_exitcode(status)
        return time.perf_counter() - start, usage.ru_maxrss * 1024


def bench_package(work: Path, documents: int, words: int, env: dict) -> Path:
    folder = work / f"corpus-{documents}x{words}"
    stamp = folder / ".complete"
    if not stamp.exists():
        print(f"generating {documents:,} documents of about {words} words into {folder} ...", flush=True)
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(str(write_corpus(folder, documents, words)))
    target = work / f"bench-mcp-{documents}.mdcx"
    if not target.exists():
        print(f"packing {folder} into {target} ...", flush=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "mdcx.format",
                "pack",
                "--output",
                str(folder),
                "--target",
                str(target),
                "--quiet",
            ],
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return target


def questions(count: int, seed: int = 5) -> dict[str, list[str]]:
    rnd = random.Random(seed)
    vocab = vocabulary()
    return {
        "rare": [f"{rnd.choice(vocab[3000:40000])} {rnd.choice(vocab[3000:40000])}" for _ in range(count)],
        "common": [
            " ".join([*rnd.sample(FUNCTION_WORDS[:60], 3), rnd.choice(vocab[200:3000])]) for _ in range(count)
        ],
    }


def line(name: str, value: str, note: str = "") -> None:
    print(f"  {name:<42} {value:>16}   {note}")


def main() -> int:
    ap = argparse.ArgumentParser(
        prog="tools/bench-mcp", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--documents", type=int, default=20_000)
    ap.add_argument("--words", type=int, default=1000, help="words per document (about)")
    ap.add_argument("--work", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "mdcx-bench")
    ap.add_argument("--queries", type=int, default=40, help="warm questions per kind")
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "MDCX_KEY": KEY, "HF_HUB_OFFLINE": "1"}
    package = bench_package(args.work, args.documents, args.words, env)
    asked = questions(args.queries + 1)

    server = Server(package, env)
    server.send(
        "initialize",
        {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "bench-mcp", "version": "1"},
        },
    )
    ready = time.perf_counter() - server.started
    server.send("notifications/initialized", notify=True)
    rss_ready = server.rss()
    first, found, _ = server.call("search", {"question": asked["rare"][0]})
    to_first = time.perf_counter() - server.started
    rss_first = server.rss()
    assert found["documents"], "the first question found nothing"

    warm: dict[str, list[float]] = {}
    for kind, qs in asked.items():
        warm[kind] = sorted(server.call("search", {"question": q})[0] * 1000 for q in qs[1:])
    _, big, big_bytes = server.call("search", {"question": asked["common"][1], "limit": 20})
    reads = []
    for hit in found["documents"][:5]:
        reads.append(server.call("document", {"name": hit["document"]})[0] * 1000)
    _, info, _ = server.call("info", {})
    memory = info["packages"][0]["memory_bytes"]
    exit_s, peak = server.close()

    size = package.stat().st_size
    print(
        f"\nmdcx-mcp bench: {args.documents:,} documents, package {size / 1e6:,.1f} MB, python {sys.version.split()[0]}"
    )
    line("server start to initialize reply", f"{ready:.2f} s", f"(RSS then {rss_ready / 2**20:.0f} MiB)")
    line("server start to first search answer", f"{to_first:.2f} s", "first generation: 8 s")
    line("first search (opens the package)", f"{first * 1000:.0f} ms")
    for kind, times in warm.items():
        p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
        line(f"warm {kind} search p50 / p95", f"{statistics.median(times):.1f} / {p95:.1f} ms")
    line("whole-document read p50", f"{statistics.median(reads):.1f} ms")
    line("20-document reply", f"{big_bytes:,} bytes", f"{len(big['documents'])} documents, budget 60,000")
    line("block cache held (info)", f"{memory / 2**20:.1f} MiB")
    line("RSS after first search", f"{rss_first / 2**20:.0f} MiB")
    line("peak RSS (wait4)", f"{peak / 2**20:.0f} MiB", "first generation: 945 MiB")
    line("exit after the client disconnects", f"{exit_s * 1000:.0f} ms", f"status {server.proc.returncode}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
