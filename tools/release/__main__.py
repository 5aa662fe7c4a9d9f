"""Release one distribution of the workspace: bump its version, date its changelog, commit, tag.

    uv run python tools/release mdcx-format 0.2.0       # or: major | minor | patch
    uv run python tools/release mdcx-format patch --dry-run
    uv run python tools/release --check                  # do the versions of the workspace agree?

A release of NAME to VERSION:

1. refuses unless the working tree is clean, VERSION is a valid version above
   the current one, the tag ``NAME-vVERSION`` does not exist, the changelog's
   ``Unreleased`` section says something, and every sibling that depends on
   NAME still admits VERSION (otherwise it names them: widen their ranges,
   and release them, first);
2. writes VERSION into ``packages/NAME/pyproject.toml`` (the one place a
   version lives: ``__version__`` is read from the installed metadata) and
   into ``server.json`` where the distribution has one (the MCP registry
   listing); the umbrella ``mdcx`` also sets ``version`` and
   ``date-released`` in ``CITATION.cff``;
3. moves the changelog's ``Unreleased`` entries under ``## [VERSION] - DATE``
   (today, or ``--date``) and leaves an empty ``Unreleased`` above them;
4. runs ``uv lock`` so the lock file names the new version;
5. commits those files as "NAME VERSION" and tags ``NAME-vVERSION``.

It pushes and publishes nothing: it prints the commands that do.
``--dry-run`` prints what it would change and changes nothing.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import InvalidVersion, Version

ROOT = Path(__file__).resolve().parents[2]
UNRELEASED = "## [Unreleased]"
UMBRELLA = "mdcx"  # its version is the project's, the one CITATION.cff cites
_VERSION_LINE = re.compile(r'^version = "([^"]+)"$', re.M)
_CFF_VERSION = re.compile(r"^version: *(.+)$", re.M)
_CFF_DATE = re.compile(r"^date-released: *.+\n", re.M)


class ReleaseError(Exception):
    """A release that cannot go ahead, and why (printed as one line)."""


@dataclass(frozen=True)
class Member:
    name: str
    folder: Path
    version: str
    requires: tuple[Requirement, ...]  # dependencies and optional dependencies

    @property
    def pyproject(self) -> Path:
        return self.folder / "pyproject.toml"

    @property
    def changelog(self) -> Path:
        return self.folder / "CHANGELOG.md"

    @property
    def server_json(self) -> Path:
        return self.folder / "server.json"


def members(root: Path) -> dict[str, Member]:
    found = {}
    for pyproject in sorted((root / "packages").glob("*/pyproject.toml")):
        project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
        specs = list(project.get("dependencies", []))
        for extra in project.get("optional-dependencies", {}).values():
            specs += extra
        found[project["name"]] = Member(
            project["name"], pyproject.parent, project["version"], tuple(Requirement(s) for s in specs)
        )
    return found


def problems(root: Path) -> list[str]:
    """Where the versions of the workspace disagree (empty when they agree)."""
    found = members(root)
    out = []
    for member in found.values():
        try:
            Version(member.version)
        except InvalidVersion:
            out.append(f"{member.name}: version {member.version!r} is not a valid version")
            continue
        for req in member.requires:
            sibling = found.get(req.name)
            if sibling and not req.specifier.contains(sibling.version, prereleases=True):
                out.append(
                    f"{member.name} requires {req} but the workspace holds {sibling.name} {sibling.version}"
                )
        if member.server_json.is_file():
            listed = json.loads(member.server_json.read_text(encoding="utf-8"))
            versions = {listed.get("version")} | {p.get("version") for p in listed.get("packages", [])}
            if versions != {member.version}:
                out.append(
                    f"{member.name}: server.json names {sorted(map(str, versions))}, pyproject {member.version}"
                )
        if not member.changelog.is_file() or UNRELEASED not in member.changelog.read_text(encoding="utf-8"):
            out.append(f"{member.name}: CHANGELOG.md has no '{UNRELEASED}' section")
    citation = root / "CITATION.cff"
    if UMBRELLA in found and citation.is_file():
        cited = _CFF_VERSION.search(citation.read_text(encoding="utf-8"))
        if not cited or cited.group(1).strip().strip("\"'") != found[UMBRELLA].version:
            out.append(
                f"CITATION.cff cites version {cited and cited.group(1)}, {UMBRELLA} is {found[UMBRELLA].version}"
            )
    return out


def next_version(current: str, wanted: str) -> str:
    if wanted in ("major", "minor", "patch"):
        major, minor, patch = (*Version(current).release, 0, 0)[:3]
        return {
            "major": f"{major + 1}.0.0",
            "minor": f"{major}.{minor + 1}.0",
            "patch": f"{major}.{minor}.{patch + 1}",
        }[wanted]
    try:
        Version(wanted)
    except InvalidVersion:
        raise ReleaseError(f"{wanted!r} is not a version (nor major, minor or patch)") from None
    return wanted


def dated_changelog(text: str, version: str, date: str) -> str:
    """The changelog with its Unreleased entries moved under ``## [version] - date``."""
    start = text.find(UNRELEASED)
    if start < 0:
        raise ReleaseError(f"the changelog has no '{UNRELEASED}' section")
    body_start = start + len(UNRELEASED)
    following = re.search(r"^## \[", text[body_start:], re.M)
    body_end = body_start + following.start() if following else len(text)
    entries = text[body_start:body_end].strip("\n")
    if not entries.strip():
        raise ReleaseError("the changelog's Unreleased section is empty: nothing to release")
    released = f"{UNRELEASED}\n\n## [{version}] - {date}\n\n{entries}\n"
    rest = text[body_end:]
    return text[:start] + released + ("\n" + rest if rest else "")


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
    if done.returncode != 0:
        raise ReleaseError(f"git {' '.join(args)}: {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout


def release(root: Path, name: str, wanted: str, date: str, dry_run: bool) -> list[str]:
    """Release ``name``; returns the lines to print."""
    found = members(root)
    if name not in found:
        raise ReleaseError(f"no distribution {name!r} in packages/ (there are: {', '.join(found)})")
    member = found[name]
    version = next_version(member.version, wanted)
    if Version(version) <= Version(member.version):
        raise ReleaseError(f"{name} is at {member.version}; {version} is not above it")
    blocked = [
        f"{other.name} ({req})"
        for other in found.values()
        for req in other.requires
        if req.name == name and not req.specifier.contains(version, prereleases=True)
    ]
    if blocked:
        raise ReleaseError(
            f"{name} {version} falls outside what {', '.join(blocked)} accept: widen those ranges first"
        )
    tag = f"{name}-v{version}"
    if _git(root, "tag", "--list", tag).strip():
        raise ReleaseError(f"the tag {tag} exists already")
    if not dry_run and _git(root, "status", "--porcelain", "--untracked-files=no").strip():
        raise ReleaseError("the working tree has uncommitted changes: commit or stash them first")

    pyproject = member.pyproject.read_text(encoding="utf-8")
    bumped, count = _VERSION_LINE.subn(f'version = "{version}"', pyproject, count=1)
    if count != 1:
        raise ReleaseError(f"{member.pyproject} has no 'version = \"...\"' line")
    changelog = dated_changelog(member.changelog.read_text(encoding="utf-8"), version, date)
    writes = {member.pyproject: bumped, member.changelog: changelog}
    if member.server_json.is_file():
        listed = json.loads(member.server_json.read_text(encoding="utf-8"))
        listed["version"] = version
        for package in listed.get("packages", []):
            if package.get("identifier") == name:
                package["version"] = version
        writes[member.server_json] = json.dumps(listed, indent=2, ensure_ascii=False) + "\n"
    citation = root / "CITATION.cff"
    if name == UMBRELLA and citation.is_file():
        cff = _CFF_DATE.sub("", citation.read_text(encoding="utf-8"))
        cff, count = _CFF_VERSION.subn(f'version: {version}\ndate-released: "{date}"', cff, count=1)
        if count != 1:
            raise ReleaseError("CITATION.cff has no 'version:' line")
        writes[citation] = cff

    lines = [f"{name}: {member.version} -> {version}, changelog dated {date}, tag {tag}"]
    lines += [f"  writes {path.relative_to(root)}" for path in writes] + ["  runs uv lock, commits, tags"]
    if dry_run:
        return ["dry run, nothing changed:", *lines]
    for path, text in writes.items():
        path.write_text(text, encoding="utf-8")
    locked = subprocess.run(["uv", "lock", "--quiet"], cwd=root, capture_output=True, text=True)
    if locked.returncode != 0:
        raise ReleaseError(f"uv lock failed: {locked.stderr.strip()}")
    _git(root, "add", *(str(p.relative_to(root)) for p in writes), "uv.lock")
    _git(root, "commit", "--quiet", "-m", f"{name} {version}")
    _git(root, "tag", "-a", tag, "-m", f"{name} {version}")
    return [
        *lines,
        "done.  To publish:",
        f"  git push origin HEAD {tag}",
        f"  uv build --package {name} --out-dir dist/{tag} && uvx twine check --strict dist/{tag}/*",
        f"  uv publish dist/{tag}/*",
    ]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tools/release", description=__doc__.split("\n\n")[0])
    p.add_argument("package", nargs="?", help="the distribution to release (a folder name under packages/)")
    p.add_argument("version", nargs="?", help="the new version, or major, minor or patch")
    p.add_argument("--date", default=dt.date.today().isoformat(), help="the release date (default today)")
    p.add_argument("--dry-run", action="store_true", help="say what would change, change nothing")
    p.add_argument("--check", action="store_true", help="check that the workspace's versions agree")
    p.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    try:
        if args.check:
            found = problems(args.root)
            for line in found:
                print(line)
            if not found:
                print(
                    "versions agree: "
                    + ", ".join(f"{m.name} {m.version}" for m in members(args.root).values())
                )
            return 1 if found else 0
        if not args.package or not args.version:
            p.error("give PACKAGE and VERSION (or --check)")
        dt.date.fromisoformat(args.date)
        for line in release(args.root, args.package, args.version, args.date, args.dry_run):
            print(line)
        return 0
    except (ReleaseError, ValueError) as exc:
        print(f"tools/release: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
