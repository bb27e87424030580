"""What every use case needs: settings, sessions, the engine API, a clock and the templates."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from types import ModuleType
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from app import jsonapi
from app.db.base import utcnow
from app.services.health import LoopHealth
from app.services.render import Templates
from app.settings import Settings

__all__ = ["Judge", "load_engine_api"]


def load_engine_api() -> ModuleType:
    """The engine as the server sees it (app/jsonapi.py)."""
    return jsonapi


@dataclass
class Judge:
    """The service container handed to every use case."""

    settings: Settings
    sessions: sessionmaker[Session]
    api: Any = field(default_factory=load_engine_api)
    clock: Callable[[], datetime] = utcnow
    templates: Templates = field(default_factory=Templates)
    crash: Callable[[str], None] = lambda point: None
    health: LoopHealth = field(default_factory=LoopHealth)  # the loops' last good rounds (``/healthz``)

    variants: dict[str, dict[str, Any]] = field(default_factory=dict)

    def now(self) -> datetime:
        return self.clock()

    def variant_data(self, name: str) -> dict[str, Any]:
        """Powers and province names of a variant (cached: variant data never changes)."""
        if name not in self.variants:
            from app.services.rulesets import ruleset_for  # rulesets -> turns -> this module: imported on use

            self.variants[name] = ruleset_for(name).variant_info(name, self)
        return self.variants[name]
