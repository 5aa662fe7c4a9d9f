"""Conversion from a catalogue plugin: the plugin fetches, conversion converts and records provenance.

The plugins are the test sources of ``helpers.sources``, installed through a
real ``mdcx.sources`` entry point by the ``source_plugins`` fixture.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers.format import FAST_KDF, KEY
from helpers.sources import TroubledSource
from mdcx.convert import ConversionError, ConvertOptions, convert_source
from mdcx.format import Package, PackOptions, pack

pytestmark = pytest.mark.usefixtures("source_plugins")


def front_matter(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8").split("---\n")[1])


def convert_cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The installed ``mdcx-convert`` console script, as a user runs it."""
    command = Path(sys.executable).with_name("mdcx-convert")
    return subprocess.run([str(command), *args], capture_output=True, text=True, env=env, timeout=120)


def test_reference_source_end_to_end(tmp_path: Path, source_plugins: dict[str, str]) -> None:
    out = tmp_path / "md"
    done = convert_cli("--source", "reference", "--output", str(out), "--serial", env=source_plugins)
    assert done.returncode == 0, done.stderr
    assert "converted 4, reused 0" in done.stdout and "coverage 100.00% over 4" in done.stdout

    fog = front_matter(out / "fog-1.md")
    assert fog["title"] == "Fog signals" and fog["date"] == "1901-05" and fog["date_from"] == "source"
    assert fog["format"] == "html" and fog["verification"] == "measured" and fog["coverage"] == 1.0
    assert fog["catalogue"] == {
        "source": "reference",
        "identifier": "fog-1",
        "title": "Fog signals",
        "date": "1901-05",
        "download": "https://lights.example.org/fog-1.html",
        "host": "lights.example.org",
    }
    assert "The siren at Cape Race carried furthest" in (out / "fog-1.md").read_text(encoding="utf-8")
    keepers = front_matter(out / "keepers_3-a53e2353.md")  # "keepers/3" is no file name
    assert keepers["catalogue"]["identifier"] == "keepers/3" and "date" not in keepers
    assert front_matter(out / "bells-2.md")["format"] == "md"  # text: the download's name decides

    index = json.loads((out / "_mdcx" / "run.json").read_text(encoding="utf-8"))
    assert index["source"] == "reference" and index["summary"]["source"] == "reference"
    records = {d["catalogue"]["identifier"]: d for d in index["documents"]}
    assert records["lens-4"]["catalogue"]["host"] == "archive.example.net"
    assert all(d["status"] == "converted" and d["verification"] == "measured" for d in records.values())

    # Packing keeps the catalogue's date with provenance "source", and its title.
    pack(out, tmp_path / "lights.mdcx", KEY, PackOptions(kdf=FAST_KDF))
    with Package(tmp_path / "lights.mdcx", KEY) as package:
        docs = {d.path: d for d in package.documents()}
    assert docs["@/fog-1.md"].dated == "1901-05" and docs["@/fog-1.md"].dated_from == "source"
    assert docs["@/lens-4.md"].title == "Fresnel lenses"
    assert docs["@/keepers_3-a53e2353.md"].dated is None
    assert not [p for p in docs if "_mdcx" in p]  # the fetched originals are records, never packed


def test_failures_are_recorded_and_the_run_goes_on(tmp_path: Path) -> None:
    source = TroubledSource()
    report = convert_source(source, tmp_path, ConvertOptions(serial=True))
    by_source = {d.source: d for d in report.documents}
    assert by_source["gone-5"].status == "failed"
    assert by_source["gone-5"].reason == "not fetched: lights.example.org answered 404 for gone-5"
    assert by_source["gone-5"].catalogue["download"] == "https://lights.example.org/gone-5.pdf"
    assert "the source plugin failed (KeyError" in by_source["bug-7"].reason
    assert by_source["photo-6.png"].status == "skipped" and "PNG image" in by_source["photo-6.png"].reason
    assert by_source["fog-1.html"].status == "converted"  # rate limited once, waited for, fetched
    assert source.fetches.count("fog-1") == 2
    assert report.summary["converted"] == 4 and report.summary["failed"] == 2

    # A second run fetches only what failed before and converts nothing again.
    again = TroubledSource()
    second = convert_source(again, tmp_path, ConvertOptions(serial=True))
    assert sorted(again.fetches) == ["bug-7", "gone-5"]
    assert second.summary["reused"] == 4 and second.summary["converted"] == 0

    # --force fetches and converts everything again.
    forced = TroubledSource()
    convert_source(forced, tmp_path, ConvertOptions(serial=True, force=True))
    assert "bells-2" in forced.fetches


def test_limit_caps_the_candidates_fetched(tmp_path: Path) -> None:
    source = TroubledSource()
    report = convert_source(source, tmp_path, ConvertOptions(serial=True, limit=2))
    assert source.fetches == ["fog-1", "fog-1", "bells-2"]
    assert report.summary["documents"] == 2


def test_a_catalogue_that_stops_listing_is_a_notice(tmp_path: Path) -> None:
    class Stops(TroubledSource):
        def candidates(self):
            yield from list(super().candidates())[1:3]
            raise ConnectionError("catalogue went away")

    report = convert_source(Stops(), tmp_path, ConvertOptions(serial=True))
    assert report.summary["converted"] == 2
    assert any(
        "listing candidates stopped after 2 (ConnectionError: catalogue went away)" in n
        for n in report.notices
    )


def test_unknown_and_broken_sources_are_one_line_errors(
    tmp_path: Path, source_plugins: dict[str, str]
) -> None:
    with pytest.raises(ConversionError, match="no source named 'nowhere'"):
        convert_source("nowhere", tmp_path)
    for name, needle in (("nowhere", "no source named 'nowhere'"), ("broken", "failed to load")):
        done = convert_cli("--source", name, "--output", str(tmp_path / name), env=source_plugins)
        assert done.returncode == 1 and needle in done.stderr
        assert done.stderr.startswith("mdcx-convert: error: ") and done.stderr.count("\n") == 1
    both = convert_cli("--source", "reference", "--input", "x", "--output", "y", env=source_plugins)
    assert both.returncode == 2 and "not allowed with argument" in both.stderr
