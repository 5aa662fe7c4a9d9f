"""Cutting Markdown into passages: an exact partition that follows structure."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from mdcx.format import page_marker
from mdcx.format._passages import LIMIT_WEIGHT, _weight, cut_passages


def _texts(body: str) -> list[str]:
    return [body[p.start : p.end] for p in cut_passages(body)]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab c.\n#-`~|<!>:0123456789\r\t é漢")), max_size=3000))
def test_partition_is_exact_for_any_text(body: str) -> None:
    pieces = cut_passages(body)
    assert "".join(body[p.start : p.end] for p in pieces) == body
    assert all(p.end > p.start for p in pieces)
    assert all(a.end == b.start for a, b in zip(pieces, pieces[1:]))


def test_headings_open_passages_and_give_the_path() -> None:
    body = "# Guide\n\nIntro.\n\n## Install\n\nRun it.\n\n### Linux\n\nApt.\n\n## Use\n\nType.\n"
    pieces = cut_passages(body)
    assert [p.heading for p in pieces] == [
        ("Guide",),
        ("Guide", "Install"),
        ("Guide", "Install", "Linux"),
        ("Guide", "Use"),
    ]
    assert _texts(body)[1].startswith("## Install")


def test_page_markers_give_first_and_last_page() -> None:
    body = (
        f"{page_marker(3)}\n# Chapter\n\n"
        + "alpha " * 60
        + f"\n\n{page_marker(4)}\n\n"
        + "beta " * 60
        + "\n\n"
        + f"{page_marker(5)}\n\n"
        + "gamma " * 200
        + "\n"
    )
    pieces = cut_passages(body)
    assert pieces[0].page == 3
    assert [p.page for p in pieces][-1] == 5
    assert all(p.page <= (p.last_page or p.page) for p in pieces if p.page)
    gamma = next(p for p in pieces if "gamma" in body[p.start : p.end])
    assert gamma.page == 5


def test_long_paragraph_is_split_within_the_limit() -> None:
    body = " ".join(f"Sentence number {i} says something." for i in range(400)) + "\n"
    texts = _texts(body)
    assert len(texts) > 3
    assert all(_weight(t) <= LIMIT_WEIGHT for t in texts)
    assert all(t.rstrip().endswith(".") for t in texts[:-1])


def test_text_without_spaces_is_split_too() -> None:
    body = "漢字" * 3000
    texts = _texts(body)
    assert len(texts) > 3 and "".join(texts) == body


def test_fenced_code_stays_whole() -> None:
    code = "```\n" + "\n\n".join(f"line {i}" for i in range(20)) + "\n```\n"
    body = "# Code\n\n" + code + "\nAfter.\n"
    assert any(code in t for t in _texts(body))


def test_small_paragraphs_are_grouped() -> None:
    body = "\n\n".join(f"Short paragraph {i}." for i in range(30)) + "\n"
    assert len(cut_passages(body)) < 5


def test_a_marker_closing_a_short_passage_does_not_claim_the_next_page() -> None:
    body = f"{page_marker(2)}\n## Lenses\n\nA short paragraph on page two.\n\n{page_marker(3)}\n\n## Fog\n\nPage three text.\n"
    pieces = cut_passages(body)
    lenses = next(p for p in pieces if "Lenses" in body[p.start : p.end])
    assert (lenses.page, lenses.last_page) == (2, 2)
    fog = next(p for p in pieces if "Fog" in body[p.start : p.end])
    assert fog.page == 3
