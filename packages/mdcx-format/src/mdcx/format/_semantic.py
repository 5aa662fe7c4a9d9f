"""The bridge to mdcx-embed: encoding at pack time, ranking by meaning at query time.

mdcx-format itself holds no model and imports no numpy; these functions
import ``mdcx.embed`` when a package or a question needs it, and say what to
install when it is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ._errors import MissingDependency

INSTALL = "pip install mdcx-embed (or 'mdcx[multilingual]')"


def embed_module():
    try:
        import mdcx.embed as embed
    except ImportError:
        raise MissingDependency(
            f"meaning-based retrieval needs the mdcx-embed distribution: {INSTALL}"
        ) from None
    return embed


def has_vectors(package) -> bool:
    meta = package.meta.get("embedding")
    return isinstance(meta, dict) and bool(meta.get("model")) and "vector_block" in package.tables


@dataclass(frozen=True)
class Encoded:
    meta: dict  # recorded in the package: model, dimension, counts
    report: dict  # for the pack report
    semantic_answerable_at: float | None  # None: too few passages to measure
    measured: list[float]


def encode(
    con, view_factory, *, model: str | None, reuse, samples, focus, progress: Callable | None
) -> Encoded:
    """Encode every passage of the database being built; calibrate semantic reach."""
    embed = embed_module()
    from mdcx.embed._calibration import focus_threshold, near_miss_threshold

    encoder = embed.load_encoder(model)
    report = embed.encode_into(con, encoder, reuse=reuse, progress=progress)
    meta = {
        "model": report.model,
        "dimension": report.dimension,
        "dtype": "float16",
        "passages": report.passages,
        "encoded": report.encoded,
        "reused": report.reused,
    }
    view = view_factory()
    if focus:
        threshold, measured = focus_threshold(view, encoder, focus)
    else:
        threshold, measured = near_miss_threshold(view, encoder, samples)
    return Encoded(meta, report.to_json(), threshold, measured)


def focus_reach(view, recorded_model: str, questions: list[str]) -> tuple[float | None, list[float]]:
    """The semantic reach of a built package from the questions it exists for (``mdcx calibrate``).

    The questions are encoded by the model that encoded the package (or the
    one MDCX_MODEL names, which must be the same model).
    """
    embed = embed_module()
    from mdcx.embed._calibration import focus_threshold

    from ._errors import InputError

    encoder = embed.default_searcher().encoder_for(recorded_model)
    if encoder.model_id != recorded_model:
        raise InputError(
            f"the package was encoded by {recorded_model}, not {encoder.model_id}; "
            "set MDCX_MODEL to that model to calibrate its reach by meaning"
        )
    return focus_threshold(view, encoder, questions)
