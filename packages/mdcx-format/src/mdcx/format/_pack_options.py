"""What ``pack`` is asked to do: the options of one package, checked when they are made."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import _crypto, _schema
from ._calibration import check_focus
from ._compression import Compression
from ._errors import InputError
from ._index import MAX_PREFIX_LETTERS, MIN_PREFIX_LETTERS, PREFIX_LETTERS


@dataclass(frozen=True)
class PackOptions:
    compression: Compression = field(default_factory=Compression)
    kdf: _crypto.KdfParams = field(default_factory=_crypto.KdfParams)
    block_size: int | None = None  # None: the compression method's own (16 KiB zstd, 1 MiB lzma)
    issuer: str | None = None
    signing_key: _crypto.SigningKey | None = None
    dates: Path | None = None
    date_from_mtime: bool = False
    quotes: str = "document"
    expressions: bool = False
    shapes: bool = False
    focus: tuple[str, ...] = ()
    multilingual: bool = False  # encode passages for meaning-based retrieval (needs mdcx-embed)
    model: str | None = None  # encoder (default: MDCX_MODEL, else mdcx-embed's default)
    reuse: Path | None = None  # an earlier package whose vectors serve unchanged passages
    workers: int | None = None
    # Query words of this many letters or more also match the words sharing
    # their first letters (morphology without a stemmer); 0 matches words
    # only as written.  Recorded in the package, so a reader keeps the rule.
    prefix_letters: int = PREFIX_LETTERS

    def __post_init__(self) -> None:
        if self.prefix_letters != 0 and not MIN_PREFIX_LETTERS <= self.prefix_letters <= MAX_PREFIX_LETTERS:
            raise InputError(
                f"prefix letters must be 0 (words only as written) or {MIN_PREFIX_LETTERS} to "
                f"{MAX_PREFIX_LETTERS}, not {self.prefix_letters}"
            )
        if self.quotes not in ("document", "boundary"):
            raise InputError(f"--quotes must be document or boundary, not {self.quotes!r}")
        if self.block_size is not None and (
            self.block_size % _schema.PAGE_SIZE or not (_schema.PAGE_SIZE <= self.block_size <= 1 << 24)
        ):
            raise InputError(f"the block size must be a multiple of {_schema.PAGE_SIZE} up to 16 MiB")
        if any(not isinstance(q, str) or not q.strip() for q in self.focus):
            raise InputError("a --focus question is empty")
        check_focus(self.focus, "--focus")
        if (self.reuse is not None or self.model is not None) and not self.multilingual:
            raise InputError("--reuse and --model only apply with --multilingual")
