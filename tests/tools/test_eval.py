"""tools/eval on a collection in the Cranfield layout: the figures it prints are computed, not assumed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _collection(folder: Path) -> Path:
    folder.mkdir()
    docs = [
        {"id": "d1", "title": "Pumps", "text": "Prime the centrifugal pump before starting it."},
        {"id": "d2", "title": "Valves", "text": "A gate valve is either fully open or fully closed."},
        {"id": "d3", "title": "Canteen", "text": "The canteen serves soup on Fridays."},
    ]
    queries = [
        {"id": "q1", "text": "how to prime a centrifugal pump"},
        {"id": "q2", "text": "gate valve closed"},
        {"id": "q3", "text": "soup"},
        {"id": "q4", "text": "?!"},  # no words: ranks nothing, counts as a miss
    ]
    (folder / "docs.jsonl").write_text("".join(json.dumps(d) + "\n" for d in docs))
    (folder / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in queries))
    # q3's judged document is d2 on purpose: one question in four misses
    qrels = "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\nq3\td2\t1\nq4\td3\t1\n"
    (folder / "qrels.tsv").write_text(qrels)
    return folder


def test_eval_prints_the_measures_of_a_real_package(tmp_path: Path) -> None:
    folder = _collection(tmp_path / "tiny")
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "eval"), str(folder)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "tiny: 3 documents, 4 queries" in done.stdout
    # q1 and q2 first (1 each), q3 misses d2 entirely, q4 has no words: MRR = 2/4
    assert "MRR 0.500" in done.stdout, done.stdout


def _eval_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("mdcx_eval", ROOT / "tools" / "eval" / "__main__.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_agreement_keeps_the_ranks_of_items_most_languages_miss() -> None:
    agreement = _eval_module().agreement
    per_language = {
        "a": {"q1": 1.0, "q2": 0.5, "q3": 0.25},
        "b": {"q1": 0.5, "q2": 1.0, "q3": 0.5},
        "c": {"q1": 1.0, "q2": 1.0, "q3": 1.0},
    }
    hard, ceiling = agreement(per_language)
    # q3 is first in one language of three: hard, its ranks kept; q1 and q2 count as first everywhere
    assert hard == ["q3"]
    assert abs(ceiling - ((2 + 0.25) / 3 + (2 + 0.5) / 3 + 3 / 3) / 3) < 1e-12
