"""Retrieval in any language, phrases, expressions, shapes, recency, and saying when nothing answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.format import FAST_KDF, KEY, write
from helpers.four_subjects import LANGUAGES, SCRIPTS, SUBJECTS
from mdcx.format import (
    Compression,
    Package,
    PackOptions,
    QueryError,
    SignatureError,
    SigningKey,
    add_shapes,
    assess,
    calibrate,
    pack,
    read_header,
    search,
    unfamiliar,
    unknown_terms,
    vocabulary,
)


def _pack(tmp_path: Path, name: str, docs: dict[str, str], **options) -> Path:
    root = tmp_path / f"src-{name}"
    for path, text in docs.items():
        write(root, path, text)
    target = tmp_path / f"{name}.mdcx"
    pack(root, target, KEY, PackOptions(kdf=FAST_KDF, **options))
    return target


@pytest.fixture(scope="module")
def babel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The four subjects in 34 languages and 11 scripts, in one package."""
    tmp = tmp_path_factory.mktemp("babel")
    docs = {
        f"{lang}/{subject}.md": f"# {subject}\n\n{text}\n"
        for lang, (_script, subjects) in LANGUAGES.items()
        for subject, (text, _question) in subjects.items()
    }
    return _pack(tmp, "babel", docs)


def test_the_corpus_covers_the_promised_breadth() -> None:
    assert len(LANGUAGES) >= 30
    assert {
        "latin",
        "cyrillic",
        "greek",
        "arabic",
        "hebrew",
        "devanagari",
        "bengali",
        "tamil",
        "thai",
        "han",
        "hangul",
    } == SCRIPTS


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_each_question_finds_its_own_document_first(babel: Path, lang: str) -> None:
    with Package(babel, KEY) as pkg:
        for subject in SUBJECTS:
            question = LANGUAGES[lang][1][subject][1]
            result = search([pkg], question, limit=3)
            assert result.documents, (lang, subject, result.warning)
            assert result.documents[0].document == f"@/{lang}/{subject}.md", (lang, subject, question)


def test_a_shared_name_returns_every_language_that_writes_it(babel: Path) -> None:
    writers = {
        lang for lang, (script, subjects) in LANGUAGES.items() if "Gutenberg" in subjects["printing"][0]
    }
    assert len(writers) >= 15
    with Package(babel, KEY) as pkg:
        result = search([pkg], "Gutenberg", limit=100)
    found = {d.document.split("/")[1] for d in result.documents}
    assert found == writers


def test_corpus_language_is_recorded_but_never_filters(babel: Path, tmp_path: Path) -> None:
    english = _pack(
        tmp_path,
        "english",
        {f"d{i}.md": f"The committee discussed the budget for year {i}." for i in range(20)}
        | {"x.md": "Der Ausschuss besprach das Budget."},
    )
    header = read_header(english).fields
    assert header["language"] == "en"
    with Package(english, KEY) as pkg:
        assert search([pkg], "Ausschuss Budget").documents[0].document == "@/x.md"
        result = search([pkg], "Hauptstadt Frankreich")
        assert not result.documents and "English" in result.warning


def test_tokenizer_rules_are_recorded(babel: Path) -> None:
    with Package(babel, KEY) as pkg:
        rules = pkg.meta["tokenizer"]
        assert rules["name"] == "mdcx-words" and rules["version"] == 1 and rules["units"] == "pairs"
        assert pkg.meta["lexical"]["prefix_letters"] == 5


def test_vocabulary_unknown_terms_and_cross_language(babel: Path, tmp_path: Path) -> None:
    english = _pack(
        tmp_path,
        "en",
        {f"d{i}.md": f"The harbour master inspected the lighthouse on day {i}." for i in range(12)},
    )
    with Package(english, KEY) as pkg:
        vocab = vocabulary(pkg, limit=5)
        assert vocab.terms > 10 and vocab.commonest[0][0] in ("the", "day", "harbour")
        assert "pairs" in vocab.rule
        assert unknown_terms(pkg, "the lighthouse on Alexandria") == ("alexandria",)
        same = unfamiliar(pkg, "the lighthouse on Alexandria")
        assert not same.cross_language and 0 < same.share < 0.5
        other = unfamiliar(pkg, "Der Leuchtturm von Alexandria steht am Hafen")
        assert other.cross_language and other.question_language == "de" and other.corpus_language == "en"
        signals = assess([pkg], "who inspected the lighthouse")
        assert signals.coverage is not None and signals.answerable_at is not None
        assert signals.unfamiliar["en.mdcx"].unknown == ("who",)


# -- nothing here answers -----------------------------------------------------------------------


MANUAL = [
    "How is the centrifugal pump primed? Fill the casing with water before it starts, then open the valve.",
    "The seals of the pump should be checked every month; a leaking seal is replaced at once.",
    "What does the impeller do? It moves the water from the inlet to the outlet of the pump.",
    "Gate valves and globe valves control the flow of water in the pipes of the station.",
    "The motor is cooled by air; keep the vents of the motor free of dust and oil.",
    "If the pump vibrates, the bearings are worn or the impeller is out of balance.",
    "Pressure at the outlet is shown on the gauge; it should stay between two and four bar.",
    "Before any repair, the power is switched off and the valves on both sides are closed.",
]


@pytest.fixture
def manuals(tmp_path: Path) -> Path:
    docs = {
        f"manual/{i:02}.md": f"# Section {i}\n\n{MANUAL[i % len(MANUAL)]} (copy {i // len(MANUAL)})"
        for i in range(48)
    }
    return _pack(tmp_path, "manuals", docs)


def test_an_unanswered_question_says_so(manuals: Path) -> None:
    with Package(manuals, KEY) as pkg:
        answered = search([pkg], "how is the centrifugal pump primed before it starts?")
        assert answered.answerable and answered.warning is None
        assert answered.coverage >= answered.answerable_at
        off = search([pkg], "what is the capital of France, and who governs it today?")
        assert off.answerable is False
        assert "nothing here answers" in off.warning
        assert off.answerable_at_by_package == {"manuals.mdcx": off.answerable_at}


def test_focus_and_calibrate_set_the_threshold(manuals: Path, tmp_path: Path) -> None:
    before = read_header(manuals).fields["calibration"]
    assert before["source"] in ("default", "passages")
    header = calibrate(manuals, KEY, ["how is the pump primed", "when should the seals be checked"])
    assert header["calibration"]["source"] == "focus-after"
    with Package(manuals, KEY) as pkg:
        assert pkg.meta["calibration"]["focus"] == [
            "how is the pump primed",
            "when should the seals be checked",
        ]
        assert search([pkg], "how is the pump primed").answerable
    focused = _pack(
        tmp_path, "focused", {"a.md": "Gate valves control water."}, focus=("which valves control water",)
    )
    assert read_header(focused).fields["calibration"]["source"] == "focus"


@pytest.mark.parametrize("compression", [Compression("zstd", 3), Compression("lzma", 1)])
def test_rewrites_keep_every_property(tmp_path: Path, compression: Compression) -> None:
    key = SigningKey.generate()
    docs = {
        f"d{i}.md": f"# Report {i}\n\nThe rnodern bridge crosses the river at kilometre {i}."
        for i in range(30)
    }
    target = _pack(
        tmp_path, "r", docs, compression=compression, issuer="Bridges Ltd", signing_key=key, quotes="boundary"
    )
    before = read_header(target).fields
    with pytest.raises(SignatureError, match="signed"):
        add_shapes(target, KEY)
    with pytest.raises(SignatureError, match="not the one"):
        add_shapes(target, KEY, signing_key=SigningKey.generate())
    add_shapes(target, KEY, signing_key=key)
    calibrate(target, KEY, ["where does the bridge cross the river"], signing_key=key)
    after = read_header(target).fields
    for field in (
        "issuer",
        "documents",
        "passages",
        "quotes",
        "language",
        "created",
        "block_size",
        "dated_range",
    ):
        assert after[field] == before[field], field
    assert after["compression"]["method"] == compression.method
    assert after["compression"]["preset"] == compression.preset
    assert {k: after["kdf"][k] for k in "nrp"} == {k: before["kdf"][k] for k in "nrp"}
    assert after["kdf"]["salt"] != before["kdf"]["salt"]
    assert "shapes" in after["features"] and after["calibration"]["source"] == "focus-after"
    from mdcx.format import verify

    assert verify(target, key.public_key.hex()).ok
    with Package(target, KEY) as pkg:
        pkg.authenticate()
        assert len(list(pkg.documents())) == 30


# -- OCR misreadings --------------------------------------------------------------------------------


def test_misread_words_are_found_through_shapes(tmp_path: Path) -> None:
    docs = {
        "scan.md": "The rnodern bridge was built in 1931 over the Tarn.",  # OCR read "modern" as "rnodern"
        "other.md": "A wooden boat on the lake.",
    }
    without = _pack(tmp_path, "plain", docs)
    with_shapes = _pack(tmp_path, "shapes", docs, shapes=True)
    with Package(without, KEY) as pkg:
        assert not search([pkg], "modern").documents
    with Package(with_shapes, KEY) as pkg:
        result = search([pkg], "modern")
        assert result.documents[0].document == "@/scan.md"
        assert result.read_as == {"shapes.mdcx": {"modern": "rnodern"}}
        assert result.documents[0].read_as == {"modern": "rnodern"}
        # a word that does occur is never replaced
        assert not search([pkg], "wooden").read_as


# -- expressions ---------------------------------------------------------------------------------


def test_an_expression_and_its_negation_are_told_apart(tmp_path: Path) -> None:
    docs = {
        "plus.md": "Lemma 3. For primes p and q, pq|b(b+p+q) holds when b is even.",
        "minus.md": "Lemma 4. For primes p and q, pq|b(b-p-q) holds when b is odd.",
        "prose.md": "Primes p and q are discussed at length, with b even and odd.",
    }
    target = _pack(tmp_path, "expr", docs, expressions=True)
    with Package(target, KEY) as pkg:
        plus = search([pkg], "when does pq|b(b+p+q) hold?")
        assert [d.document for d in plus.documents] == ["@/plus.md"]
        minus = search([pkg], "pq|b(b-p-q)")
        assert [d.document for d in minus.documents] == ["@/minus.md"]
        absent = search([pkg], "pq|b(b*p*q)")
        assert not absent.documents and "does not occur" in absent.warning
    plain = _pack(tmp_path, "noexpr", docs)
    with Package(plain, KEY) as pkg:  # without the index, the words decide, as they can
        assert len(search([pkg], "pq|b(b+p+q)").documents) >= 2


# -- phrases -----------------------------------------------------------------------------------


def test_quoted_phrase_must_match_as_a_phrase(tmp_path: Path) -> None:
    docs = {
        "a.md": "The storage temperature of the reagents is four degrees.",
        "b.md": "Temperature of storage rooms and the reagents storage policy.",
    }
    target = _pack(tmp_path, "phrase", docs)
    with Package(target, KEY) as pkg:
        assert [d.document for d in search([pkg], '"storage temperature"').documents] == ["@/a.md"]
        assert {d.document for d in search([pkg], "storage temperature").documents} == {"@/a.md", "@/b.md"}
        assert [d.document for d in search([pkg], "«temperature of storage»").documents] == ["@/b.md"]
        result = search([pkg], '"storage of temperature"')
        assert result.documents and result.answerable is False
        assert (
            "no passage holds the quoted phrase" in result.warning and "nearest without it" in result.warning
        )


@pytest.mark.parametrize("quotes", ["document", "boundary"])
def test_a_quotation_across_a_passage_cut_is_found(tmp_path: Path, quotes: str) -> None:
    first = " ".join(f"Alpha{i}" for i in range(150)) + " it was the best of times"
    second = "it was the worst of times " + " ".join(f"Omega{i}" for i in range(150))
    text = f"# Tale\n\n{first}\n\n{second}\n"
    target = _pack(
        tmp_path,
        f"cut-{quotes}",
        {"tale.md": text, "other.md": "the best of times, the worst of times"},
        quotes=quotes,
    )
    with Package(target, KEY) as pkg:
        assert pkg.find_document("tale.md").passages >= 2  # the quotation really crosses a cut
        result = search([pkg], '"best of times it was the worst"')
        assert [d.document for d in result.documents] == ["@/tale.md"]


def test_phrases_of_frequent_words_are_found_from_the_scored_passages(tmp_path: Path, monkeypatch) -> None:
    # Every note holds both words; only some hold them in order.  Past
    # FULL_WALK postings the candidates come from the scored passages instead
    # of a walk over the lists: both ways must keep the same documents.
    docs = {
        f"n{i:02}.md": (
            "the valve pressure was logged today" if i % 3 == 0 else "pressure on the valve was logged today"
        )
        + f" entry {i}"
        for i in range(30)
    }
    target = _pack(tmp_path, "frequent", docs)
    from mdcx.format import _phrase

    with Package(target, KEY) as pkg:
        walked = search([pkg], '"valve pressure"', limit=20)
        monkeypatch.setattr(_phrase, "FULL_WALK", 5)
        scored = search([pkg], '"valve pressure"', limit=20)
    expected = {f"@/n{i:02}.md" for i in range(0, 30, 3)}
    assert {d.document for d in walked.documents} == expected == {d.document for d in scored.documents}
    assert walked.warning is None and scored.warning is None


def test_a_quoted_lone_character_of_an_unspaced_script_is_found(tmp_path: Path) -> None:
    # "字" alone is indexed only inside pairs ("字を"): the quotation has no word of its own to look up
    docs = {"a.md": "東京は日本の首都です。漢字の字を書く。", "b.md": "大阪は大きな都市です。"}
    target = _pack(tmp_path, "lone", docs)
    with Package(target, KEY) as pkg:
        for question in ('"字"', '"京"', '"日本の首都"'):
            result = search([pkg], question)
            assert [d.document for d in result.documents] == ["@/a.md"], question
            assert result.warning is None


def test_a_phrase_can_cross_a_cut_only_at_a_passage_end() -> None:
    from mdcx.format._phrase import at_an_end, quoted_phrases

    (phrase,) = quoted_phrases('"best of times"')
    assert at_an_end(["it", "was", "the", "best", "of"], phrase)  # begins here, ends in the next passage
    assert at_an_end(["times", "it", "was"], phrase)  # began in the previous passage
    assert not at_an_end(["the", "best", "of", "all", "times"], phrase)
    assert not at_an_end(["best", "times", "of"], phrase)


# -- recency and correspondence ---------------------------------------------------------------------


def test_recency_reorders_only_ties(tmp_path: Path) -> None:
    same = "The quarterly tariff table for harbour dues."
    docs = {
        "2019.md": f"---\ndate: 2019-01-01\n---\n{same}\n",
        "2024.md": f"---\ndate: 2024-01-01\n---\n{same}\n",
        "strong.md": "---\ndate: 2001-01-01\n---\nHarbour dues: the tariff table of harbour dues, tariff by tariff.\n",
    }
    target = _pack(tmp_path, "dates", docs)
    with Package(target, KEY) as pkg:
        plain = [d.document for d in search([pkg], "harbour dues tariff table").documents]
        recent = search([pkg], "harbour dues tariff table", prefer="recent")
    order = [d.document for d in recent.documents]
    assert order[0] == plain[0] == "@/strong.md"  # the better answer stays first, however old
    assert order[1:] == ["@/2024.md", "@/2019.md"]  # the tie goes to the newer
    assert recent.prefer_applied is True
    assert recent.documents[1].dated == "2024-01-01" and recent.documents[1].dated_from == "front-matter"


def test_prefer_recent_says_when_it_cannot_apply(tmp_path: Path) -> None:
    target = _pack(tmp_path, "undated", {"a.md": "harbour dues", "b.md": "harbour dues and fees"})
    with Package(target, KEY) as pkg:
        result = search([pkg], "harbour dues", prefer="recent")
    assert result.prefer_applied is False and "date" in result.prefer_note


def test_only_received_or_sent(tmp_path: Path) -> None:
    docs = {
        "received/a.md": "invoice for the valves",
        "sent/b.md": "invoice paid for the valves",
        "c.md": "invoice archive",
    }
    target = _pack(tmp_path, "mail", docs)
    with Package(target, KEY) as pkg:
        assert [d.document for d in search([pkg], "invoice", only="received").documents] == [
            "@/received/a.md"
        ]
        assert [d.document for d in search([pkg], "invoice", only="sent").documents] == ["@/sent/b.md"]
        assert len(search([pkg], "invoice").documents) == 3
        with pytest.raises(QueryError):
            search([pkg], "invoice", only="archived")


def test_semantic_mode_needs_vectors(tmp_path: Path) -> None:
    target = _pack(tmp_path, "lex", {"a.md": "text"})
    with Package(target, KEY) as pkg, pytest.raises(QueryError, match="--multilingual"):
        search([pkg], "text", mode="semantic")
    with Package(target, KEY) as pkg:
        assert search([pkg], "text", mode="auto").mode == "lexical"


# -- several packages -------------------------------------------------------------------------------


def test_federated_ranking_where_per_package_order_would_mislead(tmp_path: Path) -> None:
    # A large package about turbines mentions a valve once; a small package is about
    # valves and holds the one document about both.  Ranked package by package, the
    # large package's lone "valve" looks rare and strong; with statistics summed over
    # both, "valve" is common and "turbine" rare, and the document about both wins.
    large = {f"t{i}.md": f"turbine maintenance log {i}: the turbine was inspected" for i in range(100)}
    large["valve-note.md"] = "a valve was noted in the yard"
    small = {f"v{i}.md": f"catalogue {i}: a valve seat, spindle and handle" for i in range(3)}
    small["both.md"] = "the valve that feeds the turbine"
    a, b = _pack(tmp_path, "large", large), _pack(tmp_path, "small", small)
    with Package(a, KEY) as pa, Package(b, KEY) as pb:
        large_alone = search([pa], "valve turbine", limit=1).documents[0]
        small_alone = search([pb], "valve turbine", limit=1).documents[0]
        together = search([pa, pb], "valve turbine", limit=3).documents
    assert large_alone.document == "@/valve-note.md" and small_alone.document == "@/both.md"
    assert large_alone.score > small_alone.score  # separate statistics would put the wrong one first
    assert (together[0].package, together[0].document) == ("small.mdcx", "@/both.md")


def test_unknown_terms_are_reported_per_package(tmp_path: Path) -> None:
    a = _pack(tmp_path, "a", {"x.md": "alpha beta"})
    b = _pack(tmp_path, "b", {"y.md": "beta gamma"})
    with Package(a, KEY) as pa, Package(b, KEY) as pb:
        result = search([pa, pb], "alpha gamma")
    assert result.unknown_terms == {"a.mdcx": ("gamma",), "b.mdcx": ("alpha",)}
    assert json.loads(json.dumps(result.to_json()))["unknown_terms"] == {
        "a.mdcx": ["gamma"],
        "b.mdcx": ["alpha"],
    }


def test_a_document_answering_in_several_passages_outranks_one_stronger_mention(tmp_path: Path) -> None:
    filler = "The canteen menu lists soup and bread for the week ahead."
    src = tmp_path / "src"
    write(src, "once.md", f"# Note\n\nCentrifugal pump priming for the centrifugal pump.\n\n{filler}\n")
    sections = (
        "## Start\n\nCentrifugal pump priming comes first.",
        "## Service\n\nAfter service, repeat the centrifugal pump priming.",
        "## Storage\n\nBefore storage, drain; priming the centrifugal pump again later.",
    )
    write(src, "manual.md", "# Manual\n\n" + "\n\n".join(f"{s} {filler}" for s in sections) + "\n")
    for i in range(5):
        write(src, f"other{i}.md", f"# Other {i}\n\n{filler}\n")
    target = tmp_path / "p.mdcx"
    pack(src, target, KEY, PackOptions(kdf=FAST_KDF))
    with Package(target, KEY) as pkg:
        result = search([pkg], "centrifugal pump priming", mode="lexical")
    manual, once = result.documents[0], result.documents[1]
    assert (manual.document, once.document) == ("@/manual.md", "@/once.md")
    # the single mention is the strongest passage of all; three answering passages still win
    assert once.passages[0].score > manual.passages[0].score and len(manual.passages) == 3


def test_a_bounded_candidate_set_keeps_the_exhaustive_best(tmp_path: Path) -> None:
    # Past the posting budget, frequent words only add their best postings and are
    # looked up exactly for the strongest candidates: the best passages must stay.
    import random

    from mdcx.format._ranking import plan, weights

    rng = random.Random(7)
    common = ["valve", "pressure", "pump", "flow", "pipe", "seal", "gauge", "tank", "motor", "filter"]
    rare = [f"part{i}" for i in range(40)]
    docs = {
        f"d{i:03}.md": " ".join(rng.choice(common) for _ in range(60)) + " " + " ".join(rng.sample(rare, 2))
        for i in range(300)
    }
    target = _pack(tmp_path, "bounded", docs)
    with Package(target, KEY) as pkg:
        engine = pkg.engine()
        overlaps = []
        for k in range(12):
            question = f"{common[k % 10]} {common[(k + 3) % 10]} {common[(k + 6) % 10]} {rare[k]}"
            p = plan(engine, question)
            w = weights([p])
            term_weights = {m: w.terms[t] for t, members in p.groups for m in members}
            assert sum(m.df for m in term_weights) > 200  # the budget below is really exceeded
            full = engine.score(term_weights, budget=10**9)
            bounded = engine.score(term_weights, budget=200)
            best_full = sorted(full, key=full.get, reverse=True)[:10]
            best_bounded = sorted(bounded, key=bounded.get, reverse=True)[:10]
            assert best_bounded[0] == best_full[0], question
            assert all(bounded[pid] == pytest.approx(full[pid]) for pid in best_bounded)  # exact scores
            overlaps.append(len(set(best_full) & set(best_bounded)) / 10)
    assert sum(overlaps) / len(overlaps) >= 0.9, overlaps
