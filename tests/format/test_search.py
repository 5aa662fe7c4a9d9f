"""Plain BM25 by document, over one package or several as one corpus."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.format import FAST_KDF, KEY, write
from mdcx.format import InputError, Package, PackOptions, QueryError, UnsupportedVersion, pack, search


def _package(tmp_path: Path, name: str, docs: dict[str, str], key: str = KEY) -> Path:
    root = tmp_path / f"src-{name}"
    for path, text in docs.items():
        write(root, path, text)
    target = tmp_path / f"{name}.mdcx"
    pack(root, target, key, PackOptions(kdf=FAST_KDF))
    return target


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    docs = {
        f"filler/{i}.md": f"# Filler {i}\n\nGeneral remarks number {i} about nothing in particular."
        for i in range(30)
    }
    docs["pumps.md"] = (
        "# Pumps\n\nCentrifugal pumps move water.\n\n## Priming\n\nA centrifugal pump must be primed.\n\n"
        "## Seals\n\nCentrifugal pump seals wear out."
    )
    docs["mention.md"] = "# Misc\n\nOne centrifugal fan, mentioned once, among other things to discuss here."
    return _package(tmp_path, "corpus", docs)


def test_ranks_documents_and_carries_provenance(corpus: Path) -> None:
    with Package(corpus, KEY) as pkg:
        result = search([pkg], "centrifugal pump", limit=3)
    top = result.documents[0]
    assert top.document == "@/pumps.md" and top.rank == 1 and top.package == "corpus.mdcx"
    assert top.passages and all(p.text for p in top.passages)
    assert top.passages[0].heading is not None and top.passages[0].position >= 0
    assert result.documents[1].document == "@/mention.md"
    assert result.warning is None and not result.unknown_terms


def test_short_terms_are_searchable(corpus: Path, tmp_path: Path) -> None:
    target = _package(
        tmp_path, "short", {"a.md": "The AI model runs on 5G; pH 7; 10 units.", "b.md": "Nothing here."}
    )
    with Package(target, KEY) as pkg:
        for q in ("AI", "5G", "pH", "10"):
            assert search([pkg], q).documents[0].document == "@/a.md", q


def test_unknown_terms_and_no_answer(corpus: Path) -> None:
    with Package(corpus, KEY) as pkg:
        result = search([pkg], "zeppelin airship")
        assert not result.documents
        assert result.unknown_terms == {"corpus.mdcx": ("zeppelin", "airship")}
        assert "none of the question's words" in result.warning
        partial = search([pkg], "zeppelin pumps")
        assert partial.unknown_terms == {"corpus.mdcx": ("zeppelin",)}
        assert partial.documents


@pytest.mark.parametrize("query", ["", "   ", "!!! ??? ...", "x" * 30_000])
def test_unusable_questions(corpus: Path, query: str) -> None:
    with Package(corpus, KEY) as pkg, pytest.raises(QueryError):
        search([pkg], query)


@pytest.mark.parametrize(
    "query",
    [
        "'; DROP TABLE passage; --",
        'pump" OR 1=1 --',
        "pump) UNION SELECT * FROM meta",
        "NEAR(pump seals)",
        "pump*",
    ],
)
def test_sql_like_questions_are_just_words(corpus: Path, query: str) -> None:
    with Package(corpus, KEY) as pkg:
        result = search([pkg], query)
        assert pkg.execute("SELECT count(*) FROM passage")[0][0] > 0
    assert all(d.document.startswith("@/") for d in result.documents)


def test_long_question_uses_every_sentence(corpus: Path) -> None:
    with Package(corpus, KEY) as pkg:
        result = search([pkg], "I have a question about something. What about the seals? Do they wear out?")
    assert result.documents[0].document == "@/pumps.md"


def test_statistics_are_combined_across_packages(tmp_path: Path) -> None:
    # "valve" is common in the large package and rare in the small one; with
    # per-package statistics the small package's one mention would win.
    big = {f"v{i}.md": f"valve report {i}: the valve was replaced" for i in range(60)}
    big["turbine.md"] = "turbine and valve inspection, turbine turbine"
    small = {"note.md": "a valve", "other.md": "unrelated text about lunch"}
    a, b = _package(tmp_path, "big", big), _package(tmp_path, "small", small)
    with Package(a, KEY) as pa, Package(b, KEY) as pb:
        result = search([pa, pb], "turbine valve")
        assert result.documents[0].document == "@/turbine.md"
        # scores from both packages are on one scale
        by_pkg = {d.package for d in search([pa, pb], "valve", limit=100).documents}
        assert by_pkg == {"big.mdcx", "small.mdcx"}


def test_any_script_question(corpus: Path) -> None:
    with Package(corpus, KEY) as pkg:
        for q in ("ポンプ", "насос", "مضخة", "ㅎ", "पंप"):
            result = search([pkg], q)
            assert not result.documents and result.warning
        with pytest.raises(QueryError, match="no words"):
            search([pkg], "🚰 ✔")


def test_corpus_opens_packages_when_reached_and_names_them_in_errors(tmp_path: Path) -> None:
    from mdcx.format import Corpus, DecryptionError, NotAPackage

    a = _package(tmp_path, "a", {"x.md": "alpha beta"})
    b = _package(tmp_path, "b", {"y.md": "beta gamma"})
    with pytest.raises(NotAPackage, match="no such file"):
        Corpus([a, tmp_path / "missing.mdcx"], [KEY, KEY])
    with Corpus([a, b], [KEY, KEY]) as corpus:
        assert [s.open for s in corpus.status()] == [False, False]
        result = corpus.search("beta")
        assert {d.package for d in result.documents} == {"a.mdcx", "b.mdcx"}
        assert [s.open for s in corpus.status()] == [True, True]
        assert all(s.memory_bytes > 0 for s in corpus.status())
        pkg, path = corpus.find("y.md")
        assert (pkg.name, path) == ("b.mdcx", "@/y.md")
    with Corpus([a, b], [KEY, "wrong"]) as corpus, pytest.raises(DecryptionError, match=r"^b\.mdcx: "):
        corpus.search("beta")
    # one passphrase for all, even one exactly as long as the list of packages
    two = _package(tmp_path, "two", {"z.md": "beta delta"}, key="ab")
    also = _package(tmp_path, "also", {"w.md": "beta"}, key="ab")
    with Corpus([two, also], "ab") as corpus:
        assert len(corpus.search("beta").documents) == 2


def test_a_package_indexed_under_another_unicode_says_so(tmp_path: Path) -> None:
    import unicodedata

    target = _package(tmp_path, "u", {"a.md": "The pump is primed."})
    with Package(target, KEY) as pkg:
        assert not search([pkg], "pump").notes  # indexed here, under this Unicode
    with Package(target, KEY) as pkg:
        pkg.meta["tokenizer"]["unicode"] = "13.0.0"  # as if packed by an older Python
        result = search([pkg], "pump")
        assert result.documents
        assert any(
            f"indexed under Unicode 13.0.0 and is read under {unicodedata.unidata_version}" in n
            for n in result.notes
        )
    with Package(target, KEY) as pkg:
        pkg.meta["tokenizer"]["units"] = "single"  # rules this reader does not have
        with pytest.raises(UnsupportedVersion, match="tokenizer"):
            search([pkg], "pump")


def test_variants_follow_the_package_rule(tmp_path: Path) -> None:
    """Five first letters by default; ``prefix_letters=0`` matches words only as written."""
    docs = {"plural.md": "Two lighthouses guard the bay.", "other.md": "A harbour wall guards the town."}
    for name, letters in (("variants", 5), ("exact", 0)):
        root = tmp_path / f"src-{name}"
        for path, text in docs.items():
            write(root, path, text)
        pack(root, tmp_path / f"{name}.mdcx", KEY, PackOptions(kdf=FAST_KDF, prefix_letters=letters))
    with Package(tmp_path / "variants.mdcx", KEY) as pkg:
        assert pkg.meta["lexical"]["prefix_letters"] == 5
        assert [d.document for d in search([pkg], "lighthouse").documents] == ["@/plural.md"]
    with Package(tmp_path / "exact.mdcx", KEY) as pkg:
        assert pkg.meta["lexical"]["prefix_letters"] == 0
        assert search([pkg], "lighthouse").documents == ()
        assert [d.document for d in search([pkg], "lighthouses").documents] == ["@/plural.md"]


@pytest.mark.parametrize("letters", [-1, 1, 2, 13, 100])
def test_an_impossible_prefix_rule_is_refused(letters: int) -> None:
    with pytest.raises(InputError, match="prefix letters must be 0"):
        PackOptions(prefix_letters=letters)
