"""mdcx.convert: documents (PDF, Office, EPUB, HTML, ...) to verified Markdown.

    >>> from mdcx.convert import convert, ConvertOptions
    >>> report = convert("documents/", "markdown/", ConvertOptions())   # doctest: +SKIP
    >>> report.summary["coverage"]                                       # doctest: +SKIP

Nothing heavy is imported here: pypdfium2, the Office readers, RapidOCR and
docling are imported by the functions that use them.
"""

from importlib.metadata import PackageNotFoundError, version

from ._detect import FORMATS, Detected, detect
from ._errors import ConversionError, DocumentError, MissingDependency
from ._options import ConvertOptions
from ._resident import Converter, DocumentResult
from ._run import DocumentReport, Progress, RunReport, convert
from ._sourced import convert_source

try:
    __version__ = version("mdcx-convert")
except PackageNotFoundError:
    __version__ = "0+unknown"

__all__ = [
    "FORMATS",
    "ConversionError",
    "ConvertOptions",
    "Converter",
    "Detected",
    "DocumentError",
    "DocumentReport",
    "DocumentResult",
    "MissingDependency",
    "Progress",
    "RunReport",
    "__version__",
    "convert",
    "convert_source",
    "detect",
]
