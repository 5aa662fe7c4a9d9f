"""mdcx.convert: documents (PDF, Office, EPUB, HTML, ...) to verified Markdown.

Not implemented yet: this distribution holds its place in the workspace so the
layout is final.  Conversion engines will be imported inside the functions that
use them, never here.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("mdcx-convert")
except PackageNotFoundError:
    __version__ = "0+unknown"
