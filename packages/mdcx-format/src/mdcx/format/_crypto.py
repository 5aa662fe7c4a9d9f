"""Every cryptographic primitive mdcx uses, behind a few small recipes.

This is the only module that imports a cipher library, so the choice of
library can be changed in one place.  pycryptodomex (AES-256-GCM and Ed25519
in C, 7 MB installed) is the dependency; where the ``cryptography`` package is
installed too (the MCP server brings it), AES-GCM goes through it instead:
the same cipher, but about 5 microseconds a 16 KiB block against 70, almost
all of it pycryptodomex building a cipher object per block, which is what a
phrase search reading hundreds of passages pays for.  Key derivation uses the
standard library's scrypt.

Recipes:

* ``derive_key``: passphrase -> 32-byte key, scrypt with parameters read from
  the package header (bounded, so a hostile header cannot ask for a terabyte).
* ``subkey``: HKDF-SHA256, so one passphrase never drives two ciphers with the
  same key.
* ``seal`` / ``unseal``: AES-256-GCM with associated data; every failure is the
  same ``DecryptionError``.
* ``SigningKey`` / ``verify_signature``: Ed25519 (RFC 8032).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import unicodedata
from dataclasses import dataclass

from ._errors import DecryptionError, PassphraseError, SignatureError, UnsupportedVersion

KEY_BYTES = 32
NONCE_BYTES = 12
TAG_BYTES = 16

# scrypt cost a reader is willing to pay: N up to 2**22 and 1 GiB of memory.
# Defaults (2**15, 8, 1) cost about 0.1 s and 32 MiB here, i.e. about eight
# guesses a second per core, and cannot be batched cheaply on a GPU.
_MAX_LOG2_N = 22
_MAX_MEMORY = 1 << 30


@dataclass(frozen=True)
class KdfParams:
    """scrypt parameters and salt, as recorded in a package header."""

    n: int = 1 << 15
    r: int = 8
    p: int = 1
    salt: bytes = b""

    @property
    def memory(self) -> int:
        return 128 * self.n * self.r * self.p

    def check(self) -> None:
        """Refuse parameters that are malformed or would exhaust the machine."""
        n, r, p = self.n, self.r, self.p
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (n, r, p)):
            raise UnsupportedVersion("the key-derivation parameters in the header are not integers")
        if n < 2 or n & (n - 1) or n.bit_length() - 1 > _MAX_LOG2_N:
            raise UnsupportedVersion(
                f"scrypt N={n} is not a power of two up to 2**{_MAX_LOG2_N}; this reader refuses it"
            )
        if not (1 <= r <= 64 and 1 <= p <= 16) or self.memory > _MAX_MEMORY:
            raise UnsupportedVersion(
                f"scrypt r={r}, p={p} would need {self.memory >> 20} MiB; this reader allows at most 1024 MiB"
            )
        if len(self.salt) < 16:
            raise UnsupportedVersion("the key-derivation salt in the header is shorter than 16 bytes")

    def to_json(self) -> dict:
        return {"name": "scrypt", "n": self.n, "r": self.r, "p": self.p, "salt": self.salt.hex()}


def new_salt() -> bytes:
    return os.urandom(16)


def normalise_passphrase(passphrase: str) -> bytes:
    """NFC, so the same passphrase typed on two keyboards gives the same key."""
    if not isinstance(passphrase, str) or passphrase == "":
        raise PassphraseError("the passphrase is empty; give a non-empty passphrase")
    return unicodedata.normalize("NFC", passphrase).encode("utf-8")


def derive_key(passphrase: str, params: KdfParams, *, normalise: bool = True) -> bytes:
    """Passphrase -> 32-byte master key (scrypt).

    ``normalise=False`` exists only for first-generation packages, whose writer
    hashed the passphrase's UTF-8 bytes as typed.
    """
    params.check()
    if normalise:
        secret = normalise_passphrase(passphrase)
    else:
        if passphrase == "":
            raise PassphraseError("the passphrase is empty; give a non-empty passphrase")
        secret = passphrase.encode("utf-8")
    return hashlib.scrypt(
        secret,
        salt=params.salt,
        n=params.n,
        r=params.r,
        p=params.p,
        maxmem=params.memory + (16 << 20),
        dklen=KEY_BYTES,
    )


def subkey(master: bytes, purpose: bytes, context: bytes = b"") -> bytes:
    """HKDF-SHA256 (RFC 5869) with an empty salt: one key per purpose."""
    prk = hmac.new(b"\0" * 32, master, hashlib.sha256).digest()
    return hmac.new(prk, purpose + b"\0" + context + b"\x01", hashlib.sha256).digest()


_OPENSSL_MAX = 1 << 30  # cryptography refuses single messages near 2 GiB (first-generation bodies)
_FAILED = "decryption failed: the key is wrong or the data was altered"


@functools.lru_cache(maxsize=1)
def _openssl_aead():
    """``cryptography``'s AESGCM class, or None where it is not installed (or MDCX_CIPHER=pycryptodomex)."""
    if os.environ.get("MDCX_CIPHER") == "pycryptodomex":
        return None
    try:
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    except ImportError:
        return None
    return AESGCM, InvalidTag


@functools.lru_cache(maxsize=16)
def _openssl_cipher(key: bytes):
    return _openssl_aead()[0](key)  # the key schedule, once per key


def cipher_library() -> str:
    """Which library seals and unseals: ``cryptography`` or ``pycryptodomex``."""
    return "cryptography" if _openssl_aead() else "pycryptodomex"


def seal(key: bytes, nonce: bytes, plaintext: bytes, aad: bytes) -> bytes:
    """AES-256-GCM: ciphertext followed by the 16-byte tag."""
    if _openssl_aead() and len(plaintext) < _OPENSSL_MAX:
        return _openssl_cipher(key).encrypt(nonce, plaintext, aad)
    from Cryptodome.Cipher import AES

    cipher = AES.new(key, AES.MODE_GCM, nonce=nonce, mac_len=TAG_BYTES)
    cipher.update(aad)
    ciphertext, tag = cipher.encrypt_and_digest(plaintext)
    return ciphertext + tag


def unseal(key: bytes, nonce: bytes, sealed: bytes, aad: bytes | None) -> bytes:
    """Inverse of ``seal``; any failure is the same opaque ``DecryptionError``."""
    if len(sealed) < TAG_BYTES:
        raise DecryptionError(_FAILED)
    openssl = _openssl_aead()
    if openssl and len(sealed) < _OPENSSL_MAX:
        try:
            return _openssl_cipher(key).decrypt(nonce, sealed, aad)
        except openssl[1]:
            raise DecryptionError(_FAILED) from None
    from Cryptodome.Cipher import AES

    cipher = AES.new(key, AES.MODE_GCM, nonce=nonce, mac_len=TAG_BYTES)
    if aad is not None:
        cipher.update(aad)
    try:
        return cipher.decrypt_and_verify(sealed[:-TAG_BYTES], sealed[-TAG_BYTES:])
    except ValueError:
        raise DecryptionError(_FAILED) from None


@dataclass(frozen=True)
class SigningKey:
    """An Ed25519 key pair; ``seed`` is the 32-byte private key."""

    seed: bytes

    @classmethod
    def generate(cls) -> SigningKey:
        return cls(os.urandom(32))

    @classmethod
    def from_hex(cls, text: str) -> SigningKey:
        try:
            seed = bytes.fromhex(text.strip())
        except ValueError:
            raise SignatureError("the signing key is not hexadecimal") from None
        if len(seed) != 32:
            raise SignatureError(
                f"the signing key has {len(seed)} bytes; an Ed25519 private key has 32 "
                "(64 hex digits, as printed by `mdcx keygen`)"
            )
        return cls(seed)

    @property
    def public_key(self) -> bytes:
        from Cryptodome.Signature import eddsa

        return eddsa.import_private_key(self.seed).public_key().export_key(format="raw")

    def sign(self, message: bytes) -> bytes:
        from Cryptodome.Signature import eddsa

        return eddsa.new(eddsa.import_private_key(self.seed), "rfc8032").sign(message)


def public_key_from_hex(text: str) -> bytes:
    try:
        raw = bytes.fromhex(text.strip())
    except ValueError:
        raise SignatureError("the public key is not hexadecimal") from None
    if len(raw) != 32:
        raise SignatureError(
            f"the public key has {len(raw)} bytes; an Ed25519 public key has 32 (64 hex digits)"
        )
    return raw


def verify_signature(public_key: bytes, message: bytes, signature: bytes) -> bool:
    from Cryptodome.Signature import eddsa

    try:
        key = eddsa.import_public_key(public_key)
        eddsa.new(key, "rfc8032").verify(message, signature)
    except ValueError:
        return False
    return True
