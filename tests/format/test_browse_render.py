"""The browse page's Markdown renderer and highlighter: right, and safe with hostile text."""

from __future__ import annotations

import re
import time
from html.parser import HTMLParser

import pytest
from mdcx.format._highlight import Highlighter
from mdcx.format._markdown import render, render_html

# What the renderer may write: these tags, these attributes, nothing else.
TAGS = {
    "h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "em", "strong", "del", "code", "pre", "a", "span",
    "ul", "ol", "li", "blockquote", "hr", "div", "table", "thead", "tbody", "tr", "th", "td", "mark",
    "details", "summary",
}  # fmt: skip
ATTRIBUTES = {"class", "dir", "href", "rel", "target", "colspan", "start", "data-page"}


class _Audit(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def handle_comment(self, data: str) -> None:
        raise AssertionError(f"a comment reached the output: {data!r}")


def audit(markup: str) -> _Audit:
    a = _Audit()
    a.feed(markup)
    a.close()
    for tag, attrs in a.tags:
        assert tag in TAGS, (tag, markup)
        assert set(attrs) <= ATTRIBUTES, (tag, attrs)
        if "href" in attrs:
            assert re.match(r"^(https?://|mailto:)", attrs["href"], re.I), attrs
    return a


HOSTILE = [
    "<script>window.pwned = 1</script>",
    "<img src=x onerror=alert(1)>",
    "<svg/onload=alert(1)>",
    '<a href="javascript:alert(1)">x</a>',
    "[click](javascript:alert(1))",
    "[click](JaVaScRiPt:alert(1))",
    "[click](  javascript:alert(1))",
    "[click](data:text/html,<script>alert(1)</script>)",
    "[click](vbscript:msgbox)",
    '[x](https://example.org/"onmouseover="alert(1))',
    "<javascript:alert(1)>",
    "![x](javascript:alert(1))",
    '![x" onerror="alert(1)](http://tracker.example/p.png)',
    "<iframe src=https://example.org></iframe>",
    "<style>body{display:none}</style>",
    "<!-- page: 1 --><script>x</script>",
    "| <b onclick=x>a</b> | b |\n|---|---|\n| <script>c</script> | d |",
    "```\n</code></pre><script>alert(1)</script>\n```",
    "`</code><script>alert(1)</script>`",
    "<<script>>alert(1)<</script>>",
    "&lt;script&gt; &#60;script&#62; &amp;",
    "**<i>bold</i>** _<u>u</u>_ ~~<s>s</s>~~",
    "> <script>alert(1)</script>\n> quoted",
    "- <img src=x onerror=alert(1)>\n- [a](javascript:b)",
    "---\ntitle: <script>alert(1)</script>\n---\nbody",
    "[" * 5000 + "deep" + "]" * 5000,
    "*" * 3000 + "x" + "*" * 3000,
    ">" * 500 + " deep quote",
    "\x00\x01\x1b[31m control \u202e reversed \ufeff",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_markdown_renders_to_inert_html(text: str) -> None:
    for markup in (render_html(text), "".join(b.html for b in render(text, Highlighter("script alert x")))):
        audit(markup)
        lowered = markup.lower()
        assert "<script" not in lowered and "<img" not in lowered and "<iframe" not in lowered
        assert "javascript:" not in re.sub(r">[^<]*<", "><", lowered)  # only as text, never in a tag


def test_text_survives_escaped() -> None:
    a = audit(render_html("Use <b>bold</b> & 'quotes' \"here\" in a < b > c"))
    assert "".join(a.text) == "Use <b>bold</b> & 'quotes' \"here\" in a < b > c"


def test_links_keep_safe_addresses_only() -> None:
    markup = render_html(
        "[site](https://example.org/a?b=1&c=2) and <mailto:a@example.org> and [rel](other.md)"
    )
    assert (
        '<a href="https://example.org/a?b=1&amp;c=2" rel="noopener noreferrer nofollow" target="_blank">site</a>'
        in markup
    )
    assert 'href="mailto:a@example.org"' in markup
    assert '<span class="link">rel</span>' in markup  # shown, not followed


def test_images_are_named_not_fetched() -> None:
    markup = render_html("![a chart](https://tracker.example/pixel.png)")
    assert "tracker" not in markup and "[image: a chart]" in markup


TABLE = """Before.

| Item | Count | Note |
|:-----|------:|:----:|
| bolts | 12 | a \\| b |
| nuts | **7** |
<!-- page: 3 -->
| washers | 30 | x |

After."""


def test_table_with_alignment_escaped_pipe_and_a_page_inside() -> None:
    markup = render_html(TABLE)
    a = audit(markup)
    assert markup.count("<table>") == 1
    assert '<th class="al-left" dir="auto">Item</th>' in markup
    assert '<td class="al-right" dir="auto"><strong>7</strong></td>' in markup
    assert "a | b" in "".join(a.text)
    assert 'class="page-row"' in markup and 'data-page="3"' in markup
    assert markup.count("<tr>") == 4  # header, bolts, nuts (padded), washers
    assert '<p dir="auto">After.</p>' in markup


def test_blocks_cover_their_source() -> None:
    text = "---\ntitle: T\n---\n<!-- page: 1 -->\n# Title\n\nOne paragraph\nover two lines.\n\n<!-- page: 2 -->\n- a\n- b\n"
    blocks = render(text)
    kinds = [re.match(r"<(\w+)", b.html).group(1) for b in blocks]
    assert kinds == ["details", "div", "h1", "p", "div", "ul"]
    assert [b.page for b in blocks] == [None, 1, None, None, 2, None]
    for b in blocks:
        assert b.start < b.end <= len(text)
    assert text[blocks[3].start : blocks[3].end] == "One paragraph\nover two lines.\n"
    assert text[blocks[5].start : blocks[5].end] == "- a\n- b\n"


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("# Title #", '<h1 dir="auto">Title</h1>'),
        ("Title\n=====", '<h1 dir="auto">Title</h1>'),
        (
            "a *b* **c** ~~d~~ `e`",
            '<p dir="auto">a <em>b</em> <strong>c</strong> <del>d</del> <code>e</code></p>',
        ),
        ("snake_case_name stays", '<p dir="auto">snake_case_name stays</p>'),
        ("line one  \nline two", '<p dir="auto">line one<br>line two</p>'),
        ("\\*not em\\*", '<p dir="auto">*not em*</p>'),
        ("3. three\n4. four", '<ol start="3"><li dir="auto">three</li><li dir="auto">four</li></ol>'),
        ("    code\n    more", "<pre><code>code\nmore</code></pre>"),
        ("***", "<hr>"),
        ("<!-- a comment -->\ntext", '<p dir="auto">text</p>'),
    ],
)
def test_common_markdown(text: str, html: str) -> None:
    assert render_html(text) == html


@pytest.mark.parametrize(
    ("question", "text", "marked"),
    [
        ("storage temperature", "The Storage temperature is 4 °C.", ["Storage", "temperature"]),
        ("cafe", "Un café, deux CAFÉS.", ["café"]),
        ("ship", "Shipping ships: the ship.", ["ship"]),
        ("", "nothing is marked", []),
        ("東京", "私は東京都に住んでいます", ["東", "京"]),
        ("שלום", "אמר שלום לכולם", ["שלום"]),
        ("٢٠٢٤", "في عام 2024 كان", ["2024"]),
    ],
)
def test_highlighter_marks_what_the_index_matches(question: str, text: str, marked: list[str]) -> None:
    spans = Highlighter(question).spans(text)
    assert "".join(s for s, _ in spans) == text
    assert [s for s, kind in spans if kind == "hit"] == marked


def test_variants_by_first_letters_are_marked_apart() -> None:
    spans = Highlighter("lighthouse").spans("A lighthouse, two lighthouses.")
    assert ("lighthouse", "hit") in spans and ("lighthouses", "variant") in spans
    # a package packed with prefix_letters=0 matched no variant, so none is marked
    exact = Highlighter("lighthouse", prefix_letters=0).spans("A lighthouse, two lighthouses.")
    assert ("lighthouse", "hit") in exact and not any(kind == "variant" for _, kind in exact)


def test_read_as_spellings_are_marked() -> None:
    assert ("rnodern", "hit") in Highlighter("modern", ["rnodern"]).spans("a rnodern reading")


@pytest.mark.parametrize("pattern", ["[a](", "[", "` ", "*a ", "_a ", "**a ", "[x](y) ", "*[`_~<(", "> - "])
def test_hostile_patterns_cost_linear_time(pattern: str) -> None:
    # Quadratic scanning would take minutes here; linear takes well under a second.
    text = pattern * (200_000 // len(pattern))
    start = time.perf_counter()
    render(text, Highlighter("a x"))
    assert time.perf_counter() - start < 10
