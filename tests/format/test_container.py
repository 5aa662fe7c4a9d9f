"""The sealed container: round trips, and every way of damaging a package."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from helpers.format import FAST_KDF, KEY
from mdcx.format import (
    Compression,
    CorruptPackage,
    DecryptionError,
    MdcxError,
    NotAPackage,
    Package,
    PackOptions,
    SigningKey,
    UnsupportedVersion,
    body_intact,
    pack,
    read_header,
    search,
    verify,
)
from mdcx.format._container import _PREAMBLE, _RECORD, _TRAILER


def _pack(src: Path, tmp_path: Path, **options) -> Path:
    target = tmp_path / "p.mdcx"
    pack(src, target, KEY, PackOptions(kdf=FAST_KDF, **options))
    return target


def _records(path: Path) -> tuple[int, list[tuple[int, int]], int]:
    """(body offset, [(record offset, sealed length)], table record offset)."""
    data = path.read_bytes()
    _, _, _, hlen = _PREAMBLE.unpack_from(data)
    body = _PREAMBLE.size + hlen
    table_offset = struct.unpack_from("<Q", data, len(data) - _TRAILER.size)[0]
    records, at = [], body
    while at < table_offset:
        (n,) = _RECORD.unpack_from(data, at)
        records.append((at, n))
        at += _RECORD.size + n
    return body, records, table_offset


def _flip(path: Path, offset: int, bit: int = 0) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 1 << bit
    path.write_bytes(bytes(data))


def _open_and_read_all(path: Path, key: str = KEY) -> None:
    with Package(path, key) as pkg:
        pkg.authenticate()
        for info in pkg.documents():
            pkg.document(info.path)
        pkg.execute("SELECT count(*) FROM posting")


@pytest.fixture
def packed(collection: Path, tmp_path: Path) -> Path:
    return _pack(collection, tmp_path)


@pytest.fixture
def big(tmp_path: Path) -> Path:
    """Enough text for a dictionary and many blocks."""
    src = tmp_path / "big"
    src.mkdir()
    for i in range(120):
        words = " ".join(f"w{(i * 7919 + j * 104729) % 5000}" for j in range(900))
        (src / f"d{i:03}.md").write_text(f"# Doc {i}\n\n{words}\n", encoding="utf-8")
    return _pack(src, tmp_path)


def test_round_trip_reads_everything(packed: Path) -> None:
    with Package(packed, KEY) as pkg:
        paths = sorted(d.path for d in pkg.documents())
        assert paths == [
            "@/appendix/coordinates.md",
            "@/notes.txt",
            "@/received/2020-letter.md",
            "@/reports/network.md",
            "@/reports/storage.md",
            "@/sent/2020-reply.md",
        ]
        result = search([pkg], "storage temperature")
        assert result.documents[0].document == "@/reports/storage.md"


@pytest.fixture
def use_cipher(monkeypatch):
    """Switch AES-GCM between ``cryptography`` and ``pycryptodomex`` (both are installed here)."""
    from mdcx.format import _crypto

    def use(library: str) -> None:
        monkeypatch.setenv("MDCX_CIPHER", library)
        _crypto._openssl_aead.cache_clear()
        assert _crypto.cipher_library() == library

    yield use
    monkeypatch.delenv("MDCX_CIPHER")
    _crypto._openssl_aead.cache_clear()


@pytest.mark.parametrize(
    ("sealer", "reader"), [("cryptography", "pycryptodomex"), ("pycryptodomex", "cryptography")]
)
def test_either_cipher_library_reads_what_the_other_sealed(
    collection: Path, tmp_path: Path, use_cipher, sealer: str, reader: str
) -> None:
    use_cipher(sealer)
    target = _pack(collection, tmp_path)
    use_cipher(reader)
    _open_and_read_all(target)
    with Package(target, KEY) as pkg:
        assert search([pkg], "storage temperature").documents
    from mdcx.format import _crypto

    use_cipher(sealer)
    key, nonce = bytes(range(32)), bytes(12)
    sealed = _crypto.seal(key, nonce, b"sixteen kib of text", b"header")
    use_cipher(reader)
    assert _crypto.unseal(key, nonce, sealed, b"header") == b"sixteen kib of text"
    for bad in (sealed[:-1] + bytes([sealed[-1] ^ 1]), bytes([sealed[0] ^ 1]) + sealed[1:]):
        with pytest.raises(DecryptionError):
            _crypto.unseal(key, nonce, bad, b"header")
    with pytest.raises(DecryptionError):
        _crypto.unseal(key, nonce, sealed, b"other header")


def test_header_is_readable_without_key(packed: Path) -> None:
    header = read_header(packed)
    assert header.kind == "mdcx2"
    assert header.fields["documents"] == 5 and header.fields["attachments"] == 1
    assert header.fields["kdf"]["n"] == FAST_KDF.n
    assert body_intact(packed)


def test_open_reads_header_and_table_not_body(big: Path) -> None:
    with Package(big, KEY) as pkg:
        blocks = pkg.header.fields["blocks"]
        assert blocks > 40
        # opening the database touches its first pages (schema, meta) only
        assert pkg._body.blocks_read <= 6


def test_dictionary_and_many_blocks_round_trip(big: Path) -> None:
    header = read_header(big)
    assert header.fields["compression"]["dictionary"] is True
    with Package(big, KEY) as pkg:
        doc = pkg.document("@/d007.md")
        assert doc.text.startswith("# Doc 7\n")
        assert search([pkg], "w4321").documents


def test_lzma_round_trip(collection: Path, tmp_path: Path) -> None:
    target = _pack(collection, tmp_path, compression=Compression("lzma", 3))
    assert read_header(target).fields["compression"]["method"] == "lzma"
    _open_and_read_all(target)


def test_wrong_key_is_one_opaque_error(packed: Path) -> None:
    with pytest.raises(DecryptionError) as err:
        Package(packed, "wrong key")
    assert "key is wrong or the data was altered" in str(err.value)


HEADER_FIELDS = ["issuer", "documents", "created", "quotes", "package_id", "kdf", "blocks", "compression"]


def _edit_header_field(path: Path, field: str) -> None:
    data = path.read_bytes()
    _, major, minor, hlen = _PREAMBLE.unpack_from(data)
    header = json.loads(data[_PREAMBLE.size : _PREAMBLE.size + hlen])
    value = header.get(field)
    if isinstance(value, int):
        header[field] = value + 1
    elif isinstance(value, dict):
        header[field] = {**value, "tampered": 1}
    else:
        header[field] = "Mallory"
    raw = json.dumps(header).encode()
    path.write_bytes(_PREAMBLE.pack(data[:8], major, minor, len(raw)) + raw + data[_PREAMBLE.size + hlen :])


@pytest.mark.parametrize("field", HEADER_FIELDS)
def test_editing_any_header_field_makes_open_fail(packed: Path, field: str) -> None:
    _edit_header_field(packed, field)
    with pytest.raises(MdcxError):
        _open_and_read_all(packed)


@pytest.fixture
def signed(collection: Path, tmp_path: Path) -> tuple[Path, str]:
    key = SigningKey.generate()
    target = _pack(collection, tmp_path, signing_key=key, issuer="Acme Ltd")
    return target, key.public_key.hex()


@pytest.mark.parametrize("field", HEADER_FIELDS)
def test_editing_any_header_field_of_a_signed_package_makes_verify_fail(
    signed: tuple[Path, str], field: str
) -> None:
    target, public = signed
    assert verify(target, public).ok
    _edit_header_field(target, field)
    result = verify(target, public)
    assert not result.ok and result.reason


def test_editing_body_digest_makes_open_fail(packed: Path) -> None:
    text = packed.read_bytes()
    digest = read_header(packed).fields["body_digest"]
    packed.write_bytes(
        text.replace(digest.encode(), ("f" if digest[0] != "f" else "e").encode() + digest[1:].encode())
    )
    with pytest.raises(CorruptPackage, match="digest"):
        Package(packed, KEY)


def test_adding_a_header_field_makes_open_fail(packed: Path) -> None:
    data = packed.read_bytes()
    _, major, minor, hlen = _PREAMBLE.unpack_from(data)
    header = json.loads(data[_PREAMBLE.size : _PREAMBLE.size + hlen])
    header["answerable_at"] = 0.0
    raw = json.dumps(header).encode()
    packed.write_bytes(_PREAMBLE.pack(data[:8], major, minor, len(raw)) + raw + data[_PREAMBLE.size + hlen :])
    with pytest.raises(MdcxError):
        Package(packed, KEY)


def test_bit_flips_in_header_bytes_fail(packed: Path) -> None:
    data = packed.read_bytes()
    hlen = _PREAMBLE.unpack_from(data)[3]
    original = data
    for offset in range(_PREAMBLE.size, _PREAMBLE.size + hlen, max(1, hlen // 40)):
        packed.write_bytes(original)
        _flip(packed, offset, 1)
        with pytest.raises(MdcxError):
            _open_and_read_all(packed)


def test_bit_flip_in_every_block_and_table_fails(big: Path) -> None:
    _body, records, table = _records(big)
    original = big.read_bytes()
    for offset, length in [*records, (table, 0)]:
        big.write_bytes(original)
        _flip(big, offset + _RECORD.size + max(length // 2, 1))
        with pytest.raises(MdcxError):
            _open_and_read_all(big)
        assert not body_intact(big)
    big.write_bytes(original)
    _open_and_read_all(big)


def test_swapped_blocks_fail(big: Path) -> None:
    _body, records, _table = _records(big)
    data = big.read_bytes()
    (a, la), (b, lb) = records[3], records[4]
    first, second = data[a : a + 4 + la], data[b : b + 4 + lb]
    swapped = data[:a] + second + first + data[b + 4 + lb :]
    big.write_bytes(swapped)
    with pytest.raises(MdcxError):
        _open_and_read_all(big)


def test_block_repeated_from_another_position_fails(big: Path) -> None:
    _body, records, _table = _records(big)
    data = bytearray(big.read_bytes())
    (a, la), (b, lb) = records[5], records[6]
    if la == lb:  # same length: a replayed block cannot even be told apart by size
        data[b : b + 4 + lb] = data[a : a + 4 + la]
        big.write_bytes(bytes(data))
        with pytest.raises(MdcxError):
            _open_and_read_all(big)


def test_block_from_another_package_with_same_key_fails(big: Path, tmp_path: Path) -> None:
    other_src = tmp_path / "other"
    other_src.mkdir()
    for i in range(120):
        (other_src / f"d{i:03}.md").write_text(
            f"# Doc {i}\n\n" + " ".join(f"w{(i * 7919 + j * 104729) % 5000}" for j in range(900)) + "\n"
        )
    other = tmp_path / "other.mdcx"
    pack(other_src, other, KEY, PackOptions(kdf=FAST_KDF))
    _, mine, _ = _records(big)
    _, theirs, _ = _records(other)
    data, foreign = bytearray(big.read_bytes()), other.read_bytes()
    for (a, la), (b, lb) in zip(mine[2:], theirs[2:]):
        if la == lb:
            data[a : a + 4 + la] = foreign[b : b + 4 + lb]
            big.write_bytes(bytes(data))
            with pytest.raises(MdcxError):
                _open_and_read_all(big)
            return
    pytest.skip("no two blocks of equal sealed length to transplant")


@pytest.mark.parametrize("keep", [0.1, 0.5, 0.9, 0.999])
def test_truncated_package_fails(big: Path, keep: float) -> None:
    data = big.read_bytes()
    big.write_bytes(data[: int(len(data) * keep)])
    with pytest.raises(MdcxError):
        _open_and_read_all(big)
    assert not body_intact(big)


def test_dropped_block_fails(big: Path) -> None:
    _body, records, _table = _records(big)
    data = big.read_bytes()
    a, la = records[3]
    big.write_bytes(data[:a] + data[a + 4 + la :])
    with pytest.raises(MdcxError):
        _open_and_read_all(big)


def test_appended_bytes_fail(packed: Path) -> None:
    packed.write_bytes(packed.read_bytes() + b"extra")
    with pytest.raises(CorruptPackage):
        Package(packed, KEY)


@pytest.mark.parametrize(
    "content, error",
    [
        (b"", NotAPackage),
        (b"hello world, this is text", NotAPackage),
        (b"%PDF-1.7\n", NotAPackage),
        (b"MDCX\r\n\x1a\n\x09\x00\x00\x00\x02\x00\x00\x00{}", UnsupportedVersion),
        (b"MDCX\r\n\x1a\n\x02\x00\x00\x00\xff\xff\xff\x00{", CorruptPackage),
    ],
)
def test_not_a_package(tmp_path: Path, content: bytes, error: type) -> None:
    path = tmp_path / "x.mdcx"
    path.write_bytes(content)
    with pytest.raises(error):
        Package(path, KEY)
    with pytest.raises(error):
        read_header(path)


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(NotAPackage, match="no such file"):
        Package(tmp_path / "absent.mdcx", KEY)
    with pytest.raises(NotAPackage, match="folder"):
        Package(tmp_path, KEY)


def test_hostile_kdf_parameters_are_refused(packed: Path) -> None:
    data = packed.read_bytes()
    _, major, minor, hlen = _PREAMBLE.unpack_from(data)
    header = json.loads(data[_PREAMBLE.size : _PREAMBLE.size + hlen])
    header["kdf"]["n"] = 1 << 30
    raw = json.dumps(header).encode()
    packed.write_bytes(_PREAMBLE.pack(data[:8], major, minor, len(raw)) + raw + data[_PREAMBLE.size + hlen :])
    with pytest.raises(UnsupportedVersion, match="scrypt"):
        Package(packed, KEY)


def test_signature_covers_header_and_body(collection: Path, tmp_path: Path) -> None:
    key = SigningKey.generate()
    target = _pack(collection, tmp_path, signing_key=key, issuer="Acme Ltd")
    public = key.public_key.hex()
    result = verify(target, public)
    assert result.ok and result.issuer == "Acme Ltd"
    assert not verify(target, SigningKey.generate().public_key.hex()).ok
    original = target.read_bytes()
    # the issuer edited (same length, so only the signature can tell)
    target.write_bytes(original.replace(b"Acme Ltd", b"Evil Ltd"))
    v = verify(target, public)
    assert not v.ok and not v.signature_valid and v.body_intact
    with pytest.raises(MdcxError):
        Package(target, KEY)
    # a body byte flipped: signature over the header still valid, body not intact
    target.write_bytes(original)
    _body, records, _ = _records(target)
    _flip(target, records[0][0] + 10)
    v = verify(target, public)
    assert not v.ok and v.signature_valid and not v.body_intact
    # the signature itself edited
    target.write_bytes(original)
    sig = read_header(target).fields["signature"]
    target.write_bytes(original.replace(sig.encode(), (("0" if sig[0] != "0" else "1") + sig[1:]).encode()))
    assert not verify(target, public).ok
    with pytest.raises(CorruptPackage, match="signature"):
        Package(target, KEY)


def test_unsigned_package_does_not_verify(packed: Path) -> None:
    v = verify(packed, SigningKey.generate().public_key.hex())
    assert not v.ok and not v.signed and "not signed" in v.reason


def test_passphrase_is_nfc_normalised(collection: Path, tmp_path: Path) -> None:
    target = tmp_path / "n.mdcx"
    pack(collection, target, "caf\u00e9 cr\u00e8me", PackOptions(kdf=FAST_KDF))
    with Package(target, "cafe\u0301 cre\u0300me"):  # the same words typed decomposed
        pass


def test_rewrite_uses_fresh_salt(collection: Path, tmp_path: Path) -> None:
    a = _pack(collection, tmp_path)
    salt_a = read_header(a).fields["kdf"]["salt"]
    b = _pack(collection, tmp_path)
    assert read_header(b).fields["kdf"]["salt"] != salt_a
