"""Orders of one power: submission (per unit or whole set), status and completeness.

Orders are read by the engine once, when they arrive; what is stored is the order as the
judge understood it (``OrderRow.order``).  Orders for a later phase are stored unread and
checked when that phase opens (``check_advance_orders``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import Game, OrderRow, Phase, Player
from app.db.statuses import RUNNING, SeatRole, SeatStatus
from app.services.errors import DomainError
from app.services.kernel.access import is_gm_of
from app.services.kernel.actor import Actor, Role
from app.services.kernel.context import Judge
from app.services.kernel.uow import OrdersChanged, UnitOfWork
from app.services.orders.need import Undeclared, needed, undeclared_units, unit_label
from app.services.ruleset import engine as game_engine
from app.services.ruleset.engine import Build, GameState, Orderable, OrderCheck, Variant, province_of
from app.services.ruleset.options import options_of

__all__ = [
    "clear_orders",
    "LineReceipt",
    "OrderCheck",
    "OrderStatus",
    "OrdersReceipt",
    "check_advance_orders",
    "phase_variant_state",
    "power_status",
    "seat_statuses",
    "split_order_line",
    "status_for",
    "store_orders",
    "submit_orders",
]

_SPLIT = re.compile(r"[;,]")


def split_order_line(line: str) -> list[str]:
    """Several orders per line, separated by ``,`` or ``;`` (njudge)."""
    return [part.strip() for part in _SPLIT.split(line) if part.strip()]


@dataclass
class OrderStatus:
    power: str
    phase: str
    orders: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    builds_missing: int = 0
    needs_orders: bool = False
    allowed: int = 0  # adjustment: the builds or removals the power may order
    extra: int = 0  # adjustment: builds or removals ordered beyond ``allowed`` (they will fail)
    removing: bool = False  # adjustment: the power removes (else it builds)

    @property
    def complete(self) -> bool:
        return not self.missing and self.builds_missing <= 0

    @property
    def submitted(self) -> bool:
        return bool(self.orders)


@dataclass(frozen=True)
class LineReceipt:
    """One submitted order: accepted (``order`` as understood) or refused (``error``)."""

    line: str
    ok: bool
    order: str | None
    error: str | None


@dataclass(frozen=True)
class OrdersReceipt:
    """What ``submit_orders`` did with one batch of a power's orders."""

    game: str
    power: str
    phase: str  # the phase the orders are for
    advance: bool  # stored for a later phase, to be checked when it opens
    stored: bool  # False: whole-set orders with an error, nothing was saved
    lines: tuple[LineReceipt, ...]

    @property
    def errors(self) -> tuple[LineReceipt, ...]:
        return tuple(item for item in self.lines if not item.ok)


def phase_variant_state(game: Game, phase: Phase) -> tuple[Variant, GameState]:
    """The game's variant (with its rule options) and the position at the start of ``phase``."""
    variant = game_engine.game_variant(game.variant, game_engine.game_rules(game.settings))
    return variant, game_engine.state_of(variant, phase.state_before)


_KEY_CHARS = 40  # a numbered line's key beyond this is a digest: the unique index has a size limit


def _unit_key(check: OrderCheck, index: int) -> str:
    """The row key: the unit (the last order for a unit wins), the build site, or a numbered line
    (its text, or a digest of a long text: the line itself is kept whole in ``line``)."""
    if isinstance(check.order, Build) and check.unit is not None:
        return "SITE " + province_of(check.unit.location)
    if check.unit is not None:
        return str(check.unit).upper()
    text = (str(check.order) if check.order is not None else check.line).upper()
    key = f"#{text}#{index}"
    if len(key) <= _KEY_CHARS:
        return key
    return f"#{hashlib.sha256(text.encode('utf-8', 'surrogatepass')).hexdigest()[:20]}#{index}"


def store_orders(
    uow: UnitOfWork,
    game: Game,
    phase_code: str,
    power: str,
    checks: Sequence[OrderCheck],
    *,
    whole_set: bool,
    checked: bool = True,
) -> None:
    """Store the accepted orders, read once: the text as understood and the codec's order JSON.
    Per unit: the last order for a unit wins.  Whole set: replace all."""
    session = uow.session
    existing = {row.unit: row for row in queries.orders_for(session, game.id, phase_code, power)}
    if whole_set:
        for row in existing.values():
            session.delete(row)
        session.flush()
        existing = {}
    for index, item in enumerate(checks):
        if not item.ok:
            continue
        key = _unit_key(item, index + len(existing))
        found = existing.get(key)
        if found is None:
            found = OrderRow(game_id=game.id, phase=phase_code, power=power, unit=key, line="")
            session.add(found)
            existing[key] = found
        row = found
        row.line = item.line
        row.order = str(item.order) if item.order is not None else None
        row.order_json = game_engine.order_json(item.order) if item.order is not None else None
        row.checked = checked
    session.flush()


def _acting_power(actor: Actor, game: Game) -> str:
    if actor.role not in (Role.PLAYER, Role.GM, Role.KEEPER) or (actor.game_id not in (None, game.id)):
        raise DomainError("not_allowed", "only a power of this game may give orders")
    if not actor.power:
        raise DomainError("no_power", "sign on as a power, or act as one, to give orders")
    return actor.power.upper()


def _open_phase(uow: UnitOfWork, game: Game) -> Phase:
    phase = uow.open_phase_of(game)
    if phase is None or game.status not in RUNNING:
        raise DomainError("not_running", f"game '{game.name}' is not running ({game.status})")
    return phase


def _back_from_civil_disorder(db: Session, actor: Actor, game: Game, power: str) -> None:
    """A power's own player ordering again ends its civil disorder (issue 8.4), or its abandonment
    while nobody took it over; the GM's orders do not."""
    if actor.role != Role.PLAYER:
        return
    seat = db.get(Player, actor.seat_id) if actor.seat_id is not None else None  # mostly still loaded
    if seat is None or seat.game_id != game.id or seat.power != power:
        seat = queries.seat_for_power(db, game.id, power)
    if seat is not None and seat.status in (SeatStatus.CD, SeatStatus.ABANDONED):
        seat.status = SeatStatus.ACTIVE


def _replace_declarations(db: Session, game: Game, phase_code: str, power: str, checks: Sequence[OrderCheck],
                          hidden: Mapping[str, Undeclared]) -> None:
    """An order for an undeclared starting unit replaces the orders given for its other options."""
    if not hidden:
        return
    declared = {province_of(c.unit.location).upper(): str(c.unit).upper() for c in checks
                if c.ok and c.unit is not None and province_of(c.unit.location).upper() in hidden}
    for row in queries.orders_for(db, game.id, phase_code, power):
        province = row.unit.split(" ", 1)[-1].split("/", 1)[0].upper()
        if province in declared and row.unit.upper() != declared[province]:
            db.delete(row)
    db.flush()


def submit_orders(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game, lines: Sequence[str],
                  phase_code: str | None = None) -> OrdersReceipt:
    """Check and store a power's orders (one order per item of ``lines``; split a mail line
    with ``split_order_line`` first).  ``phase_code`` names a later phase for orders given in
    advance: they are stored unread and checked when that phase opens."""
    db = uow.session
    power = _acting_power(actor, game)
    phase = _open_phase(uow, game)
    _back_from_civil_disorder(db, actor, game, power)
    whole_set = options_of(game).whole_set
    if phase_code and phase_code.upper() != phase.code:
        variant = game_engine.game_variant(game.variant, game_engine.game_rules(game.settings))
        checks = [OrderCheck(line=line, order=None, unit=game_engine.parse_unit(variant, line), error=None,
                             reason=None) for line in lines]
        store_orders(uow, game, phase_code.upper(), power, checks, whole_set=whole_set, checked=False)
        uow.record(OrdersChanged(game.id))
        return OrdersReceipt(game=game.name, power=power, phase=phase_code.upper(), advance=True, stored=True,
                             lines=tuple(LineReceipt(line, True, None, None) for line in lines))
    variant, state = phase_variant_state(game, phase)
    checks = game_engine.check_orders(variant, state, power, lines)
    receipts = tuple(LineReceipt(c.line, c.ok, str(c.order) if c.order is not None else None, c.error)
                     for c in checks)
    if whole_set and any(not c.ok for c in checks):
        return OrdersReceipt(game=game.name, power=power, phase=phase.code, advance=False, stored=False,
                             lines=receipts)
    _replace_declarations(db, game, phase.code, power, checks, undeclared_units(variant, state, power))
    store_orders(uow, game, phase.code, power, checks, whole_set=whole_set)
    uow.record(OrdersChanged(game.id))
    judge.crash("orders:stored")
    return OrdersReceipt(game=game.name, power=power, phase=phase.code, advance=False, stored=True, lines=receipts)


def clear_orders(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game, phase_code: str | None = None) -> str:
    """CLEAR: every order of the actor's power for the open phase (or for the later phase
    ``phase_code``, orders given in advance) deleted; returns the phase cleared."""
    db = uow.session
    power = _acting_power(actor, game)
    phase = _open_phase(uow, game)
    code = (phase_code or phase.code).upper()
    queries.clear_orders(db, game.id, code, power)
    uow.record(OrdersChanged(game.id))
    return code


def check_advance_orders(uow: UnitOfWork, game: Game, phase: Phase,
                         stored: Sequence[OrderRow] | None = None) -> Sequence[OrderRow] | None:
    """Orders given in advance for a phase that has just begun: check them now, keep the legal
    ones (the last for each unit), drop the rest.  ``stored``: the phase's order rows when the
    caller has just read them (in ``orders_for`` order); returns the phase's orders when nothing
    was to check (they stand as read), None when they changed."""
    db = uow.session
    if stored is None:
        stored = queries.orders_for(db, game.id, phase.code)
    rows = [row for row in stored if not row.checked]
    if not rows:
        return stored
    variant, state = phase_variant_state(game, phase)
    by_power: dict[str, list[OrderRow]] = {}
    for row in rows:
        by_power.setdefault(row.power, []).append(row)
    for power, power_rows in by_power.items():
        results = game_engine.check_orders(variant, state, power, [r.line for r in power_rows])
        for row in power_rows:
            db.delete(row)
        db.flush()
        store_orders(uow, game, phase.code, power, results, whole_set=False)
    return None


def status_for(need: Orderable, power: str, phase_code: str, rows: Sequence[OrderRow],
               hidden: Mapping[str, Undeclared] | None = None) -> OrderStatus:
    """What ``power`` has ordered and what is missing; an order for any option of an undeclared
    starting unit (``hidden``, by province) is that unit's order."""
    hidden = hidden or {}
    status = OrderStatus(power=power, phase=phase_code, orders=[r.order or r.line for r in rows])
    if need.kind in ("movement", "retreat"):
        units = [str(u).upper() for u in need.units]
        status.needs_orders = bool(units)
        ordered = {r.unit.upper() for r in rows}
        for row in rows:
            found = hidden.get(row.unit.split(" ", 1)[-1].split("/", 1)[0].upper())
            if found is not None and row.unit.upper() in found.options:
                ordered.add(found.default)
        status.missing = [unit_label(u, dict(hidden)) for u in units if u not in ordered]
    else:  # Small World 11.2: a Winter phase may also carry units waiting to retreat
        waiting = [str(u).upper() for u in need.units]
        ordered = {r.unit for r in rows}
        status.missing = [u for u in waiting if u not in ordered]
        wanted = need.builds + need.removals
        adjustment_rows = [r for r in rows if r.unit not in waiting]
        status.needs_orders = wanted > 0 or bool(waiting)
        status.builds_missing = max(0, wanted - len(adjustment_rows))
        status.allowed = wanted
        status.extra = max(0, len(adjustment_rows) - wanted)
        status.removing = need.removals > 0 or any((r.order or r.line).upper().startswith("REMOVE")
                                                   for r in adjustment_rows)
    return status


def power_status(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game, power: str) -> OrderStatus | None:
    """The orders of ``power`` in the open phase and what is still missing (the player of that
    power, the GM or the judgekeeper); None when the game has no open phase."""
    db = uow.session
    power = power.upper()
    if not (is_gm_of(actor, game) or (actor.power or "").upper() == power):
        raise DomainError("not_allowed", "only that power's player or the GM may see its orders")
    phase = uow.open_phase_of(game)
    if phase is None or game.status not in RUNNING:
        return None
    variant, state = phase_variant_state(game, phase)
    rows = queries.orders_for(db, game.id, phase.code, power)
    return status_for(needed(variant, state, power), power, phase.code, rows, undeclared_units(variant, state, power))


def seat_statuses(uow: UnitOfWork, game: Game, phase: Phase,
                  rows: Sequence[OrderRow] | None = None) -> list[tuple[Player, OrderStatus]]:
    """The order status of every power, with one query for all the orders (or from ``rows``,
    the phase's orders the caller has just read)."""
    db = uow.session
    by_power: dict[str, list[OrderRow]] = {}
    for row in queries.orders_for(db, game.id, phase.code) if rows is None else rows:
        by_power.setdefault(row.power, []).append(row)
    seats = [seat for seat in game.players
             if seat.power is not None and seat.role == SeatRole.PLAYER and seat.status != SeatStatus.ELIMINATED]
    if not seats:
        return []
    variant, state = phase_variant_state(game, phase)
    out = []
    for seat in seats:
        power = seat.power or ""
        need = needed(variant, state, power)
        out.append((seat, status_for(need, power, phase.code, by_power.get(power, []),
                                     undeclared_units(variant, state, power))))
    return out
