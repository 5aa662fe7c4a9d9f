"""mdcx.format: read, query and write ``.mdcx`` packages.

A package is one file holding a Markdown corpus cut into passages, its
lexical index and the provenance of every passage, encrypted with
AES-256-GCM block by block and optionally signed with Ed25519.  Its header
can be read without the key.

    >>> from mdcx.format import pack, Package, search
    >>> report = pack("notes_md/", "notes.mdcx", "passphrase")      # doctest: +SKIP
    >>> with Package("notes.mdcx", "passphrase") as pkg:             # doctest: +SKIP
    ...     result = search([pkg], "storage temperature")

Nothing heavy is imported here; engines other packages add are imported by
the functions that need them.
"""

from ._compression import Compression
from ._corpus import Corpus, PackageStatus, split_paths
from ._crypto import KdfParams, SigningKey
from ._errors import (
    CorruptPackage,
    DecryptionError,
    InputError,
    MdcxError,
    MissingDependency,
    NotAPackage,
    PassphraseError,
    QueryError,
    SignatureError,
    UnsupportedVersion,
)
from ._export import ExportReport, export
from ._inputs import CONVERSION_FOLDER, RUN_INDEX, Skipped, SourceDocument
from ._keys import keys_for, read_key_file
from ._pack_options import PackOptions
from ._passages import page_marker
from ._reader import (
    Document,
    DocumentInfo,
    Header,
    Package,
    body_intact,
    body_state,
    open_package,
    read_header,
)
from ._results import DocumentHit, PassageHit, SearchResult
from ._rewrite import add_shapes, calibrate
from ._search import display_text, search
from ._signing import KeyPair, Verification, generate_keypair, verify
from ._version import __version__
from ._vocabulary import Assessment, Unfamiliar, Vocabulary, assess, unfamiliar, unknown_terms, vocabulary
from ._writer import Contributor, PackageWriter, PackReport, pack

__all__ = [
    "CONVERSION_FOLDER",
    "RUN_INDEX",
    "Assessment",
    "Compression",
    "Contributor",
    "Corpus",
    "CorruptPackage",
    "DecryptionError",
    "Document",
    "DocumentHit",
    "DocumentInfo",
    "ExportReport",
    "Header",
    "InputError",
    "KdfParams",
    "KeyPair",
    "MdcxError",
    "MissingDependency",
    "NotAPackage",
    "PackOptions",
    "PackReport",
    "Package",
    "PackageStatus",
    "PackageWriter",
    "PassageHit",
    "PassphraseError",
    "QueryError",
    "SearchResult",
    "SignatureError",
    "SigningKey",
    "Skipped",
    "SourceDocument",
    "Unfamiliar",
    "UnsupportedVersion",
    "Verification",
    "Vocabulary",
    "__version__",
    "add_shapes",
    "assess",
    "body_intact",
    "body_state",
    "calibrate",
    "display_text",
    "export",
    "generate_keypair",
    "keys_for",
    "open_package",
    "pack",
    "page_marker",
    "read_header",
    "read_key_file",
    "search",
    "split_paths",
    "unfamiliar",
    "unknown_terms",
    "verify",
    "vocabulary",
]
