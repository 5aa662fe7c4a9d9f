"""The server's configuration, read from the environment and nowhere else.

The passphrase never travels on the command line, where other users of the
machine could read it in the process table: ``MDCX_KEY`` or ``MDCX_KEY_FILE``
carry it, with the precedence and splitting rules of
``mdcx.format.keys_for``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from mdcx.format import InputError, keys_for, split_paths

DEFAULT_IDLE_MINUTES = 30.0


class ConfigError(InputError):
    """The environment does not describe a server that can start."""


@dataclass(frozen=True)
class Config:
    """Which packages to serve, their passphrases, and when to unload what idles.

    ``idle_minutes`` is 0 for never; fractions are allowed (0.05 is three seconds).
    """

    paths: tuple[str, ...]
    keys: tuple[str, ...] = field(repr=False)
    idle_minutes: float = DEFAULT_IDLE_MINUTES

    @property
    def idle_seconds(self) -> float:
        return self.idle_minutes * 60.0


def _idle_minutes(value: str | None) -> float:
    if value is None or not value.strip():
        return DEFAULT_IDLE_MINUTES
    try:
        minutes = float(value)
    except ValueError:
        minutes = math.nan
    if not math.isfinite(minutes) or minutes < 0:
        raise ConfigError(
            f"MDCX_IDLE_UNLOAD_MINUTES must be a number of minutes, 0 or more (0 = never), not {value!r}"
        )
    return minutes


def read_config(env: Mapping[str, str] | None = None) -> Config:
    """The configuration in ``env`` (default: this process's environment).

    Raises ``ConfigError`` (or ``PassphraseError`` for the key file) with a
    one-line message; nothing here opens a package.
    """
    env = os.environ if env is None else env
    paths = split_paths(env.get("MDCX_FILE", ""))
    if not paths:
        raise ConfigError(
            "MDCX_FILE is not set: give the .mdcx package to serve, or several separated by "
            f"commas or {os.pathsep!r}"
        )
    idle = _idle_minutes(env.get("MDCX_IDLE_UNLOAD_MINUTES"))
    if not env.get("MDCX_KEY_FILE") and not env.get("MDCX_KEY"):
        raise ConfigError(
            "no passphrase: set MDCX_KEY_FILE to a file holding it (one line per package, or one for all) "
            "or MDCX_KEY"
        )
    keys = keys_for(len(paths), env=env)
    return Config(tuple(paths), tuple(keys), idle)
