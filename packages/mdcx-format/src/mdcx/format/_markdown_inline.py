"""Inline Markdown (emphasis, code spans, links, escapes) to escaped HTML, for ``_markdown``.

Every character of the text reaches the output through the ``Highlighter``
(which escapes it); the tags written are ``em``, ``strong``, ``del``,
``code``, ``br``, ``span`` and ``a`` with an escaped ``http``, ``https`` or
``mailto`` address.  Brackets, parentheses, backtick runs and emphasis
closers are matched in one pass first, so hostile text costs linear time.
"""

from __future__ import annotations

import bisect
import html
import re
from dataclasses import dataclass

from ._highlight import PLAIN, Highlighter

_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_SAFE_SCHEMES = ("http://", "https://", "mailto:")
MAX_DEPTH = 12  # emphasis and links nested deeper are shown as text
MAX_LINK_CHARS = 2000


def _safe_href(url: str) -> str | None:
    url = url.strip()
    if url.startswith("<") and url.endswith(">"):
        url = url[1:-1]
    if not url or any(ord(c) < 0x21 or c in "\"'<>`\\" or ord(c) == 0x7F for c in url):
        return None
    if not url.lower().startswith(_SAFE_SCHEMES):
        return None
    return html.escape(url, quote=True)


_SPECIAL = re.compile(r"[\\`\n<\[!*_~]")
_RUN = re.compile(r"(`+|\*+|_+|~+)")
_STRUCTURE = re.compile(r"\\.|`+|[\[\]()]", re.S)
# Where a run of emphasis delimiters may close: after a non-space, and for
# ``_`` not inside a word; a lone ``*`` or ``_`` not followed by another.
_CLOSERS = {
    "**": re.compile(r"(?<=\S)(?=\*\*)"),
    "*": re.compile(r"(?<=[^\s*])\*(?!\*)|(?<=\*\*)\*(?!\*)"),
    "__": re.compile(r"(?<=\S)(?=__(?![^\W_]))"),
    "_": re.compile(r"(?<=[^\s_])_(?![\w])"),
    "~~": re.compile(r"(?<=\S)(?=~~)"),
}


@dataclass
class _Scan:
    """Matching brackets, parentheses and backtick runs of one string, found in one pass.

    Precomputed so that hostile text (thousands of unclosed brackets,
    backticks or asterisks) costs linear time, not a scan to the end per
    opener.
    """

    brackets: dict[int, int]
    parens: dict[int, int]
    ticks: dict[int, int]
    closers: dict[str, list[int]]
    text: str

    @classmethod
    def of(cls, s: str) -> _Scan:
        brackets: dict[int, int] = {}
        parens: dict[int, int] = {}
        open_brackets: list[int] = []
        open_parens: list[int] = []
        runs: list[tuple[int, int]] = []
        for m in _STRUCTURE.finditer(s):
            token = m.group()
            if token[0] == "`":
                runs.append((m.start(), len(token)))
            elif token == "[":
                open_brackets.append(m.start())
            elif token == "]" and open_brackets:
                brackets[open_brackets.pop()] = m.start()
            elif token == "(":
                open_parens.append(m.start())
            elif token == ")" and open_parens:
                parens[open_parens.pop()] = m.start()
        ticks: dict[int, int] = {}
        following: dict[int, int] = {}
        for at, size in reversed(runs):
            if size in following:
                ticks[at] = following[size]
            following[size] = at
        return cls(brackets, parens, ticks, {}, s)

    def closer(self, delim: str, after: int) -> int:
        """The first place at or after ``after`` where ``delim`` may close emphasis, or -1."""
        places = self.closers.get(delim)
        if places is None:
            places = self.closers[delim] = [m.start() for m in _CLOSERS[delim].finditer(self.text)]
        k = bisect.bisect_left(places, after)
        return places[k] if k < len(places) else -1


class Inline:
    def __init__(self, marks: Highlighter, depth: int = 0) -> None:
        self.marks = marks
        self.depth = depth

    def render(self, s: str) -> str:
        out: list[str] = []
        buf: list[str] = []

        def flush() -> None:
            if buf:
                out.append(self.marks.html("".join(buf)))
                buf.clear()

        scan = _Scan.of(s)
        nested = self.depth < MAX_DEPTH
        i = 0
        n = len(s)
        while i < n:
            m = _SPECIAL.search(s, i)
            if m is None:
                buf.append(s[i:])
                break
            if m.start() > i:
                buf.append(s[i : m.start()])
                i = m.start()
            c = s[i]
            if c == "\\" and i + 1 < n:
                if s[i + 1] in _PUNCTUATION:
                    buf.append(s[i + 1])
                    i += 2
                    continue
                if s[i + 1] == "\n":
                    flush()
                    out.append("<br>")
                    i += 2
                    continue
            elif c == "`":
                run = _RUN.match(s, i).end() - i
                close = scan.ticks.get(i, -1)
                if close == -1:
                    buf.append("`" * run)
                    i += run
                    continue
                flush()
                code = s[i + run : close].replace("\n", " ")
                if code.strip() and code.startswith(" ") and code.endswith(" "):
                    code = code[1:-1]
                out.append(f"<code>{self.marks.html(code)}</code>")
                i = close + run
                continue
            elif c == "\n":
                if len(buf) and buf[-1].endswith("  "):
                    buf[-1] = buf[-1].rstrip(" ")
                    flush()
                    out.append("<br>")
                else:
                    buf.append("\n")
                i += 1
                continue
            elif c == "<":
                end = s.find(">", i, i + MAX_LINK_CHARS)
                if end != -1:
                    href = _safe_href(s[i + 1 : end])
                    if href is not None and " " not in s[i + 1 : end]:
                        flush()
                        out.append(self._anchor(href, self.marks.html(s[i + 1 : end])))
                        i = end + 1
                        continue
            elif (c == "[" or (c == "!" and s[i + 1 : i + 2] == "[")) and nested:
                done = self._link(s, i, scan, out, flush)
                if done:
                    i = done
                    continue
            elif c in "*_~" and nested:
                done = self._emphasis(s, i, scan, out, flush)
                if done:
                    i = done
                    continue
            buf.append(c)
            i += 1
        flush()
        return "".join(out)

    def _link(self, s: str, i: int, scan: _Scan, out: list[str], flush) -> int:
        image = s[i] == "!"
        opening = i + 1 if image else i
        close = scan.brackets.get(opening, -1)
        if close == -1 or s[close + 1 : close + 2] != "(" or close + 1 not in scan.parens:
            return 0
        end = scan.parens[close + 1]
        inner = s[close + 2 : end].strip()
        url = inner.split(None, 1)[0] if inner else ""
        label = s[opening + 1 : close]
        flush()
        if image:
            name = Inline(PLAIN, self.depth + 1).render(label) or "image"
            out.append(f'<span class="image">[image: {name}]</span>')
        else:
            text = Inline(self.marks, self.depth + 1).render(label)
            href = _safe_href(url)
            out.append(self._anchor(href, text) if href else f'<span class="link">{text}</span>')
        return end + 1

    def _emphasis(self, s: str, i: int, scan: _Scan, out: list[str], flush) -> int:
        c = s[i]
        run = _RUN.match(s, i).end() - i
        if run > 3:  # a rule of asterisks, not emphasis
            flush()
            out.append(self.marks.html(s[i : i + run]))
            return i + run
        if c == "~":
            if run != 2:
                return 0
            size, tag = 2, "del"
        else:
            size, tag = (2, "strong") if run >= 2 else (1, "em")
        after = s[i + size : i + size + 1]
        before = s[i - 1 : i] if i else ""
        if not after or after.isspace() or (c == "_" and before.isalnum()):
            return 0
        j = scan.closer(c * size, i + size + 1)
        if j == -1:
            return 0
        flush()
        out.append(f"<{tag}>{Inline(self.marks, self.depth + 1).render(s[i + size : j])}</{tag}>")
        return j + size

    @staticmethod
    def _anchor(href: str, inner: str) -> str:
        return f'<a href="{href}" rel="noopener noreferrer nofollow" target="_blank">{inner}</a>'
