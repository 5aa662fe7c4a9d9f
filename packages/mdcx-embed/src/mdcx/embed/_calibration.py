"""Semantic reach: the similarity from which a package answers, measured when it is built.

Cosines have no absolute scale (an e5 model puts unrelated texts at 0.75;
MiniLM at 0.05), so, as for words, each package measures itself: questions
made of the opening words of sampled passages are answered with their own
document set aside, and the 10th percentile of the similarity these near
misses reach is the threshold below which a question is not answered here.
With ``--focus`` questions, the threshold is just under the least similar of
them instead (``FOCUS_MARGIN``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ._encoder import Encoder
from ._vectors import from_blob

SAMPLES = 60
QUESTION_WORDS = 24
FOCUS_MARGIN = 0.02


def _matrix(view, dimension: int):
    import numpy as np

    parts = [
        from_blob(row[0], dimension) for row in view.execute("SELECT data FROM vector_block ORDER BY block")
    ]
    return np.vstack(parts) if parts else np.zeros((0, dimension), dtype=np.float32)


def _documents(view, count: int) -> list[int]:
    owner = [0] * count
    for doc_id, first, n in view.execute(
        "SELECT id, first_passage, passages FROM document WHERE passages > 0"
    ):
        for pid in range(first, first + n):
            if pid < count:
                owner[pid] = doc_id
    return owner


def near_miss_threshold(
    view, encoder: Encoder, samples: Sequence[tuple[str, int]], seed: int = 0
) -> tuple[float | None, list[float]]:
    """``samples`` are (passage text, document id); returns (threshold, measured similarities).

    The threshold is None where fewer than ten passages of six words or more
    can be sampled: a cosine has no meaning without its model's scale, so a
    package too small to measure itself claims no reach (``--focus`` or
    ``mdcx calibrate`` give it one).
    """
    import numpy as np

    matrix = _matrix(view, encoder.dimension)
    if not len(matrix):
        return None, []
    owner = np.asarray(_documents(view, len(matrix)))
    rnd = random.Random(seed)
    picked = [(t, d) for t, d in samples if len(t.split()) >= 6]
    picked = rnd.sample(picked, min(SAMPLES, len(picked)))
    if len(picked) < 10:
        return None, []
    questions = [" ".join(text.split()[:QUESTION_WORDS]) for text, _ in picked]
    vectors = encoder.encode_queries(questions)
    found = []
    for vector, (_text, doc) in zip(vectors, picked):
        scores = matrix @ vector
        scores[owner == doc] = -1.0
        found.append(float(scores.max()))
    found.sort()
    return found[int(0.1 * (len(found) - 1))], found


def focus_threshold(view, encoder: Encoder, questions: Sequence[str]) -> tuple[float | None, list[float]]:
    matrix = _matrix(view, encoder.dimension)
    if not len(matrix):
        return None, []
    found = [float((matrix @ v).max()) for v in encoder.encode_queries(list(questions))]
    return min(found) - FOCUS_MARGIN, found
