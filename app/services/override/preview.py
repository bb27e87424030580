"""What an override shows and leaves: old and new side by side (the preview, with the later
phases replayed) and the committed override."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.services.override.changes import AppliedRuling, OverrideChanges
from app.services.override.diff import OrderDiff, PositionDiff, UnfitOrder

__all__ = ["OverrideCommitted", "OverridePreview", "ReplayedPhase"]


@dataclass(frozen=True)
class ReplayedPhase:
    """A later phase replayed from its stored orders."""

    phase: str
    orders: tuple[OrderDiff, ...]
    position: PositionDiff
    unfit: tuple[UnfitOrder, ...]

    @property
    def changed_orders(self) -> tuple[OrderDiff, ...]:
        return tuple(d for d in self.orders if d.changed)


@dataclass(frozen=True)
class OverridePreview:
    """Old and new side by side: every order of the phase, the position it leaves, the replay."""

    game: str
    phase: str
    changes: OverrideChanges
    rulings: tuple[AppliedRuling, ...]
    orders: tuple[OrderDiff, ...]
    position: PositionDiff
    replayed: tuple[ReplayedPhase, ...]
    dropped_phases: tuple[str, ...]
    current_phase_old: str | None  # None: the game was over
    current_phase_new: str | None  # None: the game is over
    current_position: PositionDiff
    unfit: tuple[UnfitOrder, ...]  # orders that no longer fit, in the replayed and the open phase
    notes: tuple[str, ...]  # why the game does not stay at the same phase, and the like
    current_state: dict[str, Any] | None = None  # the position now: the open phase's start, or the last one's end

    @property
    def same_current_phase(self) -> bool:
        return self.current_phase_old == self.current_phase_new

    @property
    def changed_orders(self) -> tuple[OrderDiff, ...]:
        return tuple(d for d in self.orders if d.changed)


@dataclass(frozen=True)
class OverrideCommitted:
    preview: OverridePreview
    reason: str
    audit_id: int
    mails: int  # correction mails queued
