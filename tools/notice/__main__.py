"""Write NOTICE: the third-party components mdcx's distributions depend on, with their licences.

    uv run python tools/notice            # rewrites NOTICE at the repository root
    uv run python tools/notice --stdout   # prints it instead

The runtime dependencies (extras included) of every distribution under
``packages/`` are read from its pyproject; each one's licence from its
installed metadata (``License-Expression``, else ``License``, else the
licence classifiers).  A dependency the development environment does not
install (an extra it does not use) takes its licence from ``NOT_INSTALLED``.
The data the tests use follows, from ``DATA``.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from importlib.metadata import PackageNotFoundError, metadata
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]

# Licences not readable from metadata here: extras the development environment does not
# install, and metadata that names no licence (read from each project's own licence file).
NOT_INSTALLED = {
    "docling-slim": "MIT",
    "onnxruntime-gpu": "MIT",
}
OVERRIDES = {
    "apsw": "any OSI-approved licence, at the user's choice (apsw's LICENSE)",
}

HEADER = """mdcx
Copyright The mdcx authors.  Licensed under the Apache License, Version 2.0
(see LICENSE).

This file lists the third-party components mdcx's distributions depend on
and the third-party data its tests use, with their licences.  None of their
code or data is copied into the distributions: the components are installed
from the package index by pip or uv, and the test data is read where it lies.
Regenerate the first part with `uv run python tools/notice`.
"""

DATA = """Data used by the tests
----------------------

tests/mcp/data/server-schema-2025-12-11/server.schema.json (bundled in the
repository, not in any distribution)
    The MCP registry's server.json schema, from the Model Context Protocol's
    static-assets repository (revision a9ba437d9fbbe92076a24b20d56449ac7c7786ac),
    as bundled by the skillsaw 0.22.0 wheel.  MIT licence; notice in
    tests/mcp/data/server-schema-2025-12-11/LICENSE.

The corpora below are read from ../shared/corpora (or MDCX_CORPORA) and are
not part of this repository; tests skip, saying why, where they are absent.

docling-testdata
    docling-project/docling, tests/data, commit e1cb2b234c48ff29746b0f2f843d07f8e23905a0.
    MIT (the repository); the documents are of mixed origin.

unstructured-example-docs
    Unstructured-IO/unstructured, example-docs, commit 3e5482bfcdc843b5218ad98d2845b4b71ab013b7.
    Apache-2.0 (the repository).

epub3-samples
    IDPF/epub3-samples, commit 7651e2002b631e6577fadf7e9e0692fa6efb8746, packed into .epub.
    CC BY-SA 3.0.

ntrex-128
    MicrosoftTranslator/NTREX (news test set), commit 8561f6a622db9edad1217683e5c83daefd8bb2bf.
    CC BY-SA 4.0.

cranfield
    The Cranfield collection, as distributed by the University of Glasgow's
    information retrieval group.  A research collection; no licence stated.
"""


def licence(name: str) -> str:
    if name in OVERRIDES:
        return OVERRIDES[name]
    try:
        meta = metadata(name)
    except PackageNotFoundError:
        return NOT_INSTALLED.get(name, "unknown (not installed here; see its project page)")
    if meta.get("License-Expression"):
        return meta["License-Expression"]
    text = (meta.get("License") or "").strip()
    if text and "\n" not in text and len(text) <= 80:
        return text
    classifiers = [
        c.split(" :: ")[-1] for c in meta.get_all("Classifier") or [] if c.startswith("License ::")
    ]
    return ", ".join(classifiers) or "unknown (its metadata names none)"


def dependencies(root: Path) -> dict[str, tuple[dict[str, list[str]], bool]]:
    """For each distribution: its third-party requirements by extra ("" for the base), and
    whether it requires other mdcx distributions."""
    out: dict[str, tuple[dict[str, list[str]], bool]] = {}
    for pyproject in sorted((root / "packages").glob("*/pyproject.toml")):
        project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
        groups = {"": project.get("dependencies", []), **project.get("optional-dependencies", {})}
        names = {extra: {Requirement(s).name for s in specs} for extra, specs in groups.items()}
        third = {
            extra: sorted(n for n in found if not n.startswith("mdcx")) for extra, found in names.items()
        }
        siblings = any(n.startswith("mdcx") for found in names.values() for n in found)
        out[project["name"]] = ({extra: found for extra, found in third.items() if found}, siblings)
    return out


def notice(root: Path) -> str:
    lines = [HEADER, "Runtime dependencies, by distribution", "-------------------------------------", ""]
    for dist, (groups, siblings) in dependencies(root).items():
        if not groups:
            only = "other mdcx distributions only" if siblings else "the Python standard library only"
            lines += [f"{dist}: {only}", ""]
            continue
        lines.append(f"{dist}:")
        for extra, names in groups.items():
            label = "  required" if not extra else f"  extra [{extra}]"
            for name in names:
                lines.append(f"{label:<22} {name:<24} {licence(name)}")
        lines.append("")
    lines.append(
        "Each component may depend on others in turn, under their own licences;\n"
        "`pip show` or `uv pip show` names them in an installed environment.\n"
    )
    return "\n".join(lines) + "\n" + DATA


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tools/notice", description=__doc__.split("\n\n")[0])
    p.add_argument("--stdout", action="store_true", help="print NOTICE instead of writing it")
    args = p.parse_args(argv)
    text = notice(ROOT)
    if args.stdout:
        sys.stdout.write(text)
    else:
        (ROOT / "NOTICE").write_text(text, encoding="utf-8")
        print(f"wrote {ROOT / 'NOTICE'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
