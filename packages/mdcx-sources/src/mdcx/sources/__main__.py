"""``python -m mdcx.sources``."""

import sys

from ._cli import main

sys.exit(main())
