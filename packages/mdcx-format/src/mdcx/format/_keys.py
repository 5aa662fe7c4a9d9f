"""Where passphrases come from, for one package or several.

Order of precedence: keys given explicitly (``--key``, ``--key -`` for
standard input), a key file (``--key-file`` or ``MDCX_KEY_FILE``: one
passphrase per line, in package order; one line serves all), then
``MDCX_KEY``.  With several packages, ``MDCX_KEY`` is split on commas or the
path separator only when that gives exactly one key per package; a
passphrase that itself holds those characters belongs in a key file.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from ._errors import PassphraseError

MAX_KEY_FILE_BYTES = 1024 * 1024


def read_key_file(path: str | Path) -> list[str]:
    """Passphrases, one per line (line ends removed, nothing else)."""
    path = Path(path)
    try:
        with path.open("rb") as fh:  # bounded: a device such as /dev/zero never ends
            data = fh.read(MAX_KEY_FILE_BYTES + 1)
    except FileNotFoundError:
        raise PassphraseError(f"the key file {path} does not exist") from None
    except OSError as exc:
        raise PassphraseError(f"the key file {path} cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_KEY_FILE_BYTES:
        raise PassphraseError(
            f"the key file {path} is larger than {MAX_KEY_FILE_BYTES // 1024} KB; it should hold "
            "only passphrases, one per line"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise PassphraseError(f"the key file {path} is not UTF-8 text") from None
    lines = text.splitlines()
    while lines and lines[-1] == "":
        lines.pop()
    if not lines or any(line == "" for line in lines):
        raise PassphraseError(
            f"the key file {path} is empty or has an empty line; put one passphrase per line"
        )
    return lines


def read_stdin_keys() -> list[str]:
    data = sys.stdin.read()
    lines = data.splitlines()
    while lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise PassphraseError("no passphrase arrived on standard input")
    return lines


def _spread(keys: list[str], count: int, where: str) -> list[str]:
    if len(keys) == 1:
        return keys * count
    if len(keys) == count:
        return keys
    raise PassphraseError(
        f"{where} gives {len(keys)} passphrases for {count} packages; give one, or one per package"
    )


def keys_for(
    count: int,
    *,
    keys: Sequence[str] = (),
    key_file: str | Path | None = None,
    env: Mapping[str, str] | None = None,
) -> list[str]:
    """One passphrase per package, from the first source that has any."""
    env = os.environ if env is None else env
    if keys:
        expanded: list[str] = []
        for key in keys:
            expanded.extend(read_stdin_keys() if key == "-" else [key])
        if any(k == "" for k in expanded):
            raise PassphraseError("an empty passphrase was given; passphrases cannot be empty")
        return _spread(expanded, count, "--key")
    if key_file is not None:
        return _spread(read_key_file(key_file), count, f"the key file {key_file}")
    if env.get("MDCX_KEY_FILE"):
        return _spread(read_key_file(env["MDCX_KEY_FILE"]), count, "MDCX_KEY_FILE")
    value = env.get("MDCX_KEY")
    if value:
        if count > 1:
            parts = re.split(f"[,{re.escape(os.pathsep)}]", value)
            if len(parts) == count and all(parts):
                return parts
        return [value] * count
    raise PassphraseError(
        "no passphrase given: use --key-file FILE, --key - (standard input), MDCX_KEY or MDCX_KEY_FILE"
    )
