"""What every use case needs: settings, sessions, a clock, the templates and the loops' health."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from app.db.base import utcnow
from app.services.kernel.health import LoopHealth
from app.services.kernel.render import Templates
from app.services.ruleset import variant_data as variants
from app.settings import Settings

__all__ = ["Judge"]


@dataclass
class Judge:
    """The service container handed to every use case.  The engine is reached through
    ``app.services.ruleset.engine`` (typed), never through the judge."""

    settings: Settings
    sessions: sessionmaker[Session]
    clock: Callable[[], datetime] = utcnow
    templates: Templates = field(default_factory=Templates)
    crash: Callable[[str], None] = lambda point: None
    health: LoopHealth = field(default_factory=LoopHealth)  # the loops' last good rounds (``/healthz``)

    def now(self) -> datetime:
        return self.clock()

    def variant_data(self, name: str) -> dict[str, Any]:
        """Powers and province names of a variant (``app.services.ruleset.variant_data``: cached)."""
        return variants.variant_data(name)
