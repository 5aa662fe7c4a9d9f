"""The plugin contract: discovery through entry points, the conformance check, its command.

The plugins are the test sources of ``helpers.sources``, installed through a
real ``mdcx.sources`` entry point by the ``source_plugins`` fixture.
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import entry_points
from typing import ClassVar

import pytest
from helpers.sources import ReferenceSource
from mdcx.sources import (
    GROUP,
    Candidate,
    PluginError,
    RateLimited,
    Source,
    conforms,
    load,
    load_all,
    plugins,
)

pytestmark = pytest.mark.usefixtures("source_plugins")


def sources(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mdcx.sources", *args], capture_output=True, text=True, env=env, timeout=60
    )


def test_entry_points_find_the_installed_plugins() -> None:
    names = {ep.name for ep in entry_points(group=GROUP)}
    assert {"reference", "skewed", "broken"} <= names
    found = {p.name: p for p in plugins()}
    assert found["reference"].value == "helpers.sources:ReferenceSource"
    assert found["reference"].distribution == "mdcx-test-sources"


def test_load_makes_a_source_of_the_declared_class() -> None:
    source = load("reference")
    assert isinstance(source, ReferenceSource) and isinstance(source, Source)
    first = next(iter(source.candidates()))
    assert first == Candidate("fog-1", "Fog signals", "1901-05", "https://lights.example.org/fog-1.html")
    assert first.host == "lights.example.org"
    assert source.fetch(first).startswith(b"<!doctype html>")


def test_a_plugin_that_fails_to_load_is_reported_and_skipped() -> None:
    loaded, failed = load_all()
    assert "reference" in loaded and "broken" not in loaded
    assert [f.name for f in failed] == ["broken"]
    assert "failed to load: ModuleNotFoundError" in failed[0].reason
    with pytest.raises(PluginError, match="failed to load"):
        load("broken")
    with pytest.raises(
        PluginError, match=r"no source named 'nowhere' is installed \(installed: broken, reference"
    ):
        load("nowhere")


def test_the_reference_source_conforms() -> None:
    report = conforms(load("reference"), fetch=4)
    assert report.ok, report.problems
    assert report.candidates == 4
    assert dict(report.hosts) == {"lights.example.org": 2, "archive.example.net": 2}
    assert not [n for n in report.notes if "one host" in n]  # two of four is not more than half
    assert [(f.identifier, f.kind) for f in report.fetched] == [
        ("fog-1", "html"),
        ("bells-2", None),
        ("keepers/3", "html"),
        ("lens-4", None),
    ]
    assert "1 of 4 candidates have no date" in report.notes


def test_more_than_half_from_one_host_is_reported() -> None:
    report = conforms(load("skewed"), fetch=0)
    assert report.ok
    assert any("3 of 4 candidates (75%) come from one host, lights.example.org" in n for n in report.notes)


def test_every_broken_rule_is_a_problem() -> None:
    report = conforms(load("untidy"), fetch=1)
    assert not report.ok
    text = "\n".join(report.problems)
    assert "date must be ISO 8601" in text and "'1 May 1901'" in text
    assert "identifier must be a non-empty string" in text
    assert "candidate 4 has no 'identifier' attribute" in text
    assert "identifier 'a' is given to 2 candidates" in text
    assert "returned str, not bytes" in text


def test_rate_limits_are_waited_out_in_the_check() -> None:
    class Busy(ReferenceSource):
        calls = 0

        def fetch(self, candidate: Candidate) -> bytes:
            Busy.calls += 1
            if Busy.calls == 1:
                raise RateLimited("429", retry_after="2")
            return super().fetch(candidate)

    slept: list[float] = []
    report = conforms(Busy(), fetch=1, sleep=slept.append)
    assert report.ok and slept == [2.0] and report.fetched[0].kind == "html"


def test_not_a_source() -> None:
    assert conforms(object()).problems == (  # type: ignore[arg-type]
        "the source has no candidates() method",
        "the source has no fetch() method",
    )

    class Empty(ReferenceSource):
        DOCUMENTS: ClassVar[dict] = {}

    assert conforms(Empty()).problems == (
        "candidates() yielded nothing: a check needs at least one candidate",
    )


def test_check_command(source_plugins: dict[str, str]) -> None:
    out = sources("--check", "reference", "--fetch", "2", env=source_plugins)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("reference: conforms; 4 candidates examined, 2 fetched")
    assert "fetched fog-1: html" in out.stdout

    out = sources("--check", "skewed", "--json", env=source_plugins)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["ok"] and report["hosts"]["lights.example.org"] == 3
    assert any("come from one host" in n for n in report["notes"])

    out = sources("--check", "untidy", env=source_plugins)
    assert out.returncode == 1 and "problem: " in out.stdout


def test_command_failures_are_one_line(source_plugins: dict[str, str]) -> None:
    for args, needle in (
        (("--check", "broken"), "failed to load: ModuleNotFoundError"),
        (("--check", "nowhere"), "no source named 'nowhere'"),
    ):
        out = sources(*args, env=source_plugins)
        assert out.returncode == 1
        assert out.stderr.count("\n") == 1 and needle in out.stderr, out.stderr
        assert "Traceback" not in out.stderr
    out = sources("--check", "reference", "--fetch", "-1", env=source_plugins)
    assert out.returncode == 2 and "must be 0 or more" in out.stderr


def test_list_and_help(source_plugins: dict[str, str]) -> None:
    out = sources(env=source_plugins)
    assert out.returncode == 0
    assert "reference: helpers.sources:ReferenceSource from mdcx-test-sources" in out.stdout
    assert (
        "broken: helpers.no_such_module:Catalogue from mdcx-test-sources  (fails to load, skipped:"
        in out.stdout
    )
    listed = json.loads(sources("--list", "--json", env=source_plugins).stdout)
    assert {row["name"]: row["loads"] for row in listed}["broken"] is False
    help_text = sources("--help", env=source_plugins).stdout
    assert "--check NAME" in help_text and "one host" in help_text
