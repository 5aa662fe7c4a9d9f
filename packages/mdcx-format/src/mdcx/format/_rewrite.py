"""Changing a closed package: ``calibrate`` and ``shapes``.

A rewrite decrypts the database into a temporary file beside the package
(as ``pack`` does, and for the same few seconds), changes it, and seals it
again with the same compression, block size and key-derivation cost under a
fresh salt, replacing the original in one rename.  Documents, passages and
every other property stay as they were.  A signed package keeps a signature
only if the issuer's signing key is given (the same key that signed it);
without it the rewrite is refused rather than silently unsigning it.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Sequence
from pathlib import Path

import apsw

from . import _crypto, _schema
from ._calibration import check_focus, from_focus
from ._compression import Compression
from ._container import read_raw_header
from ._errors import InputError, SignatureError
from ._reader import Package, kdf_of
from ._sealing import remove_stale_temporaries, seal, temporary
from ._writer import BuildView

# Fields the sealing recomputes; everything else in the header carries over.
_RESEALED = (
    "package_id",
    "kdf",
    "compression",
    "cipher",
    "block_size",
    "blocks",
    "database_bytes",
    "body_digest",
    "signing",
    "signature",
)


def rewrite(
    path: str | Path,
    passphrase: str,
    change: Callable[[apsw.Connection, str], dict],
    *,
    signing_key: _crypto.SigningKey | None = None,
) -> dict:
    """Apply ``change(connection, package name) -> header updates`` and reseal; returns the new header."""
    path = Path(path)
    raw = read_raw_header(path)
    if raw.kind != "mdcx2":
        raise InputError(
            f"{path.name} is a first-generation package; it can be read but not rewritten: "
            "export it (mdcx export) and pack the Markdown again"
        )
    header = raw.header
    signing = header.get("signing")
    if signing and signing_key is None:
        raise SignatureError(
            f"{path.name} is signed; give the issuer's signing key (--signing-key-file) to rewrite it, "
            "or its signature would be lost"
        )
    if signing and signing_key is not None and signing_key.public_key.hex() != signing.get("public_key"):
        raise SignatureError(f"the signing key given is not the one {path.name} was signed with")
    folder = path.parent if str(path.parent) else Path(".")
    remove_stale_temporaries(folder)
    plain = temporary(folder, path, "db")
    try:
        with Package(path, passphrase) as pkg, open(plain, "wb") as out:
            body = pkg._body
            assert body is not None
            for index in range(body.count):
                out.write(body.block(index))
        con = apsw.Connection(str(plain))
        try:
            _schema.script(con, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA temp_store=MEMORY")
            con.execute("BEGIN")
            updates = change(con, path.name)
            con.execute("COMMIT")
            _schema.script(con, "VACUUM")
        finally:
            con.close()
        kept = {k: v for k, v in header.items() if k not in _RESEALED}
        kept["modified"] = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        kept.update(updates)
        kept["package_id"] = _crypto.new_salt().hex()
        compression = header["compression"]
        return seal(
            plain,
            path,
            passphrase,
            kept,
            compression=Compression(compression["method"], int(compression.get("preset", 6))),
            kdf=kdf_of(header),
            block_size=int(header["block_size"]),
            signing_key=signing_key,
        )
    finally:
        try:
            plain.unlink()
        except OSError:
            pass


def calibrate(
    path: str | Path,
    passphrase: str,
    questions: Sequence[str],
    *,
    signing_key: _crypto.SigningKey | None = None,
) -> dict:
    """Re-measure "nothing here answers" from the questions the package is meant to answer."""
    questions = [q.strip() for q in questions if q and q.strip()]
    if not questions:
        raise InputError("give at least one --question the package is meant to answer")
    check_focus(questions, "--question")

    def change(con: apsw.Connection, name: str) -> dict:
        from ._lexical import Lexicon

        view = BuildView(con, name)
        result = from_focus(Lexicon(view), questions, source="focus-after")
        calibration = result.to_json()
        header = {"answerable_at": result.answerable_at, "source": result.source}
        embedding = _schema.read_meta(con).get("embedding")
        if isinstance(embedding, dict) and embedding.get("model"):  # re-measure the reach by meaning too
            from ._semantic import focus_reach

            reach, measured = focus_reach(view, embedding["model"], questions)
            reach = None if reach is None else round(reach, 4)
            calibration["semantic"] = {
                "answerable_at": reach,
                "source": "focus-after",
                "measured": [round(m, 4) for m in measured],
            }
            header["similarity_at"] = reach
        _schema.set_meta(con, "calibration", calibration)
        return {"calibration": header}

    return rewrite(path, passphrase, change, signing_key=signing_key)


def add_shapes(path: str | Path, passphrase: str, *, signing_key: _crypto.SigningKey | None = None) -> dict:
    """Add the character-shape index (for OCR misreadings) to a package written without it."""
    header = read_raw_header(Path(path)).header

    def change(con: apsw.Connection, name: str) -> dict:
        from ._shapes import build_shape_index

        build_shape_index(con)
        features = list(header.get("features") or ["lexical"])
        if "shapes" not in features:
            features.append("shapes")
        _schema.set_meta(con, "features", features)
        return {"features": features}

    return rewrite(path, passphrase, change, signing_key=signing_key)
