"""Injected crash points for the fault tests: JUDGE_CRASH_AT=name[@n] kills the process there."""

from __future__ import annotations

import os

__all__ = ["CrashPoints"]


class CrashPoints:
    """Call ``hit(name)`` at interesting places; the process dies at the configured one."""

    def __init__(self, spec: str | None = None) -> None:
        spec = spec if spec is not None else os.environ.get("JUDGE_CRASH_AT", "")
        name, _, count = spec.partition("@")
        self.name = name
        self.remaining = int(count) if count else 1
        self.seen: list[str] = []

    def __call__(self, point: str) -> None:
        if not self.name or point != self.name:
            return
        self.remaining -= 1
        if self.remaining <= 0:
            os._exit(77)
