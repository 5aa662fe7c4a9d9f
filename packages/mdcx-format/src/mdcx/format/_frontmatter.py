"""YAML front matter: split it off verbatim, read it safely.

The raw block is kept byte for byte (export must reproduce the file); the
parsed mapping feeds titles, dates, pages and ``indexed: false``.  Parsing
refuses YAML aliases, so a crafted "billion laughs" block cannot expand when
the mapping is stored as JSON.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field
from typing import Any

import yaml

_OPEN = re.compile(r"\A(\ufeff?)---[ \t]*\r?\n")
_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.M)
MAX_FRONT_MATTER = 256 * 1024


_FastLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _NoAliasLoader(yaml.SafeLoader):
    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.get_event()
            raise yaml.constructor.ConstructorError(
                None, None, "aliases are not allowed in mdcx front matter", event.start_mark
            )
        return super().compose_node(parent, index)


@dataclass(frozen=True)
class FrontMatter:
    raw: str  # the block as written, delimiters included ("" when absent)
    data: dict[str, Any] = field(default_factory=dict)
    problem: str | None = None  # why ``data`` is empty although ``raw`` is not


def _plain(value: Any) -> Any:
    """YAML scalars that JSON cannot hold (dates) become ISO strings."""
    if isinstance(value, _dt.datetime | _dt.date):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, float) and value != value:  # NaN does not survive JSON
        return None
    return value


def split_front_matter(text: str) -> tuple[FrontMatter, str]:
    """``(front matter, body)`` with ``raw + body == text`` exactly."""
    opening = _OPEN.match(text)
    if not opening:
        return FrontMatter(""), text
    closing = _CLOSE.search(text, opening.end())
    if closing is None:
        return FrontMatter(""), text
    raw, body = text[: closing.end()], text[closing.end() :]
    inner = text[opening.end() : closing.start()]
    if len(inner) > MAX_FRONT_MATTER:
        return FrontMatter(raw, {}, "front matter larger than 256 KiB; ignored"), body
    try:
        # An alias needs an anchor (``&``); only then pay for the pure-Python
        # loader that refuses aliases.  Both loaders are safe loaders.
        loader = _NoAliasLoader if "&" in inner else _FastLoader
        data = yaml.load(inner, Loader=loader)
    except (yaml.YAMLError, RecursionError, ValueError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return FrontMatter(raw, {}, f"front matter is not valid YAML ({reason}); ignored"), body
    if data is None:
        return FrontMatter(raw, {}), body
    if not isinstance(data, dict):
        return FrontMatter(raw, {}, "front matter is not a mapping; ignored"), body
    return FrontMatter(raw, _plain(data)), body
