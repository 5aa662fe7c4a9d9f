"""Signing keys and signature checks, as data (the CLI prints them)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import _crypto
from ._container import read_raw_header
from ._errors import SignatureError
from ._header import signed_message
from ._reader import body_intact


@dataclass(frozen=True)
class KeyPair:
    private_key: str  # 64 hex digits: keep secret
    public_key: str  # 64 hex digits: give to recipients


def generate_keypair() -> KeyPair:
    key = _crypto.SigningKey.generate()
    return KeyPair(key.seed.hex(), key.public_key.hex())


@dataclass(frozen=True)
class Verification:
    path: str
    signed: bool
    signature_valid: bool
    key_matches: bool
    body_intact: bool
    issuer: str | None

    @property
    def ok(self) -> bool:
        return self.signed and self.signature_valid and self.key_matches and self.body_intact

    @property
    def reason(self) -> str:
        if not self.signed:
            return "the package is not signed"
        if not self.key_matches:
            return "the package was signed with a different key"
        if not self.signature_valid:
            return "the signature does not match the header: the header was altered after signing"
        if not self.body_intact:
            return "the body does not match the signed digest: the package was altered or truncated"
        return "signature valid and body intact"

    def to_json(self) -> dict:
        return {
            "path": self.path,
            "ok": self.ok,
            "reason": self.reason,
            "signed": self.signed,
            "signature_valid": self.signature_valid,
            "key_matches": self.key_matches,
            "body_intact": self.body_intact,
            "issuer": self.issuer,
        }


def verify(path: str | Path, public_key: str) -> Verification:
    """Check the signature over the header and body digest, and that the body matches it.

    Needs only the public key, never the passphrase.
    """
    path = Path(path)
    expected = _crypto.public_key_from_hex(public_key)
    raw = read_raw_header(path)
    header = raw.header
    issuer = header.get("issuer")
    if raw.kind == "legacy":
        from ._legacy import legacy_verification

        return legacy_verification(path, raw, expected)
    signing = header.get("signing")
    signature = header.get("signature")
    if not isinstance(signing, dict) or not isinstance(signature, str):
        return Verification(str(path), False, False, False, body_intact(path), issuer)
    try:
        declared = bytes.fromhex(signing.get("public_key", ""))
        sig = bytes.fromhex(signature)
    except ValueError:
        raise SignatureError(f"{path.name}: the header's signature fields are not hexadecimal") from None
    key_matches = declared == expected
    valid = _crypto.verify_signature(expected, signed_message(header), sig)
    return Verification(str(path), True, valid, key_matches, body_intact(path), issuer)
