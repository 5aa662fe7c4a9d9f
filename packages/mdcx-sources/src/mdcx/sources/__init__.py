"""mdcx.sources: the catalogue plugin contract and the kit every plugin shares.

mdcx fetches nothing itself.  A catalogue is a plugin declared in the
entry-point group ``mdcx.sources``; it yields ``Candidate`` records and
fetches their bytes.  The kit::

    >>> from mdcx.sources import looks_like, identify, patiently, conforms
    >>> identify(b"%PDF-1.7 ...")
    'pdf'
    >>> looks_like(b"<!doctype html><html>...", "html")
    True

``patiently(call)`` retries a call that raises ``RateLimited``, honouring
``Retry-After``; ``conforms(source)`` checks a source against the contract
(``python -m mdcx.sources --check NAME`` from the shell).  Standard library
only.
"""

from importlib.metadata import PackageNotFoundError, version

from ._conformance import Conformance, Fetched, conforms
from ._contract import GROUP, Candidate, Source
from ._errors import FetchError, PluginError, RateLimited, SourceError
from ._patience import patiently, retry_after_seconds
from ._plugins import Failure, Plugin, load, load_all, plugins
from ._signatures import KINDS, identify, looks_like

try:
    __version__ = version("mdcx-sources")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = [
    "GROUP",
    "KINDS",
    "Candidate",
    "Conformance",
    "Failure",
    "FetchError",
    "Fetched",
    "Plugin",
    "PluginError",
    "RateLimited",
    "Source",
    "SourceError",
    "__version__",
    "conforms",
    "identify",
    "load",
    "load_all",
    "looks_like",
    "patiently",
    "plugins",
    "retry_after_seconds",
]
