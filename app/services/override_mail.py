"""The correction notice every player and the GM get when a processed phase is overridden."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from app.db.models import Game
from app.services.context import Judge
from app.services.notify import mail_game
from app.services.override_diff import OrderDiff, OrderOutcome, PositionDiff
from app.services.phases import PhaseName
from app.services.powers import PowerBook

if TYPE_CHECKING:  # the preview type lives with the use case, which imports this module
    from app.services.override import OverridePreview

__all__ = ["CorrectionView", "correction_view", "queue_correction"]


@dataclass(frozen=True)
class CorrectionView:
    game: str
    phase: str
    phase_title: str
    reason: str
    changes: tuple[str, ...]
    orders: tuple[str, ...]
    position: tuple[str, ...]
    replayed: tuple[str, ...]
    unfit: tuple[str, ...]
    notes: tuple[str, ...]
    current: str


def _outcome(outcome: OrderOutcome | None) -> str:
    if outcome is None:
        return "no order"
    why = f", {outcome.reason.replace('_', ' ')}" if outcome.reason not in ("", "ok") else ""
    return f"{outcome.order} ({outcome.result}{why})"


def _order_lines(diffs: Sequence[OrderDiff], book: PowerBook) -> list[str]:
    return [f"{book.name(d.power)}: was {_outcome(d.old)}; now {_outcome(d.new)}." for d in diffs if d.changed]


def _position_lines(diff: PositionDiff, book: PowerBook) -> list[str]:
    lines: list[str] = []
    for power in diff.changed_powers:
        parts = []
        for label, items in (("loses", power.units_removed), ("gains", power.units_added),
                             ("loses the centre", power.centres_lost), ("gains the centre", power.centres_gained)):
            if items:
                parts.append(f"{label} {', '.join(items)}")
        if power.dislodged_old != power.dislodged_new:
            parts.append(f"dislodged now: {', '.join(power.dislodged_new) or 'none'}")
        lines.append(f"{book.name(power.power)} {'; '.join(parts)}.")
    if diff.phase_old != diff.phase_new:
        lines.append(f"The next phase is {diff.phase_new or 'none (the game is over)'}, "
                     f"not {diff.phase_old or 'none'}.")
    return lines


def correction_view(game: Game, preview: OverridePreview, reason: str, book: PowerBook) -> CorrectionView:
    changes = [f"{book.name(c.power)}'s orders are now: {'; '.join(c.orders) or 'none'}." for c in preview.changes.orders]
    changes += [f"Rule {c.option} = {c.value if c.value is not None else 'the variant default'}."
                for c in preview.changes.rules]
    changes += [f"Ruling: {r.unit} ({book.name(r.power)}) {r.ruling.value}"
                + (f" (its order was {r.original})." if r.original else ".") for r in preview.rulings]
    replayed = [f"{r.phase}: {len(r.changed_orders)} order result(s) changed." for r in preview.replayed]
    replayed += [f"{code}: no longer played." for code in preview.dropped_phases]
    unfit = [f"{u.phase} {book.name(u.power)}: {u.order} -- {u.why}" for u in preview.unfit]
    if preview.current_phase_new is None:
        current = "The game is over."
    elif preview.same_current_phase:
        current = f"The game stays at {preview.current_phase_new}; orders already given for it still count."
    else:
        current = f"The game now continues with {preview.current_phase_new}."
    return CorrectionView(
        game=game.name, phase=preview.phase, phase_title=PhaseName(preview.phase).results_title.rstrip("."),
        reason=reason, changes=tuple(changes), orders=tuple(_order_lines(preview.orders, book)),
        position=tuple(_position_lines(preview.position, book)), replayed=tuple(replayed), unfit=tuple(unfit),
        notes=preview.notes, current=current,
    )


def queue_correction(db: Session, judge: Judge, game: Game, preview: OverridePreview, reason: str) -> int:
    """Render the notice and queue it to every player, observer and the GM; the number of mails."""
    view = correction_view(game, preview, reason, PowerBook(judge.variant_data(game.variant)))
    text = judge.templates.render("mail/judge/correction.txt.j2", v=view)
    return mail_game(db, judge, game, f"Diplomacy correction {game.name} {preview.phase}", text, kind="correction")
