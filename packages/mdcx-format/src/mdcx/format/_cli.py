"""The ``mdcx`` command: parse arguments, call the library, print the result.

Every failure the user can cause ends in one line on standard error and a
non-zero exit status, never a traceback (set ``MDCX_DEBUG=1`` to see one).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from . import _render
from ._cli_parser import parser
from ._compression import FAST_PRESET, Compression
from ._crypto import SigningKey
from ._errors import InputError, MdcxError, SignatureError

EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def _keys(args: argparse.Namespace, count: int) -> list[str]:
    from ._keys import keys_for

    return keys_for(count, keys=args.key or (), key_file=args.key_file)


def _signing_key(args: argparse.Namespace) -> SigningKey | None:
    if args.signing_key and args.signing_key_file:
        raise SignatureError("give --signing-key or --signing-key-file, not both")
    if args.signing_key_file:
        try:
            text = Path(args.signing_key_file).read_text(encoding="utf-8")
        except OSError as exc:
            raise SignatureError(
                f"cannot read the signing key file {args.signing_key_file} ({exc.strerror or exc})"
            ) from None
        except UnicodeDecodeError:
            raise SignatureError(
                f"the signing key file {args.signing_key_file} is not text; give the file `mdcx keygen` printed"
            ) from None
        lines = [
            line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")
        ]
        private = [line.split(":", 1)[-1].strip() for line in lines if not line.lower().startswith("public")]
        if not private:
            raise SignatureError(f"the signing key file {args.signing_key_file} holds no key")
        return SigningKey.from_hex(private[0])
    if args.signing_key:
        return SigningKey.from_hex(args.signing_key)
    return None


def _path(value: str, option: str) -> Path:
    """A path argument; an empty one would silently mean the current folder."""
    if not value.strip():
        raise InputError(f"{option} is empty; give a path")
    return Path(value)


def _progress(enabled: bool) -> Callable[[int, str], None] | None:
    if not enabled or not sys.stderr.isatty():
        return None

    def show(count: int, path: str) -> None:
        if count % 25 == 0:
            print(f"\r  packed {count:,} documents", end="", file=sys.stderr, flush=True)

    return show


def _encode_progress(enabled: bool) -> Callable[[int, int], None] | None:
    if not enabled or not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        bar = "#" * filled + "." * (width - filled)
        print(f"\r  encoding [{bar}] {done:,}/{total:,} passages", end="", file=sys.stderr, flush=True)

    return show


def cmd_pack(args: argparse.Namespace) -> int:
    from ._writer import PackOptions, pack

    preset = args.preset if args.preset is not None else (FAST_PRESET if args.fast else None)
    compression = Compression(args.compression) if preset is None else Compression(args.compression, preset)
    options = PackOptions(
        compression=compression,
        issuer=args.issuer,
        signing_key=_signing_key(args),
        dates=Path(args.dates) if args.dates else None,
        date_from_mtime=args.date_from_mtime,
        quotes=args.quotes,
        expressions=args.expressions,
        shapes=args.shapes,
        **({} if args.prefix_letters is None else {"prefix_letters": args.prefix_letters}),
        focus=tuple(args.focus or ()),
        multilingual=args.multilingual,
        model=args.model,
        reuse=Path(args.reuse) if args.reuse else None,
    )
    (key,) = _keys(args, 1)
    progress = _progress(not args.quiet and not args.json)
    encoding = _encode_progress(not args.quiet and not args.json)
    report = pack(
        _path(args.output, "--output"),
        _path(args.target, "--target"),
        key,
        options,
        progress=progress,
        encode_progress=encoding,
    )
    if progress:
        print("\r" + " " * 40 + "\r", end="", file=sys.stderr)
    _emit(args, report.to_json(), _render.pack_report(report))
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    from ._reader import body_state, read_header

    header = read_header(args.file)
    state = body_state(args.file)
    data = {
        "path": header.path,
        "kind": header.kind,
        "file_bytes": header.file_bytes,
        "intact": state == "intact",
        "integrity": state,
        "signed": header.signed,
        "header": header.fields,
    }
    _emit(args, data, _render.info(header, state))
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    from ._signing import verify

    result = verify(args.file, args.public_key)
    _emit(args, result.to_json(), _render.verification(result))
    return 0 if result.ok else EXIT_ERROR


def cmd_keygen(args: argparse.Namespace) -> int:
    from ._signing import generate_keypair

    pair = generate_keypair()
    data = {"private_key": pair.private_key, "public_key": pair.public_key}
    text = (
        f"private key: {pair.private_key}\n"
        f"public key:  {pair.public_key}\n"
        "Keep the private key secret (sign with --signing-key-file); give the public key to recipients."
    )
    _emit(args, data, text)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from ._export import export
    from ._reader import Package

    target = _path(args.target, "--target")
    (key,) = _keys(args, 1)
    with Package(args.file, key) as pkg:
        report = export(pkg, target, overwrite=args.overwrite)
    _emit(
        args,
        report.to_json(),
        f"exported {report.files:,} files ({report.bytes:,} bytes) into {report.target}",
    )
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    from ._corpus import Corpus
    from ._reader import read_header

    if args.limit < 1:
        raise InputError("--limit must be at least 1")
    for f in args.files:  # a wrong path is reported before any key is asked for
        read_header(f)
    with Corpus(args.files, _keys(args, len(args.files))) as corpus:
        result = corpus.search(
            args.question, limit=args.limit, mode=args.mode, only=args.only, prefer=args.prefer
        )
    _emit(args, result.to_json(), _render.search_result(result))
    return 0


def cmd_calibrate(args: argparse.Namespace) -> int:
    from ._rewrite import calibrate

    (key,) = _keys(args, 1)
    header = calibrate(args.file, key, args.question, signing_key=_signing_key(args))
    c = header["calibration"]
    text = f"{args.file}: nothing-here-answers threshold now {c['answerable_at']:.0%} ({c['source']})"
    if "similarity_at" in c:
        reach = c["similarity_at"]
        text += "; by meaning " + ("not measured" if reach is None else f"from similarity {reach:.3f}")
    _emit(args, {"path": args.file, "calibration": c}, text)
    return 0


def cmd_shapes(args: argparse.Namespace) -> int:
    from ._rewrite import add_shapes

    (key,) = _keys(args, 1)
    header = add_shapes(args.file, key, signing_key=_signing_key(args))
    _emit(args, {"path": args.file, "features": header["features"]}, f"{args.file}: shape index added")
    return 0


def cmd_vocabulary(args: argparse.Namespace) -> int:
    from ._reader import Package
    from ._vocabulary import unfamiliar, vocabulary

    (key,) = _keys(args, 1)
    with Package(args.file, key) as pkg:
        vocab = vocabulary(pkg, limit=args.limit)
        asked = unfamiliar(pkg, args.unknown) if args.unknown else None
    data = vocab.to_json()
    if asked is not None:
        data["question"] = asked.to_json()
    _emit(args, data, _render.vocabulary(vocab, asked))
    return 0


def cmd_document(args: argparse.Namespace) -> int:
    from ._reader import Package

    (key,) = _keys(args, 1)
    with Package(args.file, key) as pkg:
        doc = pkg.document(args.name)
    sys.stdout.write(doc.text if doc.text.endswith("\n") else doc.text + "\n")
    return 0


def cmd_browse(args: argparse.Namespace) -> int:
    from ._browse import run

    return run(
        args.files,
        keys=args.key or (),
        key_file=args.key_file,
        host=args.host,
        port=args.port,
        open_browser=not args.no_open,
    )


def _emit(args: argparse.Namespace, data: dict, text: str) -> None:
    if getattr(args, "json", False):
        utf = (getattr(sys.stdout, "encoding", "") or "").lower().replace("-", "").startswith("utf")
        print(json.dumps(data, ensure_ascii=not utf, indent=2))
    else:
        print(text)


COMMANDS = {
    "pack": cmd_pack,
    "info": cmd_info,
    "verify": cmd_verify,
    "keygen": cmd_keygen,
    "export": cmd_export,
    "search": cmd_search,
    "document": cmd_document,
    "calibrate": cmd_calibrate,
    "shapes": cmd_shapes,
    "vocabulary": cmd_vocabulary,
    "browse": cmd_browse,
}


def _on_sigterm(signum: int, frame: object) -> None:
    # Unwind normally so writers remove their temporaries.
    raise SystemExit(128 + signum)


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a name the console cannot show must not stop us
        try:
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
        except (AttributeError, ValueError):
            pass
    args = parser().parse_args(argv)
    if threading_is_main():
        signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        return COMMANDS[args.command](args)
    except MdcxError as exc:
        _fail(str(exc))
        return EXIT_ERROR
    except KeyboardInterrupt:
        _fail("interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        except OSError:
            pass
        return EXIT_ERROR
    except OSError as exc:
        where = f": {exc.filename}" if getattr(exc, "filename", None) else ""
        _fail(f"{exc.strerror or exc}{where}")
        return EXIT_ERROR
    except Exception as exc:  # a bug: still one line, unless asked for more
        if os.environ.get("MDCX_DEBUG"):
            raise
        _fail(
            f"internal error ({type(exc).__name__}: {exc}); set MDCX_DEBUG=1 for details and please report it"
        )
        return EXIT_ERROR


def threading_is_main() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def _fail(message: str) -> None:
    first = message.strip().splitlines()[0] if message.strip() else "failed"
    try:
        print(f"mdcx: error: {first}", file=sys.stderr)
    except (OSError, UnicodeEncodeError):
        pass


if __name__ == "__main__":
    sys.exit(main())
