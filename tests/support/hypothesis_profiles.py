"""Hypothesis profiles, chosen by the environment variable HYPOTHESIS_PROFILE (tests/conftest.py
loads the profile):

- ``ci`` (the default, what `make test` runs): a fifth of each property test's examples;
- ``thorough``: every property test's full number of examples, for a change to the engine, the
  mail parser or the DoD III rules (``HYPOTHESIS_PROFILE=thorough .venv/bin/python -m pytest ...``).

A property test names its thorough number: ``@settings(max_examples=examples(250))``.
"""

from __future__ import annotations

import os

__all__ = ["CI_SHARE", "examples", "load", "profile"]

CI_SHARE = 5  # the ci profile runs 1/CI_SHARE of a test's thorough examples (at least 10)
_PROFILES = ("ci", "thorough")


def profile() -> str:
    name = os.environ.get("HYPOTHESIS_PROFILE", "ci")
    if name not in _PROFILES:
        raise ValueError(f"HYPOTHESIS_PROFILE={name!r}: the profiles are {', '.join(_PROFILES)}")
    return name


def examples(thorough: int) -> int:
    """How many examples a property test runs: ``thorough`` in the thorough profile, a fifth
    (at least 10) in ci."""
    return thorough if profile() == "thorough" else max(10, thorough // CI_SHARE)


def load() -> None:
    try:
        from hypothesis import settings
    except ImportError:  # a dev dependency; the tests that use it import it themselves
        return
    # Tests that name no number run the thorough profile's (Hypothesis' default of 100).
    settings.register_profile("thorough", max_examples=100, deadline=None)
    settings.register_profile("ci", max_examples=examples(100), deadline=None, print_blob=True)
    settings.load_profile(profile())
