"""The package header: JSON readable without the key, authenticated with it.

Two fields are outside what the cipher authenticates, because they are
computed after the body is sealed: ``body_digest`` and ``signature``.  Both are
still checked when a package is opened: the digest against the sealed block
table, the signature against the public key the header itself declares.  So
editing any field of any package makes opening fail.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ._errors import CorruptPackage, NotAPackage

FORMAT_NAME = "mdcx"
FORMAT_VERSION = 2

# Fields filled in after sealing; everything else is bound to the body as
# associated data of every block.
UNBOUND_FIELDS = ("body_digest", "signature")
MAX_HEADER_BYTES = 1 << 20

DIGEST_HEX = 64
SIGNATURE_HEX = 128


def canonical(obj: Any) -> bytes:
    """The one byte encoding of a JSON value that hashing and signing use."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def bound_part(header: dict) -> dict:
    return {k: v for k, v in header.items() if k not in UNBOUND_FIELDS}


def header_hash(header: dict) -> bytes:
    """SHA-256 of the authenticated part; every block's associated data holds it."""
    return hashlib.sha256(b"mdcx/2 header\0" + canonical(bound_part(header))).digest()


def signed_message(header: dict) -> bytes:
    """What Ed25519 signs: every header field but the signature, body digest included."""
    unsigned = {k: v for k, v in header.items() if k != "signature"}
    return b"mdcx/2 signature\0" + canonical(unsigned)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    result: dict = {}
    for key, value in pairs:
        if key in result:
            raise CorruptPackage(f"the header names {key!r} twice; the file was altered")
        result[key] = value
    return result


def parse_header(raw: bytes) -> dict:
    try:
        header = json.loads(raw.decode("utf-8"), object_pairs_hook=_no_duplicates)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise CorruptPackage("the package header is not valid JSON; the file is damaged") from None
    if not isinstance(header, dict):
        raise CorruptPackage("the package header is not a JSON object; the file is damaged")
    return header


def encode_header(header: dict) -> bytes:
    """Readable with ``head``: one field per line."""
    return json.dumps(header, ensure_ascii=False, indent=1).encode("utf-8")


def require(header: dict, key: str, kind: type | tuple[type, ...]) -> Any:
    value = header.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise NotAPackage(f"the package header lacks a valid {key!r}; it is not a usable .mdcx file")
    return value
