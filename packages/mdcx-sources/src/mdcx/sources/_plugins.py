"""Finding and loading source plugins through the ``mdcx.sources`` entry points.

A plugin is any installed distribution declaring, in its pyproject::

    [project.entry-points."mdcx.sources"]
    oapen = "my_package.oapen:Catalogue"

A plugin that cannot be imported, or does not load into a source, is
reported with its reason and skipped: one broken plugin never stops the
others from being listed or used.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points

from ._contract import GROUP, Source
from ._errors import PluginError


@dataclass(frozen=True)
class Plugin:
    """An installed entry point of the group, not yet loaded."""

    name: str
    value: str  # "module:attribute"
    distribution: str | None  # the distribution that declares it, when known


@dataclass(frozen=True)
class Failure:
    """A plugin that did not load, and why."""

    name: str
    reason: str


def _entry_points() -> dict[str, list[EntryPoint]]:
    found: dict[str, list[EntryPoint]] = {}
    for ep in entry_points(group=GROUP):
        same = found.setdefault(ep.name, [])
        if all(other.value != ep.value for other in same):  # one distribution seen twice on sys.path
            same.append(ep)
    return found


def _distribution(ep: EntryPoint) -> str | None:
    dist = getattr(ep, "dist", None)
    return dist.metadata["Name"] if dist is not None else None


def plugins() -> tuple[Plugin, ...]:
    """Every installed source plugin, by name."""
    return tuple(
        Plugin(name, ep.value, _distribution(ep))
        for name, eps in sorted(_entry_points().items())
        for ep in eps
    )


def _as_source(obj: object, name: str) -> Source:
    # A class (the usual declaration) is instantiated; a module or an object
    # that already has the two methods is used as it is.
    if isinstance(obj, type):
        try:
            obj = obj()
        except Exception as exc:
            raise PluginError(
                f"source {name!r}: {obj.__name__}() failed ({type(exc).__name__}: {exc})"
            ) from exc
    missing = [m for m in ("candidates", "fetch") if not callable(getattr(obj, m, None))]
    if missing:
        raise PluginError(f"source {name!r} is not a source: it has no {' and no '.join(missing)}() method")
    return obj  # type: ignore[return-value]


def load(name: str) -> Source:
    """The source installed under ``name``, ready to use.

    Raises ``PluginError`` when no plugin has that name (naming those that
    do exist), when two distributions claim it, or when it fails to load.
    """
    found = _entry_points()
    eps = found.get(name)
    if not eps:
        known = ", ".join(sorted(found)) or "none"
        raise PluginError(f"no source named {name!r} is installed (installed: {known})")
    if len(eps) > 1:
        claims = "; ".join(f"{ep.value} ({_distribution(ep) or 'unknown distribution'})" for ep in eps)
        raise PluginError(f"two plugins claim the source name {name!r}: {claims}; uninstall one")
    ep = eps[0]
    try:
        obj = ep.load()
    except Exception as exc:  # an import error, or a bug at the plugin's import time
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        raise PluginError(
            f"source {name!r} ({ep.value}) failed to load: {type(exc).__name__}"
            + (f": {first}" if first else "")
        ) from exc
    return _as_source(obj, name)


def load_all() -> tuple[dict[str, Source], tuple[Failure, ...]]:
    """Every installed source that loads, and the ones that did not with their reasons."""
    loaded: dict[str, Source] = {}
    failed: list[Failure] = []
    for name in sorted(_entry_points()):
        try:
            loaded[name] = load(name)
        except PluginError as exc:
            failed.append(Failure(name, str(exc)))
    return loaded, tuple(failed)
