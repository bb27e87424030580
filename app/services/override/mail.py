"""The correction notice every player and the GM get when a processed phase is overridden."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.db.models import Game
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.notify import mail_game
from app.services.override.diff import OrderDiff, OrderOutcome, PositionDiff
from app.services.override.preview import OverridePreview
from app.services.results.maps import phase_map
from app.services.ruleset.phases import PhaseName
from app.services.ruleset.powers import PowerBook
from app.services.ruleset.stored import StoredState, stored_state

__all__ = ["CorrectionView", "LaterPhase", "correction_view", "queue_correction", "render_correction"]


@dataclass(frozen=True)
class LaterPhase:
    """A later phase replayed: each of its orders whose result changed (none: the same results)."""

    phase: str
    orders: tuple[str, ...]
    dropped: bool = False


@dataclass(frozen=True)
class CorrectionView:
    game: str
    phase: str
    phase_title: str
    reason: str
    changes: tuple[str, ...]
    orders: tuple[str, ...]
    position: tuple[str, ...]
    replayed: tuple[LaterPhase, ...]
    unfit: tuple[str, ...]
    notes: tuple[str, ...]
    current: str
    corrected_results: str  # the phase's results as they now read, in full
    position_phase: str  # the phase the position now is the start of (or the last one played)
    position_now: tuple[str, ...]  # every power's units and centres now
    has_map: bool = False


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


def _position_now(state: StoredState | None, book: PowerBook) -> list[str]:
    """Each power with its units and its centres, as the position stands now."""
    if state is None:
        return []
    lines = []
    for power in sorted(set(state.units) | set(state.centres)):
        mine, owned = sorted(state.units_of(power)), sorted(c.upper() for c in state.centres_of(power))
        if not mine and not owned:
            continue
        lines.append(f"{book.name(power).rstrip('.')}: {len(owned)} centre(s) {', '.join(owned) or '-'}; "
                     f"{len(mine)} unit(s) {', '.join(mine) or '-'}.")
    return lines


def correction_view(game: Game, preview: OverridePreview, reason: str, book: PowerBook,
                    corrected_results: str = "", has_map: bool = False) -> CorrectionView:
    changes = [f"{book.name(c.power)}'s orders are now: {'; '.join(c.orders) or 'none'}." for c in preview.changes.orders]
    changes += [f"In {entry.phase.upper()}, {book.name(c.power)}'s orders are now: {'; '.join(c.orders) or 'none'}."
                for entry in preview.changes.later for c in entry.orders]
    changes += [f"Rule {c.option} = {c.value if c.value is not None else 'the variant default'}."
                for c in preview.changes.rules]
    changes += [f"Ruling: {r.unit} ({book.name(r.power)}) {r.ruling.value}"
                + (f" (its order was {r.original})." if r.original else ".") for r in preview.rulings]
    replayed = [LaterPhase(r.phase, tuple(_order_lines(r.orders, book))) for r in preview.replayed]
    replayed += [LaterPhase(code, (), dropped=True) for code in preview.dropped_phases]
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
        notes=preview.notes, current=current, corrected_results=corrected_results.rstrip(),
        position_phase=preview.current_phase_new or (preview.replayed[-1].phase if preview.replayed else preview.phase),
        position_now=tuple(_position_now(stored_state(preview.current_state) if preview.current_state else None, book)),
        has_map=has_map,
    )


def render_correction(judge: Judge, game: Game, preview: OverridePreview, reason: str, corrected_results: str,
                      has_map: bool) -> str:
    """The correction notice's text (kept in the audit as mailed)."""
    view = correction_view(game, preview, reason, PowerBook(judge.variant_data(game.variant)), corrected_results,
                           has_map)
    return judge.templates.render("mail/judge/correction.txt.j2", v=view)


def queue_correction(uow: UnitOfWork, judge: Judge, game: Game, preview: OverridePreview, reason: str,
                     corrected_results: str = "") -> tuple[int, str]:
    """Render the notice and queue it to every player, observer and the GM, with the map of the
    position now; the number of mails and the text they carry."""
    db = uow.session
    picture = None
    if preview.current_state:
        picture = phase_map(uow, game, preview.current_phase_new or preview.phase, preview.current_state, None,
                            kind="position")
        if picture is not None:
            db.flush()
    text = render_correction(judge, game, preview, reason, corrected_results, picture is not None)
    mails = mail_game(uow, judge, game, f"Diplomacy correction {game.name} {preview.phase}", text, kind="correction",
                      map_id=picture.id if picture else None)
    return mails, text
