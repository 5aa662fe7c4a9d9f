"""Real packages for the browse page's tests: pages, a table, right-to-left text, hostile text."""

from __future__ import annotations

from pathlib import Path

from mdcx.format import PackOptions, pack

from helpers.format import FAST_KDF, write

KEY = "browse test passphrase"
OTHER_KEY = "the second package's own passphrase"

LIGHTHOUSES = """---
title: Lighthouse keeping
date: 2021-05-03
---
<!-- page: 1 -->
# Lighthouse keeping

A keeper trims the wick, winds the clockwork and keeps a log of the weather.
The lamp room is swept every morning.

<!-- page: 2 -->
## The lens

The Fresnel lens gathers the lamp's light into a beam. Its brass frame is
polished weekly and its glass prisms are washed with alcohol.

<!-- page: 3 -->
## Fog

When fog rolls in the keeper starts the diaphone, whose groan carries
eleven nautical miles across the water.
"""

TABLE = """---
title: Spare parts
---
# Spare parts

Parts kept in the store room, counted each quarter.

| Part | Count | Shelf |
|:-----|------:|:-----:|
| gasket | 12 | A3 |
| flywheel | 2 | C1 |
| sprocket | 40 | B2 |
"""

HEBREW = """---
title: מגדלור
---
# מגדלור

המגדלור עומד על הצוק ומאיר את הדרך לספינות בלילה. השומר מדליק את המנורה בכל ערב.
"""

HOSTILE = """---
title: <script>window.pwned = 'title'</script>
---
# Hostile <img src=x onerror="window.pwned='img'">

<script>window.pwned = 'script'</script>

A paragraph about the zebrafish with [a link](javascript:window.pwned='link') and
<svg onload="window.pwned='svg'"></svg> and `</code><script>window.pwned='code'</script>`.

| zebrafish | <b onclick="window.pwned='cell'">bold</b> |
|---|---|
| <iframe src="javascript:window.pwned='frame'"></iframe> | x |
"""


def collection(root: Path) -> Path:
    """The first package's folder."""
    src = root / "main"
    write(src, "guides/lighthouse.md", LIGHTHOUSES)
    write(src, "store/parts.md", TABLE)
    write(src, "hebrew/migdalor.md", HEBREW)
    write(src, "odd/hostile.md", HOSTILE)
    write(src, "received/2020-letter.md", "Dear keeper, the diaphone parts were shipped on Monday.\n")
    write(src, "sent/2020-reply.md", "Thank you, the diaphone parts arrived in good order.\n")
    write(
        src,
        "appendix/coordinates.md",
        "---\nindexed: false\ntitle: Coordinates\n---\n| station | lat |\n|---|---|\n| North Head | 51.2 |\n",
    )
    return src


def build(root: Path) -> tuple[Path, Path]:
    """Two packages with different passphrases: ``main.mdcx`` (KEY) and ``other.mdcx`` (OTHER_KEY)."""
    main = root / "main.mdcx"
    pack(collection(root), main, KEY, PackOptions(kdf=FAST_KDF, issuer="Harbour Office"))
    other_src = root / "other"
    write(
        other_src,
        "logs/keeper-log.md",
        "# Keeper's log\n\nThe diaphone was serviced and its reed replaced.\n",
    )
    other = root / "other.mdcx"
    pack(other_src, other, OTHER_KEY, PackOptions(kdf=FAST_KDF))
    return main, other
