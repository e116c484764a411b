"""Fixtures of the unit tests: real Python environments with fake installed packages."""

from fake_env import installed_env  # noqa: F401  (the session fixture)
