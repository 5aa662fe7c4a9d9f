"""mdcx.embed: dense multilingual retrieval for mdcx packages.

Not implemented yet: this distribution holds its place in the workspace so the
layout is final.  ``import mdcx.embed`` will never import torch.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("mdcx-embed")
except PackageNotFoundError:
    __version__ = "0+unknown"
