"""What the browse page can ask of the packages it serves, as plain data.

One ``Session`` per server: the headers (read at once, no key), the packages
a passphrase has opened, and the operations the page calls: unlock, lock,
search, open a document at a passage, download a file, check integrity or a
signature.  Every answer is a JSON-ready ``dict``; every failure a user can
cause is an ``MdcxError`` whose message the page shows as it is.

Searching is ``mdcx.format.search`` over the opened packages, the function
``mdcx search`` and ``Corpus.search`` call: there is no second search here.
Passphrases are held only inside the opened packages' derived keys; the
passphrase string itself is not kept.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from pathlib import Path

from ._card import card
from ._errors import DecryptionError, InputError, MdcxError, PassphraseError
from ._highlight import PLAIN, Highlighter
from ._lexical import prefix_letters
from ._markdown import Block, render, render_html
from ._reader import DocumentInfo, Header, Package, body_intact, read_header

MAX_LIMIT = 100
MAX_ATTACHMENTS = 500


def citation(
    package: str, document: str, title: str | None, page: int | None, last_page: int | None, position: int
) -> str:
    """How to cite one passage: document, page, portable path, package."""
    where = []
    if page is not None:
        where.append(f"p. {page}" if not last_page or last_page == page else f"pp. {page}-{last_page}")
    where.append(f"passage {position + 1}")
    name = f"{title}, " if title else ""
    return f"{name}{document} ({', '.join(where)}), in {package}"


def _passage_range(
    pkg: Package, info: DocumentInfo, text: str, passage: int
) -> tuple[int, int, tuple] | None:
    """Where passage ``passage`` lies in the document's ``text``: ``(start, end, row)``, or None.

    A package's passages are an exact partition of each document's body, in
    order, with consecutive ids; so the passages before this one give its
    offset exactly.  Where that does not hold (first-generation packages join
    passages with blank lines), the passage's text is looked for instead.
    """
    row = pkg.passages_of([passage]).get(passage)
    if row is None or row[0] != info.id:
        return None
    position = row[1]
    first = passage - position
    rows = pkg.passages_of(list(range(first, first + max(info.passages, position + 1))))
    ordered = [rows.get(first + k) for k in range(max(info.passages, position + 1))]
    if all(r is not None and r[0] == info.id and r[1] == k for k, r in enumerate(ordered)):
        body = "".join(r[5] for r in ordered)
        if text.endswith(body):
            start = len(text) - len(body) + sum(len(r[5]) for r in ordered[:position])
            return start, start + len(row[5]), row
    piece = row[5].strip()
    at = text.find(piece) if piece else -1
    return (at, at + len(piece), row) if at >= 0 else None


def _reading_html(blocks: list[Block], hit: tuple[int, int] | None) -> tuple[str, int | None]:
    """The blocks as one article; those the passage covers wrapped as ``#hit``, and the page it is on."""
    parts: list[str] = []
    page: int | None = None
    hit_page: int | None = None
    inside = False
    covers = [hit is not None and b.end > hit[0] and b.start < hit[1] for b in blocks]
    for k in range(len(blocks) - 1, -1, -1):  # a page marker that ends a passage opens the next page
        if not covers[k]:
            continue
        if blocks[k].page is None:
            break
        covers[k] = False
    for b, covered in zip(blocks, covers):
        if b.page is not None and not covered:
            page = b.page
        if covered and not inside:
            parts.append('<div class="passage-hit" id="hit">')
            inside = True
            hit_page = b.page if b.page is not None else page
        elif inside and not covered:
            parts.append("</div>")
            inside = False
        parts.append(b.html)
    if inside:
        parts.append("</div>")
    return "".join(parts), hit_page


class Session:
    """The packages one browse server serves, locked or opened."""

    def __init__(self, paths: Sequence[str | Path]) -> None:
        if not paths:
            raise InputError("no package given")
        self.headers: list[Header] = [read_header(p) for p in paths]
        names = [Path(h.path).name for h in self.headers]
        if len(set(names)) != len(names):
            raise InputError("two packages share a file name; results name packages by file name")
        self.names = names
        self._packages: list[Package | None] = [None] * len(paths)
        self._intact: dict[int, bool] = {}
        self._attachments: dict[int, list[dict]] = {}
        self._lock = threading.Lock()

    # -- keys ---------------------------------------------------------------------------------

    def unlock(self, passphrases: str | Sequence[str]) -> dict:
        """Open every locked package a passphrase opens; one passphrase for all, or one per package."""
        if isinstance(passphrases, str):
            passphrases = [passphrases] * len(self.headers)
        if len(passphrases) != len(self.headers):
            raise PassphraseError(f"{len(passphrases)} passphrases for {len(self.headers)} packages")
        if not any(passphrases):
            raise PassphraseError("type a passphrase first; passphrases cannot be empty")
        opened: list[str] = []
        refused: list[str] = []  # the passphrase does not open them
        damaged: list[str] = []  # they cannot be opened at all
        with self._lock:
            for i, key in enumerate(passphrases):
                if self._packages[i] is not None or not key:
                    continue
                try:
                    self._packages[i] = Package(self.headers[i].path, key)
                    opened.append(self.names[i])
                except DecryptionError:
                    refused.append(self.names[i])
                except MdcxError as exc:
                    damaged.append(str(exc) if self.names[i] in str(exc) else f"{self.names[i]}: {exc}")
        result = self.state()
        result["opened"] = opened
        problems = []
        if refused:
            problems.append(
                f"the passphrase does not open {', '.join(refused)} "
                "(a wrong passphrase, or a file altered since it was packed)"
            )
        problems.extend(damaged)
        if problems:
            result["error"] = "; ".join(problems) + (f"; it opened {', '.join(opened)}" if opened else "")
        return result

    def lock(self) -> dict:
        """Close every package: their keys are dropped with them."""
        with self._lock:
            for pkg in self._packages:
                if pkg is not None:
                    pkg.close()
            self._packages = [None] * len(self._packages)
            self._attachments.clear()
        return self.state()

    close = lock

    def _opened(self) -> list[tuple[int, Package]]:
        with self._lock:
            return [(i, p) for i, p in enumerate(self._packages) if p is not None]

    def _package(self, name: str) -> Package:
        with self._lock:
            for i, n in enumerate(self.names):
                if n == name:
                    pkg = self._packages[i]
                    if pkg is None:
                        raise PassphraseError(f"{name} is locked; unlock it first")
                    return pkg
        raise InputError(f"no package named {name!r} is served here")

    # -- what anyone sees -------------------------------------------------------------------

    def state(self) -> dict:
        with self._lock:
            opened = [p is not None for p in self._packages]
        return {
            "packages": [
                {
                    "name": name,
                    "kind": header.kind,
                    "unlocked": is_open,
                    "signed": header.signed,
                    "public_key": header.public_key,
                    "intact": self._intact.get(i),
                    "card": [list(row) for row in card(header)],
                }
                for i, (name, header, is_open) in enumerate(zip(self.names, self.headers, opened))
            ]
        }

    def integrity(self, name: str) -> dict:
        """Whether the encrypted body still matches the header's digest (reads the whole file, no key)."""
        index = self._index(name)
        if index not in self._intact:
            self._intact[index] = body_intact(self.headers[index].path)
        return {"name": name, "intact": self._intact[index]}

    def verify(self, name: str, public_key: str) -> dict:
        from ._signing import verify

        index = self._index(name)
        result = verify(self.headers[index].path, public_key.strip())
        return {**result.to_json(), "path": name}

    def _index(self, name: str) -> int:
        try:
            return self.names.index(name)
        except ValueError:
            raise InputError(f"no package named {name!r} is served here") from None

    # -- what the key opens -----------------------------------------------------------------

    def attachments(self) -> dict:
        out = {}
        for i, pkg in self._opened():
            if i not in self._attachments:
                found = []
                if self.headers[i].kind == "legacy" or self.headers[i].fields.get("attachments"):
                    for info in pkg.documents():
                        if info.attachment:
                            found.append({"document": info.path, "title": info.title, "bytes": info.bytes})
                            if len(found) >= MAX_ATTACHMENTS:
                                break
                self._attachments[i] = found
            out[self.names[i]] = self._attachments[i]
        return {"attachments": out}

    def search(
        self,
        question: str,
        *,
        limit: int = 10,
        mode: str = "auto",
        only: str | None = None,
        prefer: str | None = None,
    ) -> dict:
        from ._search import search

        opened = self._opened()
        if not opened:
            raise PassphraseError("every package is locked; unlock one first")
        if not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
            raise InputError(f"limit must be a whole number from 1 to {MAX_LIMIT}")
        started = time.perf_counter()
        result = search([p for _, p in opened], question, limit=limit, mode=mode, only=only, prefer=prefer)
        searched = time.perf_counter()
        data = result.to_json()
        spellings = [found for by_pkg in result.read_as.values() for found in by_pkg.values()]
        by_name = {self.names[i]: p for i, p in opened}
        marks_by_rule: dict[int, Highlighter] = {}  # packages may match variants by different rules
        for doc in data["documents"]:
            rule = prefix_letters(by_name[doc["package"]])
            marks = marks_by_rule.get(rule) or marks_by_rule.setdefault(
                rule, Highlighter(question, spellings, rule)
            )
            for p in doc["passages"]:
                p["html"] = render_html(p["text"], marks)
                p["citation"] = citation(
                    doc["package"], doc["document"], doc["title"], p["page"], p["last_page"], p["position"]
                )
        data["seconds"] = {
            "search": round(searched - started, 4),
            "render": round(time.perf_counter() - searched, 4),
        }
        data["searched"] = [self.names[i] for i, _ in opened]
        data["locked"] = [n for n in self.names if n not in data["searched"]]
        return data

    def document(self, package: str, name: str, *, passage: int | None = None, question: str = "") -> dict:
        """One whole document rendered, with the passage ``passage`` (an id) marked."""
        pkg = self._package(package)
        doc = pkg.document(name)
        info = doc.info
        hit = None
        row = None
        if passage is not None and not info.attachment:
            found = _passage_range(pkg, info, doc.text, passage)
            if found is not None:
                hit, row = found[:2], found[2]
        marks = Highlighter(question, prefix_letters=prefix_letters(pkg)) if question.strip() else PLAIN
        article, page = _reading_html(render(doc.text, marks), hit)
        return {
            "package": package,
            "document": info.path,
            "title": info.title,
            "dated": info.dated,
            "direction": info.direction,
            "attachment": info.attachment,
            "bytes": len(doc.text.encode(doc.encoding, errors="replace")),
            "html": article,
            "passage": None
            if row is None
            else {
                "passage": passage,
                "position": row[1],
                "page": row[2] if row[2] is not None else page,
                "last_page": row[3],
                "heading": row[4],
                "citation": citation(
                    package, info.path, info.title, row[2] if row[2] is not None else page, row[3], row[1]
                ),
            },
        }

    def download(self, package: str, name: str) -> tuple[str, bytes]:
        """A document or attachment as packed: its file name and bytes (export writes the same)."""
        doc = self._package(package).document(name)
        return doc.info.path.rsplit("/", 1)[-1] or "document.md", doc.text.encode(doc.encoding)

    def unlocked_count(self) -> int:
        return len(self._opened())
