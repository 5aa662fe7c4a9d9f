"""Portable paths: how a document is named inside a package.

Every document is ``@/`` followed by its path relative to the collection
root, with ``/`` separators.  No absolute path is ever stored, and a name that
could climb out of a folder (``..``, a drive, an absolute path) is refused
both when packing and when exporting.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from ._errors import InputError

PREFIX = "@/"
_DRIVE = re.compile(r"^[A-Za-z]:")
_FORBIDDEN = re.compile(r"[\x00-\x1f]")


def check_relative(relative: str) -> str:
    """Validate a collection-relative path (``a/b.md``) and return it in ``/`` form."""
    if not isinstance(relative, str) or not relative:
        raise InputError("the document path is empty")
    rel = relative.replace("\\", "/")
    if rel.startswith(PREFIX):
        rel = rel[len(PREFIX) :]
    if rel.startswith("/") or _DRIVE.match(rel):
        raise InputError(f"the document path {relative!r} is absolute; give a path inside the collection")
    if _FORBIDDEN.search(rel):
        raise InputError(f"the document path {relative!r} contains control characters")
    parts = rel.split("/")
    if any(part in ("", ".", "..") for part in parts):
        raise InputError(f"the document path {relative!r} leaves the collection or has empty parts")
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(f"the document path {relative!r} is not valid Unicode") from None
    return rel


def portable(relative: str) -> str:
    return PREFIX + check_relative(relative)


def relative_of(portable_path: str) -> str:
    return check_relative(portable_path)


def top_folder(portable_path: str) -> str | None:
    parts = PurePosixPath(relative_of(portable_path)).parts
    return parts[0] if len(parts) > 1 else None


def direction_of(portable_path: str) -> str | None:
    """Correspondence: ``received`` or ``sent`` only from a top-level folder named exactly so."""
    top = top_folder(portable_path)
    return top if top in ("received", "sent") else None


def shown_name(name: str, width: int = 80) -> str:
    """A document name for a message: quoted, and cut if very long."""
    return repr(name) if len(name) <= width else repr(name[:width]) + f"... ({len(name):,} characters)"
