"""A tiny random BERT sentence-transformer, built locally in under a second (no download)."""

from __future__ import annotations

import os
import string
from pathlib import Path


def build_tiny_model(folder: Path, *, dim: int = 32, seed: int = 0) -> Path:
    """Save a random 2-layer BERT with mean pooling; returns the folder to load it from."""
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Pooling, Transformer
    from transformers import BertConfig, BertModel, BertTokenizerFast

    torch.manual_seed(seed)
    base = folder / f"bert-{dim}-{seed}"
    base.mkdir(parents=True, exist_ok=True)
    vocab = (
        ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
        + list(string.ascii_lowercase + string.digits)
        + ["##" + ch for ch in string.ascii_lowercase + string.digits]
        + list(".,;:!?'\"()-")
    )
    (base / "vocab.txt").write_text("\n".join(vocab) + "\n")
    tokenizer = BertTokenizerFast(vocab_file=str(base / "vocab.txt"), do_lower_case=True)
    config = BertConfig(
        vocab_size=len(vocab),
        hidden_size=dim,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=128,
    )
    BertModel(config).save_pretrained(base)
    tokenizer.save_pretrained(base)
    word = Transformer(str(base), max_seq_length=128)
    model = SentenceTransformer(
        modules=[word, Pooling(word.get_embedding_dimension(), pooling_mode="mean")], device="cpu"
    )
    out = folder / f"tiny-{dim}-{seed}"
    model.save(str(out))
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    return out
