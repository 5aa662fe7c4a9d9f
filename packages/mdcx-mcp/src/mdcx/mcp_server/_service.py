"""What the three tools do, without the protocol: calls into mdcx.format, replies as dicts.

``Service`` owns the ``Corpus`` (headers read at once, packages opened when a
call first reaches them) and the idle unloader.  Every call holds the
unloader's ``in_use()``, so an unload never pulls a package from under a
running search.  Errors are ``MdcxError``s with one-line messages naming the
package they concern; the server turns them into tool errors.
"""

from __future__ import annotations

import sys
from itertools import islice
from pathlib import Path

from mdcx.format import Corpus, QueryError

from . import _cursor
from ._config import Config
from ._idle import IdleUnloader
from ._replies import REPLY_BYTES, document_reply, package_record, search_reply, size
from ._version import __version__

MAX_LIMIT = 20  # documents per search reply
MAX_DEPTH = 100  # documents a search pages through, all replies together
MAX_LISTED = 1_000  # documents per info listing reply


def _searcher():
    """mdcx-embed's process-wide dense searcher, if a search has imported mdcx-embed; else None.

    Looked up, never imported: a server whose packages hold no vectors never
    pays for PyTorch or an encoder.
    """
    embed = sys.modules.get("mdcx.embed")
    return embed.default_searcher() if embed is not None else None


def encoder_state() -> dict:
    """What ``info`` says of the query encoders: which models are loaded now."""
    searcher = _searcher()
    models = searcher.encoders if searcher is not None else {}
    return {
        "loaded": any(models.values()),
        "models": models,
        "note": None if models else "no search has needed an encoder yet (packages without vectors never do)",
    }


class Service:
    def __init__(self, config: Config, *, budget: int = REPLY_BYTES):
        self.corpus = Corpus(config.paths, config.keys)
        self.budget = budget
        self.idle = IdleUnloader(config.idle_seconds, self.release_idle)
        self.names = [Path(h.path).name for h in self.corpus.headers]

    # -- life ------------------------------------------------------------------------------

    def start(self) -> None:
        self.idle.start()

    def close(self) -> None:
        self.idle.stop()
        self.corpus.close()

    def release_idle(self) -> bool:
        """Free what the server can rebuild, once it has been idle; whether anything was freed.

        Closes every open package (block cache, lexicon, derived key: the next
        call reopens it, paying the key derivation again) and releases the
        query encoder.
        """
        released = any(s.open for s in self.corpus.status())
        self.corpus.close()
        return self.release_encoder() or released

    def release_encoder(self) -> bool:
        """Drop the query encoder so its model's memory is returned; whether one was loaded.

        The one place the encoder is released, with the vector matrices
        mdcx-embed keeps between questions; the next search by meaning loads
        the encoder again.
        """
        searcher = _searcher()
        return searcher.release_all() if searcher is not None else False

    # -- tools -----------------------------------------------------------------------------

    def search(
        self,
        question: str,
        *,
        limit: int = 5,
        cursor: str | None = None,
        mode: str = "auto",
        only: str | None = None,
        prefer: str | None = None,
    ) -> dict:
        if not 1 <= limit <= MAX_LIMIT:
            raise QueryError(f"limit must be between 1 and {MAX_LIMIT}")
        mark = _cursor.fingerprint(question, mode, only, prefer)
        offset = _cursor.decode(cursor, mark) if cursor else 0
        if offset >= MAX_DEPTH:
            raise QueryError(f"a search pages through at most {MAX_DEPTH} documents; ask a narrower question")
        wanted = min(offset + limit, MAX_DEPTH)
        with self.idle.in_use():
            result = self.corpus.search(question, limit=wanted + 1, mode=mode, only=only, prefer=prefer)
        reply, shown = search_reply(result, offset, wanted - offset, budget=self.budget)
        following = offset + shown
        if following < len(result.documents) and following < MAX_DEPTH:
            reply["next_cursor"] = _cursor.encode(following, mark)
        return reply

    def document(self, name: str, *, package: str | None = None, offset: int = 0) -> dict:
        if offset < 0:
            raise QueryError("offset must be 0 or more")
        with self.idle.in_use():
            if package is not None:
                pkg = self.corpus.package(self.index_of(package))
                doc = pkg.document(name)
            else:
                pkg, path = self.corpus.find(name)
                doc = pkg.document(path)
        if offset > len(doc.text):
            raise QueryError(
                f"offset {offset} is past the end of {doc.info.path} ({len(doc.text)} characters)"
            )
        return document_reply(pkg.name, doc, offset, budget=self.budget)

    def info(
        self, *, package: str | None = None, list_documents: bool = False, cursor: str | None = None
    ) -> dict:
        indices = [self.index_of(package)] if package is not None else list(range(len(self.names)))
        with self.idle.in_use():
            listing = self._listing(indices, cursor) if list_documents else None
            statuses = self.corpus.status()
            reply = {
                "server": {"name": "mdcx", "version": __version__},
                "packages": [package_record(statuses[i]) for i in indices],
                "idle": self.idle.state(),
                "encoder": encoder_state(),
                "documents": None,
                "next_cursor": None,
            }
        if listing is not None:
            entries, start = listing
            room = self.budget - size(reply) - 200
            shown = []
            for entry in entries[:MAX_LISTED]:
                room -= size(entry) + 1
                if room < 0:
                    break
                shown.append(entry)
            reply["documents"] = shown
            if len(shown) < len(entries):
                reply["next_cursor"] = _cursor.encode(start + len(shown), self._listing_mark(indices))
        return reply

    # -- helpers ---------------------------------------------------------------------------

    def index_of(self, package: str) -> int:
        """The position of a package given by file name (with or without ``.mdcx``)."""
        for i, name in enumerate(self.names):
            if package in (name, Path(name).stem):
                return i
        shown = repr(package) if len(package) <= 80 else f"{package[:80]!r}... ({len(package):,} characters)"
        raise QueryError(f"no package is named {shown}; this server serves {', '.join(self.names)}")

    def _listing_mark(self, indices: list[int]) -> str:
        return _cursor.fingerprint("documents", *indices)

    def _listing(self, indices: list[int], cursor: str | None) -> tuple[list[dict], int]:
        start = _cursor.decode(cursor, self._listing_mark(indices)) if cursor else 0
        entries = (
            {
                "package": self.names[i],
                "document": d.path,
                "title": d.title,
                "attachment": d.attachment,
                "passages": d.passages,
                "dated": d.dated,
            }
            for i in indices
            for d in self.corpus.package(i).documents()
        )
        return list(islice(entries, start, start + MAX_LISTED + 1)), start
