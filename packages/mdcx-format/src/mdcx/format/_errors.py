"""The one error tree of mdcx.

Every failure a user can cause (a wrong key, a damaged file, bad input) is an
``MdcxError`` whose message says what happened and what to do.  Third-party
exceptions are translated at the boundary of the module that called them, so
callers never have to know which engine sits underneath.
"""

from __future__ import annotations


class MdcxError(Exception):
    """Root of every error mdcx raises on purpose."""


class NotAPackage(MdcxError):
    """The file is not an .mdcx package of any kind this reader knows."""


class UnsupportedVersion(MdcxError):
    """The package was written in a format version this reader does not know."""


class DecryptionError(MdcxError):
    """Authentication failed.

    Deliberately opaque: it never says whether the key or the data was wrong,
    because telling them apart would help someone guessing keys.
    """


class CorruptPackage(MdcxError):
    """The package is damaged, truncated or was altered after it was written."""


class SignatureError(MdcxError):
    """A signature or signing key is missing, malformed, or does not match."""


class PassphraseError(MdcxError):
    """A passphrase was missing, empty or unreadable."""


class InputError(MdcxError):
    """Material given to pack, export or search cannot be used as given."""


class QueryError(MdcxError):
    """A question cannot be asked as given (for example it is empty)."""


class MissingDependency(MdcxError):
    """An optional engine is not installed; the message names what to install."""
