"""The ``mdcx`` command in a real subprocess: outputs, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.command import run_mdcx
from helpers.format import write

KEY = "cli passphrase"


def mdcx(*args: str, key: str | None = KEY, **options) -> subprocess.CompletedProcess:
    return run_mdcx(*args, key=key, **options)


def assert_one_line_error(proc, *needles: str) -> None:
    assert proc.returncode != 0, proc.stdout
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mdcx: error: "), proc.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]


@pytest.fixture(scope="module")
def packed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cli")
    src = root / "src"
    write(
        src,
        "guide/pumps.md",
        "---\ntitle: Pump guide\n---\n<!-- page: 7 -->\n# Pumps\n\nPrime the centrifugal pump before use.\n",
    )
    write(src, "notes/other.md", "Unrelated notes about the canteen menu.\n")
    write(src, "annex/table.md", "---\nindexed: false\n---\n| a | b |\n")
    target = root / "c.mdcx"
    proc = mdcx("pack", "--output", str(src), "--target", str(target), "--issuer", "Test Org")
    assert proc.returncode == 0, proc.stderr
    assert "packed 2 documents and 1 attachment" in proc.stdout
    return target


def test_help_lists_every_command() -> None:
    proc = mdcx("--help")
    assert proc.returncode == 0
    for command in ("pack", "info", "verify", "keygen", "export", "search", "document"):
        assert command in proc.stdout
        assert mdcx(command, "--help").returncode == 0


@pytest.mark.parametrize(
    ("options", "method", "preset"),
    [
        (["--fast"], "zstd", "fast"),
        (["--preset", "9"], "zstd", 9),
        (["--compression", "lzma", "--fast"], "lzma", "fast"),
    ],
)
def test_compression_options_reach_the_header(
    tmp_path: Path, options: list[str], method: str, preset: int | str
) -> None:
    from mdcx.format._compression import FAST_PRESET

    src = tmp_path / "src"
    write(src, "a.md", "# Pumps\n\nPrime the centrifugal pump before use.\n" * 40)
    target = tmp_path / "a.mdcx"
    proc = mdcx("pack", "--output", str(src), "--target", str(target), *options)
    assert proc.returncode == 0, proc.stderr
    info = json.loads(mdcx("info", str(target), "--json", key=None).stdout)
    compression = info["header"]["compression"]
    assert compression["method"] == method
    assert compression["preset"] == (FAST_PRESET if preset == "fast" else preset)
    found = mdcx("search", str(target), "centrifugal", "--json")
    assert found.returncode == 0 and json.loads(found.stdout)["documents"], found.stderr


def test_info_needs_no_key(packed: Path) -> None:
    proc = mdcx("info", str(packed), key=None)
    assert proc.returncode == 0
    assert "Test Org" in proc.stdout and "intact" in proc.stdout
    data = json.loads(mdcx("info", str(packed), "--json", key=None).stdout)
    assert data["intact"] is True and data["header"]["documents"] == 2 and data["kind"] == "mdcx2"


def test_search_text_and_json(packed: Path) -> None:
    proc = mdcx("search", str(packed), "centrifugal pump")
    assert proc.returncode == 0, proc.stderr
    assert "@/guide/pumps.md" in proc.stdout and "page 7" in proc.stdout and "c.mdcx" in proc.stdout
    data = json.loads(mdcx("search", str(packed), "centrifugal pump", "--json", "--limit", "1").stdout)
    assert data["documents"][0]["document"] == "@/guide/pumps.md"
    assert data["documents"][0]["passages"][0]["page"] == 7
    # the fields are exactly those the README documents, at every level
    documented = _readme_json_example()
    assert set(data) == set(documented)
    assert set(data["documents"][0]) == set(documented["documents"][0])
    assert set(data["documents"][0]["passages"][0]) == set(documented["documents"][0]["passages"][0])


def _readme_json_example() -> dict:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    block = readme.split("`--json` prints a stable object", 1)[1].split("```json\n", 1)[1].split("```", 1)[0]
    return json.loads(block)


def test_keys_from_file_stdin_and_flag(packed: Path, tmp_path: Path) -> None:
    key_file = tmp_path / "key.txt"
    key_file.write_text(KEY + "\n")
    assert mdcx("search", str(packed), "pump", "--key-file", str(key_file), key=None).returncode == 0
    assert mdcx("search", str(packed), "pump", "--key", "-", stdin=KEY + "\n", key=None).returncode == 0
    assert mdcx("search", str(packed), "pump", "--key", KEY, key=None).returncode == 0
    assert mdcx("search", str(packed), "pump", key=None, env={"MDCX_KEY_FILE": str(key_file)}).returncode == 0


def test_search_several_packages_one_key_each(packed: Path, tmp_path: Path) -> None:
    write(tmp_path / "two", "valves.md", "Pump valves and pump seals.\n")
    other = tmp_path / "two.mdcx"
    assert (
        mdcx("pack", "--output", str(tmp_path / "two"), "--target", str(other), key="second").returncode == 0
    )
    keys = tmp_path / "keys.txt"
    keys.write_text(f"{KEY}\nsecond\n")
    proc = mdcx("search", str(packed), str(other), "pump", "--key-file", str(keys), "--json", key=None)
    assert proc.returncode == 0, proc.stderr
    packages = {d["package"] for d in json.loads(proc.stdout)["documents"]}
    assert packages == {"c.mdcx", "two.mdcx"}
    assert_one_line_error(
        mdcx("search", str(packed), str(other), "pump", "--key", "a", "--key", "b", "--key", "c", key=None),
        "3 passphrases for 2",
    )


def test_document_and_export(packed: Path, tmp_path: Path) -> None:
    proc = mdcx("document", str(packed), "@/annex/table.md")
    assert proc.returncode == 0 and "| a | b |" in proc.stdout
    out = tmp_path / "restored"
    proc = mdcx("export", str(packed), "--target", str(out))
    assert proc.returncode == 0, proc.stderr
    assert (out / "guide/pumps.md").read_text().startswith("---\ntitle: Pump guide")
    assert_one_line_error(mdcx("export", str(packed), "--target", str(out)), "already exist")


def test_keygen_sign_and_verify(tmp_path: Path) -> None:
    pair = json.loads(mdcx("keygen", "--json", key=None).stdout)
    assert len(pair["private_key"]) == 64 and len(pair["public_key"]) == 64
    keyfile = tmp_path / "signing.key"
    keyfile.write_text(mdcx("keygen", key=None).stdout)  # the text form can be used as a key file too
    write(tmp_path / "src", "a.md", "signed content")
    target = tmp_path / "s.mdcx"
    proc = mdcx(
        "pack",
        "--output",
        str(tmp_path / "src"),
        "--target",
        str(target),
        "--signing-key",
        pair["private_key"],
        "--issuer",
        "Me",
    )
    assert proc.returncode == 0, proc.stderr
    ok = mdcx("verify", str(target), "--public-key", pair["public_key"], key=None)
    assert ok.returncode == 0 and ok.stdout.startswith("OK")
    bad = mdcx("verify", str(target), "--public-key", "00" * 32, key=None)
    assert bad.returncode == 1 and "FAILED" in bad.stdout
    target2 = tmp_path / "s2.mdcx"
    assert (
        mdcx(
            "pack",
            "--output",
            str(tmp_path / "src"),
            "--target",
            str(target2),
            "--signing-key-file",
            str(keyfile),
        ).returncode
        == 0
    )
    public = next(
        line.split(":", 1)[1].strip()
        for line in keyfile.read_text().splitlines()
        if line.startswith("public")
    )
    assert mdcx("verify", str(target2), "--public-key", public, key=None).returncode == 0


@pytest.mark.parametrize(
    "content, needle",
    [
        (b"", "empty"),
        (b"just some text", "not an .mdcx package"),
        (b"MDCX\r\n\x1a\n\x07\x00\x00\x00\x02\x00\x00\x00{}", "version 7"),
    ],
)
def test_bad_files_give_one_line(tmp_path: Path, content: bytes, needle: str) -> None:
    path = tmp_path / "bad.mdcx"
    path.write_bytes(content)
    for args in (
        ("info", str(path)),
        ("search", str(path), "q"),
        ("export", str(path), "--target", str(tmp_path / "o")),
    ):
        assert_one_line_error(mdcx(*args), needle)


def test_errors_are_one_line(packed: Path, tmp_path: Path) -> None:
    assert_one_line_error(mdcx("search", str(packed), "pump", key="wrong"), "key is wrong")
    assert_one_line_error(mdcx("search", str(tmp_path / "absent.mdcx"), "pump"), "no such file")
    assert_one_line_error(mdcx("search", str(packed), "pump", key=None), "no passphrase")
    assert_one_line_error(mdcx("search", str(packed), "   "), "empty")
    assert_one_line_error(mdcx("search", str(packed), "pump", "--limit", "0"), "limit")
    assert_one_line_error(
        mdcx("pack", "--output", str(tmp_path), "--target", str(tmp_path / "x.mdcx"), key=""), "no passphrase"
    )
    assert_one_line_error(
        mdcx("pack", "--output", str(tmp_path / "none"), "--target", str(tmp_path / "x.mdcx")),
        "does not exist",
    )
    assert_one_line_error(mdcx("verify", str(packed), "--public-key", "xyz"), "not hexadecimal")
    assert_one_line_error(
        mdcx(
            "pack", "--output", str(tmp_path), "--target", str(tmp_path / "x.mdcx"), "--signing-key", "abcd"
        ),
        "32",
    )
    tampered = tmp_path / "t.mdcx"
    data = bytearray(packed.read_bytes())
    data[len(data) // 2] ^= 0xFF
    tampered.write_bytes(bytes(data))
    proc = mdcx("search", str(tampered), "pump")
    assert_one_line_error(proc)
    assert "altered" in proc.stderr or "damaged" in proc.stderr
    info = mdcx("info", str(tampered), key=None)
    assert info.returncode == 0 and "ALTERED" in info.stdout


def test_a_name_the_console_cannot_print(tmp_path: Path) -> None:
    write(tmp_path / "src", "данные 数据 📄.md", "content about turbines")
    target = tmp_path / "n.mdcx"
    env = {"PYTHONIOENCODING": "ascii", "LC_ALL": "C"}
    proc = mdcx("pack", "--output", str(tmp_path / "src"), "--target", str(target), env=env)
    assert proc.returncode == 0, proc.stderr
    proc = mdcx("search", str(target), "turbines", env=env)
    assert proc.returncode == 0 and "\\u" in proc.stdout
    proc = mdcx("search", str(target), "turbines", "--json", env=env)
    assert json.loads(proc.stdout)["documents"][0]["document"] == "@/данные 数据 📄.md"


def _corpus_for_kill(root: Path) -> Path:
    src = root / "big"
    for i in range(1500):
        write(
            src,
            f"d{i:04}.md",
            f"# Doc {i}\n\n" + " ".join(f"w{(i * 13 + j) % 3000}" for j in range(600)) + "\n",
        )
    return src


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_killed_pack_leaves_no_half_written_target(tmp_path: Path, sig: int) -> None:
    src = _corpus_for_kill(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    target = out / "k.mdcx"
    write(tmp_path / "old", "a.md", "the old version\n")
    assert mdcx("pack", "--output", str(tmp_path / "old"), "--target", str(target)).returncode == 0
    old_version = target.read_bytes()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MDCX_")}
    env["MDCX_KEY"] = KEY
    proc = subprocess.Popen(
        [sys.executable, "-m", "mdcx.format", "pack", "--output", str(src), "--target", str(target)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    deadline = time.monotonic() + 60
    while not any(".mdcx-tmp" in p.name for p in out.iterdir()):
        assert proc.poll() is None and time.monotonic() < deadline, (
            "pack ended before it could be interrupted"
        )
        time.sleep(0.02)
    time.sleep(0.3)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode != 0
    assert target.read_bytes() == old_version
    leftovers = [p.name for p in out.iterdir() if p.name != "k.mdcx"]
    if sig == signal.SIGKILL:
        # killed outright: no chance to clean up, but the next write in this folder does
        write(tmp_path / "small", "a.md", "small")
        assert (
            mdcx("pack", "--output", str(tmp_path / "small"), "--target", str(out / "other.mdcx")).returncode
            == 0
        )
        leftovers = [p.name for p in out.iterdir() if p.name not in ("k.mdcx", "other.mdcx")]
    else:
        assert "Traceback" not in err.decode()
    assert leftovers == []


def test_retrieval_commands_and_options_end_to_end(tmp_path: Path) -> None:
    src = tmp_path / "src"
    write(
        src,
        "received/2019-memo.md",
        "---\ndate: 2019-01-10\n---\n# Memo\n\nThe modern pump station opened.\n",
    )
    write(
        src,
        "received/2024-memo.md",
        "---\ndate: 2024-01-10\n---\n# Memo\n\nThe modern pump station opened.\n",
    )
    write(src, "sent/reply.md", "# Reply\n\nThanks for the note on the pump station; x|y(y+z) holds.\n")
    target = tmp_path / "c.mdcx"
    packed = mdcx(
        "pack", "--output", str(src), "--target", str(target), "--expressions", "--quotes", "boundary",
        "--focus", "when did the pump station open",
    )  # fmt: skip
    assert packed.returncode == 0, packed.stderr
    info = json.loads(mdcx("info", str(target), "--json", key=None).stdout)
    assert info["header"]["language"] == "en" and info["header"]["quotes"] == "boundary"
    shown = mdcx("info", str(target), key=None).stdout
    assert re.search(r"language\s+en \(", shown) and "(focus)" in shown

    def found(*args: str) -> dict:
        proc = mdcx("search", str(target), *args, "--json")
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)

    recent = found("modern pump station", "--prefer", "recent", "--mode", "lexical")
    assert recent["prefer_applied"] is True and recent["mode"] == "lexical"
    assert recent["documents"][0]["document"] == "@/received/2024-memo.md"
    assert {d["document"] for d in found("pump station", "--only", "sent")["documents"]} == {
        "@/sent/reply.md"
    }
    assert [d["document"] for d in found("x|y(y+z)")["documents"]] == ["@/sent/reply.md"]
    assert not found("x|y(y-z)")["documents"]  # one sign different: another expression

    # an OCR-misread question ("rnodern") is read through shapes once the package has them
    assert not found("rnodern")["documents"]
    assert mdcx("shapes", str(target)).returncode == 0
    misread = found("rnodern")
    assert misread["documents"] and misread["read_as"] == {"c.mdcx": {"rnodern": "modern"}}

    calibrated = mdcx("calibrate", str(target), "--question", "when did the pump station open", "--json")
    assert calibrated.returncode == 0, calibrated.stderr
    assert json.loads(calibrated.stdout)["calibration"]["source"] == "focus-after"
    vocabulary = mdcx("vocabulary", str(target), "--unknown", "pump zeppelin", "--json")
    assert vocabulary.returncode == 0, vocabulary.stderr
    assert "zeppelin" in vocabulary.stdout and "pump" in vocabulary.stdout


def test_prefix_letters_reach_the_package_and_a_bad_number_is_one_line(tmp_path: Path) -> None:
    src = tmp_path / "src"
    write(src, "a.md", "# Stations\n\nTwo pumping stations serve the valley.\n")
    exact, bad = tmp_path / "exact.mdcx", tmp_path / "bad.mdcx"
    packed = mdcx("pack", "--output", str(src), "--target", str(exact), "--prefix-letters", "0")
    assert packed.returncode == 0, packed.stderr
    from mdcx.format import Package

    with Package(exact, KEY) as pkg:
        assert pkg.meta["lexical"]["prefix_letters"] == 0
    assert json.loads(mdcx("search", str(exact), "pumping stations", "--json").stdout)["documents"]
    assert not json.loads(mdcx("search", str(exact), "station", "--json").stdout)["documents"]
    refused = mdcx("pack", "--output", str(src), "--target", str(bad), "--prefix-letters", "2")
    assert refused.returncode != 0 and not bad.exists()
    assert refused.stderr.strip().count("\n") == 0 and "prefix letters must be 0" in refused.stderr
