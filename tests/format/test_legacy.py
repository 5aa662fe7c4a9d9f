"""First-generation (mdcx 1.x) packages still open, answer and export."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers.legacy import write_legacy
from mdcx.format import CorruptPackage, DecryptionError, Package, body_intact, read_header, search, verify

DOCS = {
    "manuals/pump.md": "# Pump manual\n\nThe pump must be primed before the first start.\n\nCheck the seals yearly.",
    "received/letter.md": "Dear sir,\n\nYour order of valves has shipped.",
    "notes/cafe.md": "Notes from the café about espresso machines.",
}


@pytest.fixture(params=["lzma", "zstd"])
def legacy(tmp_path: Path, request) -> Path:
    target = tmp_path / "old.mdcx"
    write_legacy(
        target, DOCS, "old secret", attachments={"certs/cert.md": "certificate 42"}, compression=request.param
    )
    return target


def test_header_and_integrity_without_key(legacy: Path) -> None:
    header = read_header(legacy)
    assert header.kind == "legacy" and header.fields["documents"] == 3
    assert body_intact(legacy)


def test_search_and_documents(legacy: Path) -> None:
    with Package(legacy, "old secret") as pkg:
        result = search([pkg], "primed pump")
        assert result.documents[0].document == "@/manuals/pump.md"
        assert "primed" in result.documents[0].passages[0].text
        paths = {d.path: d for d in pkg.documents()}
        assert paths["@/received/letter.md"].direction == "received"
        assert paths["@/certs/cert.md"].attachment
        assert pkg.document("@/certs/cert.md").text == "certificate 42"
        assert "seals" in pkg.document("pump.md").text
        assert search([pkg], "cafe espresso").documents[0].document == "@/notes/cafe.md"


def test_federated_with_a_new_package(legacy: Path, tmp_path: Path) -> None:
    from helpers.format import FAST_KDF, KEY, write
    from mdcx.format import PackOptions, pack

    write(tmp_path / "new", "valves.md", "# Valves\n\nValves and pumps, a catalogue of valves.")
    new = tmp_path / "new.mdcx"
    pack(tmp_path / "new", new, KEY, PackOptions(kdf=FAST_KDF))
    with Package(legacy, "old secret") as old, Package(new, KEY) as fresh:
        result = search([old, fresh], "valves")
        assert {d.package for d in result.documents} == {"old.mdcx", "new.mdcx"}


def test_wrong_key_and_tampering(legacy: Path) -> None:
    with pytest.raises(DecryptionError):
        Package(legacy, "not it")
    data = bytearray(legacy.read_bytes())
    data[-40] ^= 1
    legacy.write_bytes(bytes(data))
    assert not body_intact(legacy)
    with pytest.raises(CorruptPackage):
        Package(legacy, "old secret")


def test_signed_first_generation_verifies(tmp_path: Path) -> None:
    from mdcx.format import SigningKey

    seed = os.urandom(32)
    target = tmp_path / "signed.mdcx"
    write_legacy(target, DOCS, "pw", signing_seed=seed)
    public = SigningKey(seed).public_key.hex()
    assert verify(target, public).ok
    assert not verify(target, SigningKey.generate().public_key.hex()).ok


def test_a_name_no_document_can_have_is_one_short_line(legacy: Path) -> None:
    from mdcx.format import InputError

    with Package(legacy, "old secret") as pkg:
        for name in ("x" * 100_000, "bad\udcffname", "../../etc/passwd"):
            with pytest.raises(InputError, match="has no document named") as caught:
                pkg.document(name)
            assert len(str(caught.value)) < 200 and "\n" not in str(caught.value)
