"""``python -m mdcx.format`` is the ``mdcx`` command."""

import sys

from ._cli import main

sys.exit(main())
