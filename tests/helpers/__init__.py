"""Helpers shared by the tests (importable because pytest puts ``tests/`` on the path)."""
