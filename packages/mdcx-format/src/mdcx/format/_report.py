"""What ``pack`` reports back."""

from __future__ import annotations

from dataclasses import dataclass

from ._inputs import Skipped


@dataclass(frozen=True)
class Contributor:
    path: str
    passages: int
    share: float


@dataclass(frozen=True)
class PackReport:
    target: str
    documents: int
    attachments: int
    passages: int
    skipped: tuple[Skipped, ...]
    warnings: tuple[str, ...]
    largest: Contributor | None
    bytes_in: int
    bytes_out: int
    seconds_index: float
    seconds_seal: float
    seconds_index_by_phase: dict[str, float]
    dated: int
    compression: dict
    signed: bool
    language: str | None = None
    answerable_at: float | None = None
    calibrated_from: str | None = None
    encoding: dict | None = None  # model, passages encoded and reused, passages/s, mean passage length

    @property
    def ratio(self) -> float:
        return self.bytes_out / self.bytes_in if self.bytes_in else 0.0

    def to_json(self) -> dict:
        return {
            "target": self.target,
            "documents": self.documents,
            "attachments": self.attachments,
            "passages": self.passages,
            "skipped": [{"path": s.path, "reason": s.reason} for s in self.skipped],
            "warnings": list(self.warnings),
            "largest_contributor": None
            if self.largest is None
            else {
                "path": self.largest.path,
                "passages": self.largest.passages,
                "share": round(self.largest.share, 4),
            },
            "bytes_in": self.bytes_in,
            "bytes_out": self.bytes_out,
            "ratio": round(self.ratio, 4),
            "seconds_index": round(self.seconds_index, 3),
            "seconds_seal": round(self.seconds_seal, 3),
            "seconds_index_by_phase": {k: round(v, 3) for k, v in self.seconds_index_by_phase.items()},
            "dated": self.dated,
            "compression": self.compression,
            "signed": self.signed,
            "language": self.language,
            "answerable_at": None if self.answerable_at is None else round(self.answerable_at, 4),
            "calibrated_from": self.calibrated_from,
            "encoding": self.encoding,
        }
