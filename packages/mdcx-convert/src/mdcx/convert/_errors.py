"""Errors of mdcx-convert, rooted in mdcx.format's one error tree."""

from __future__ import annotations

from mdcx.format import MdcxError, MissingDependency

__all__ = ["ConversionError", "DocumentError", "MissingDependency"]


class ConversionError(MdcxError):
    """A run cannot start or go on as asked (bad options, missing input, absent model)."""


class DocumentError(ConversionError):
    """One document cannot be converted; the run records the reason and goes on."""
