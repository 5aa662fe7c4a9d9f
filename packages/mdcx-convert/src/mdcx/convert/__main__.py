"""``python -m mdcx.convert``: the same as the ``mdcx-convert`` command."""

import sys

from ._cli import main

if __name__ == "__main__":
    sys.exit(main())
