"""Merging word and meaning rankings: min-max normalised scores, weighted, summed."""

from __future__ import annotations

import pytest
from mdcx.format._fusion import STRAY_WORDS_WEIGHT, combine, lexical_weight, margin, normalised


def test_each_list_is_put_on_one_scale() -> None:
    assert normalised([("a", 12.0), ("b", 9.0), ("c", 6.0)]) == {"a": 1.0, "b": 0.5, "c": 0.0}
    assert normalised([("a", 0.83)]) == {"a": 1.0}
    assert normalised([("a", 2.0), ("b", 2.0)]) == {"a": 1.0, "b": 1.0}
    assert normalised([]) == {}
    assert normalised([(str(i), 100.0 - i) for i in range(80)], depth=50)["49"] == 0.0


def test_margin_says_how_far_the_first_stands_above_the_second() -> None:
    assert margin({"a": 1.0, "b": 0.25, "c": 0.0}) == 0.75
    assert margin({"a": 1.0, "b": 1.0}) == 0.0
    assert margin({"a": 1.0}) == 1.0


def test_a_sure_first_place_outweighs_a_first_place_by_a_hair() -> None:
    # meaning is sure of "m" (far ahead); words rank "x" first by a hair over "y" and "m" not at all
    meaning = [("m", 0.90), ("x", 0.70), ("y", 0.69), ("z", 0.68)]
    words = [("x", 10.0), ("y", 9.9), ("z", 1.0)]
    fused = [k for k, _ in combine([(meaning, 1.0), (words, 1.0)])]
    assert fused[0] == "m"
    # the same words list, now sure of "x": agreement of both engines on x wins
    words = [("x", 10.0), ("y", 2.0), ("z", 1.0)]
    fused = [k for k, _ in combine([(meaning, 1.0), (words, 1.0)])]
    assert fused[0] == "x"
    # ... unless the word matches are stray: they cannot overturn a sure meaning
    fused = [k for k, _ in combine([(meaning, 1.0), (words, STRAY_WORDS_WEIGHT)])]
    assert fused[0] == "m"


def test_ties_keep_first_appearance_and_missing_documents_score_zero() -> None:
    fused = combine([([("a", 1.0), ("b", 0.0)], 1.0), ([("c", 5.0), ("d", 1.0)], 1.0)])
    assert fused == [("a", 3.0), ("c", 3.0), ("b", 0.0), ("d", 0.0)]


@pytest.mark.parametrize(
    ("known", "cross", "weight"),
    [(1.0, False, 1.0), (0.6, False, 1.0), (0.4, False, 0.15), (0.9, True, 0.15)],
)
def test_word_weight_follows_what_the_corpus_knows_of_the_question(
    known: float, cross: bool, weight: float
) -> None:
    assert lexical_weight(known, cross) == weight
