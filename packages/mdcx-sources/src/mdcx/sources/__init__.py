"""mdcx.sources: the catalogue plugin contract and the kit every plugin shares.

Not implemented yet: this distribution holds its place in the workspace so the
layout is final.  It depends on the standard library only.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("mdcx-sources")
except PackageNotFoundError:
    __version__ = "0+unknown"
