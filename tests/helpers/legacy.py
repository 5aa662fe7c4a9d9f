"""Writes a package in the first-generation layout (mdcx 1.x), from its documented facts.

Used only to test that mdcx-format still reads such files; see the project's
``first-generation-format.md`` for the layout.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import os
import sqlite3
import struct
import tempfile
from pathlib import Path

from Cryptodome.Cipher import AES
from Cryptodome.Signature import eddsa


def write_legacy(
    target: Path,
    documents: dict[str, str],
    passphrase: str,
    *,
    attachments: dict[str, str] | None = None,
    signing_seed: bytes | None = None,
    compression: str = "lzma",
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "db.sqlite"
        con = sqlite3.connect(db_path)
        con.executescript(
            """
            CREATE TABLE document(id INTEGER PRIMARY KEY, name TEXT, pseudopath TEXT, source TEXT, folder TEXT,
                archive TEXT, verification_status TEXT, dated TEXT, dated_from TEXT, normalized_text TEXT);
            CREATE TABLE passage(id INTEGER PRIMARY KEY, document_id INTEGER, position INTEGER, text TEXT,
                search_text TEXT, tokens INTEGER);
            CREATE VIRTUAL TABLE passage_fts USING fts5(search_text, content='passage', content_rowid='id',
                tokenize="unicode61 categories 'L* N* Co Mn Mc'");
            CREATE TABLE passage_vector(passage_id INTEGER PRIMARY KEY, vector BLOB);
            CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
            CREATE TABLE df(term TEXT PRIMARY KEY, passages INTEGER);
            CREATE TABLE attachment(id INTEGER PRIMARY KEY, name TEXT, pseudopath TEXT, folder TEXT, text TEXT);
            """
        )
        pid = 0
        for doc_id, (path, text) in enumerate(documents.items(), 1):
            source = (
                "RECEIVED"
                if path.startswith("received/")
                else "SENT"
                if path.startswith("sent/")
                else "OTHER"
            )
            con.execute(
                "INSERT INTO document VALUES(?, ?, ?, ?, ?, NULL, 'verified', NULL, NULL, ?)",
                (doc_id, Path(path).stem, "@/" + path, source, str(Path(path).parent), text.lower()),
            )
            for position, block in enumerate(b for b in text.split("\n\n") if b.strip()):
                pid += 1
                con.execute(
                    "INSERT INTO passage VALUES(?, ?, ?, ?, ?, ?)",
                    (pid, doc_id, position, block, block.lower(), len(block.split())),
                )
        for att_id, (path, text) in enumerate((attachments or {}).items(), 1):
            con.execute(
                "INSERT INTO attachment VALUES(?, ?, ?, ?, ?)",
                (att_id, Path(path).stem, "@/" + path, "", text),
            )
        con.execute("INSERT INTO passage_fts(passage_fts) VALUES('rebuild')")
        con.execute("UPDATE passage SET search_text = NULL")
        con.execute("INSERT INTO meta VALUES('documents', ?)", (str(len(documents)),))
        con.commit()
        con.execute("VACUUM")
        con.close()
        plain = db_path.read_bytes()
    packed = lzma.compress(plain) if compression == "lzma" else _zstd(plain)
    salt, nonce = os.urandom(16), os.urandom(12)
    key = hashlib.scrypt(
        passphrase.encode("utf-8"), salt=salt, n=1 << 15, r=8, p=1, maxmem=64 << 20, dklen=32
    )
    cipher = AES.new(key, AES.MODE_GCM, nonce=nonce)
    ciphertext, tag = cipher.encrypt_and_digest(packed)
    body = ciphertext + tag
    digest = hashlib.sha256(body).hexdigest()
    signature = public = ""
    if signing_seed:
        signer = eddsa.import_private_key(signing_seed)
        signature = eddsa.new(signer, "rfc8032").sign(digest.encode("ascii")).hex()
        public = signer.public_key().export_key(format="raw").hex()
    header = {
        "file_format": "mdcx",
        "version": 1,
        "issuer": "first generation",
        "created_utc": "2025-01-02T03:04:05Z",
        "documents": len(documents),
        "passages": pid,
        "language": "en",
        "encryption": "AES-256-GCM",
        "key_derivation": {"algorithm": "scrypt", "n": 32768, "r": 8, "p": 1},
        "compression": compression,
        "quotes": "document",
        "salt": salt.hex(),
        "nonce": nonce.hex(),
        "body_digest": digest,
        "signature": signature,
        "public_key": public,
    }
    raw = json.dumps(header, ensure_ascii=False).encode("utf-8")
    target.write_bytes(b"MDCX" + struct.pack("<I", len(raw)) + raw + body)


def _zstd(data: bytes) -> bytes:
    from backports import zstd

    return zstd.compress(data, 3)
