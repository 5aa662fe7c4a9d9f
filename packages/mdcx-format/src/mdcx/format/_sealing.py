"""Turning a finished plaintext database into the target package, atomically.

Shared by ``pack`` and by the commands that rewrite a package (``calibrate``,
``shapes``).  Temporary files live beside the target and carry the writer's
PID in their name, so the temporaries of a writer killed outright can be
recognised and removed by the next write into the same folder.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
from pathlib import Path

from . import _crypto
from ._compression import Compression
from ._container import LEGACY_MAGIC
from ._container_write import write_package
from ._errors import InputError

TEMP_MARK = ".mdcx-tmp"


def temporary(folder: Path, target: Path, suffix: str) -> Path:
    return folder / f".{target.name}{TEMP_MARK}.{os.getpid()}.{secrets.token_hex(4)}.{suffix}"


def refuse_to_replace(target: Path) -> None:
    """Only an earlier package (or an empty file) may be replaced: never a source or other file."""
    try:
        with open(target, "rb") as fh:
            start = fh.read(len(LEGACY_MAGIC))
    except FileNotFoundError:
        return
    except OSError as exc:
        raise InputError(f"cannot check the existing {target} ({exc.strerror or exc})") from None
    if start and start != LEGACY_MAGIC:
        raise InputError(
            f"{target} exists and is not an .mdcx package; pack will not replace it (choose another --target)"
        )


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def remove_stale_temporaries(folder: Path) -> None:
    """Temporaries of writers that were killed outright (their PID is gone)."""
    try:
        entries = list(folder.iterdir())
    except OSError:
        return
    for entry in entries:
        name = entry.name
        if not (name.startswith(".") and TEMP_MARK in name):
            continue
        try:
            pid = int(name.split(TEMP_MARK, 1)[1].split(".")[1])
        except (IndexError, ValueError):
            continue
        if pid != os.getpid() and not _pid_alive(pid):
            try:
                entry.unlink()
            except OSError:
                pass


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def seal(
    database: Path,
    target: Path,
    passphrase: str,
    header: dict,
    *,
    compression: Compression,
    kdf: _crypto.KdfParams,
    block_size: int | None = None,
    signing_key: _crypto.SigningKey | None = None,
    workers: int | None = None,
) -> dict:
    """Seal ``database`` under a fresh salt into a temporary, then rename it over ``target``."""
    folder = target.parent if str(target.parent) else Path(".")
    kdf = dataclasses.replace(kdf, salt=_crypto.new_salt())
    header = {**header, "kdf": kdf.to_json()}
    master = _crypto.derive_key(passphrase, kdf)
    sealed = temporary(folder, target, "seal")
    try:
        with open(sealed, "wb") as out:
            final = write_package(
                out,
                database,
                header,
                master,
                compression,
                block_size=block_size,
                signing_key=signing_key,
                workers=workers,
            )
            out.flush()
            os.fsync(out.fileno())
        os.replace(sealed, target)
    finally:
        try:
            sealed.unlink()
        except FileNotFoundError:
            pass
    _fsync_folder(folder)
    return final
