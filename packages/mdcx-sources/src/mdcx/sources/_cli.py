"""``python -m mdcx.sources``: list the installed source plugins, check one against the contract.

Library first: this module parses arguments and prints what ``plugins``,
``load_all`` and ``conforms`` return.  A failure the user can cause (an
unknown name, a plugin that does not load) is one line on standard error and
exit status 1; a source that breaks the contract exits with status 1 after
its report.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import asdict

from ._conformance import CANDIDATES, FETCHES, Conformance, conforms
from ._errors import SourceError
from ._plugins import load, load_all, plugins

PROG = "python -m mdcx.sources"
EXIT_ERROR = 1


def _count(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if n < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return n


def parser() -> argparse.ArgumentParser:
    from . import __version__

    p = argparse.ArgumentParser(
        prog=PROG,
        description="Catalogue plugins for mdcx, found through the 'mdcx.sources' entry points: "
        "list them (the default), or check one against the contract.",
        epilog="--check reports every broken rule of the contract, and notes such as more than half "
        "of the candidates coming from one host.  Exit status 1 when the source does not conform.",
    )
    p.add_argument("--version", action="version", version=f"mdcx-sources {__version__}")
    p.add_argument("--list", action="store_true", help="list the installed sources and whether each loads")
    p.add_argument("--check", metavar="NAME", help="check the source installed as NAME against the contract")
    p.add_argument(
        "--candidates",
        type=_count,
        default=CANDIDATES,
        metavar="N",
        help=f"with --check: walk at most N candidates (default {CANDIDATES})",
    )
    p.add_argument(
        "--fetch",
        type=_count,
        default=FETCHES,
        metavar="N",
        help=f"with --check: fetch the first N candidates (default {FETCHES}; 0 fetches nothing)",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    return p


def render(name: str, report: Conformance) -> str:
    verdict = "conforms" if report.ok else f"does not conform ({len(report.problems)} problems)"
    lines = [f"{name}: {verdict}; {report.candidates} candidates examined, {len(report.fetched)} fetched"]
    if report.hosts:
        lines.append("hosts: " + ", ".join(f"{host} {n}" for host, n in report.hosts[:10]))
    lines += [
        f"fetched {f.identifier}: {f.kind or 'no signature (text?)'}, {f.size:,} bytes"
        for f in report.fetched
    ]
    lines += [f"note: {note}" for note in report.notes]
    lines += [f"problem: {problem}" for problem in report.problems]
    return "\n".join(lines)


def _list(as_json: bool) -> int:
    loaded, failed = load_all()
    reasons = {f.name: f.reason for f in failed}
    rows = [
        {"name": p.name, "value": p.value, "distribution": p.distribution, "loads": p.name in loaded,
         "reason": reasons.get(p.name)}
        for p in plugins()
    ]  # fmt: skip
    if as_json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    if not rows:
        print("no sources installed (plugins declare entry points in the group 'mdcx.sources')")
    for row in rows:
        where = f" from {row['distribution']}" if row["distribution"] else ""
        state = "" if row["loads"] else f"  (fails to load, skipped: {row['reason']})"
        print(f"{row['name']}: {row['value']}{where}{state}")
    return 0


def _check(args: argparse.Namespace) -> int:
    report = conforms(load(args.check), candidates=args.candidates, fetch=args.fetch)
    if args.json:
        data = asdict(report) | {"source": args.check, "ok": report.ok}
        data["hosts"] = dict(report.hosts)
        print(json.dumps(data, ensure_ascii=False, indent=1))
    else:
        print(render(args.check, report))
    return 0 if report.ok else EXIT_ERROR


def _fail(message: str) -> None:
    first = message.strip().splitlines()[0] if message.strip() else "failed"
    print(f"{PROG}: error: {first}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a plugin's names may be in any script
        try:
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
        except (AttributeError, ValueError):
            pass
    args = parser().parse_args(argv)
    try:
        if args.check:
            return _check(args)
        return _list(args.json)
    except SourceError as exc:
        _fail(str(exc))
        return EXIT_ERROR
    except KeyboardInterrupt:
        _fail("interrupted")
        return 130
    except Exception as exc:  # a bug (ours or a plugin's): still one line, unless asked for more
        if os.environ.get("MDCX_DEBUG"):
            raise
        _fail(f"internal error ({type(exc).__name__}: {exc}); set MDCX_DEBUG=1 for details")
        return EXIT_ERROR
