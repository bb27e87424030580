"""Orders of one power: submission (per unit or whole set), status and completeness."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import Game, OrderRow, Phase, Player

__all__ = ["OrderCheck", "OrderStatus", "order_status", "split_order_line", "store_orders"]

_SPLIT = re.compile(r"[;,]")


def split_order_line(line: str) -> list[str]:
    """Several orders per line, separated by ``,`` or ``;`` (njudge)."""
    return [part.strip() for part in _SPLIT.split(line) if part.strip()]


@dataclass
class OrderCheck:
    line: str
    ok: bool
    order: str | None
    unit: str | None
    error: str | None


@dataclass
class OrderStatus:
    power: str
    phase: str
    orders: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    builds_missing: int = 0
    needs_orders: bool = False

    @property
    def complete(self) -> bool:
        return not self.missing and self.builds_missing <= 0

    @property
    def submitted(self) -> bool:
        return bool(self.orders)


def check(api: Any, state: dict[str, Any], power: str, lines: list[str]) -> list[OrderCheck]:
    results = api.check_orders(state, power, lines)
    return [
        OrderCheck(
            line=r.get("line", line),
            ok=bool(r.get("ok")),
            order=r.get("order"),
            unit=r.get("unit"),
            error=r.get("error"),
        )
        for line, r in zip(lines, results, strict=False)
    ]


def _unit_key(check_result: OrderCheck, index: int) -> str:
    order = (check_result.order or "").upper()
    if order.startswith("BUILD") and check_result.unit:
        return "SITE " + check_result.unit.split()[-1].split("/")[0]
    if check_result.unit:
        return check_result.unit.upper()
    return f"#{(check_result.order or check_result.line).upper()}#{index}"


def store_orders(
    session: Session,
    game: Game,
    phase_code: str,
    power: str,
    checks: list[OrderCheck],
    *,
    whole_set: bool,
    checked: bool = True,
) -> None:
    """Store the accepted orders.  Per unit: the last order for a unit wins.  Whole set: replace all."""
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
        row.line = item.line[:400]
        row.order = item.order
        row.checked = checked
    session.flush()


def order_status(session: Session, api: Any, game: Game, phase: Phase, power: str,
                 rows: list[OrderRow] | None = None) -> OrderStatus:
    if rows is None:
        rows = queries.orders_for(session, game.id, phase.code, power)
    status = OrderStatus(power=power, phase=phase.code, orders=[r.order or r.line for r in rows])
    need = api.orderable(phase.state_before, power)
    kind = need.get("kind")
    if kind in ("movement", "retreat"):
        units = [u.upper() for u in need.get("units", [])]
        status.needs_orders = bool(units)
        ordered = {r.unit for r in rows}
        status.missing = [u for u in units if u not in ordered]
    elif kind == "adjustment":
        wanted = int(need.get("builds", 0) or 0) + int(need.get("removals", 0) or 0)
        status.needs_orders = wanted > 0
        status.builds_missing = max(0, wanted - len(rows))
    return status


def seat_needs_orders(session: Session, api: Any, game: Game, phase: Phase, seat: Player,
                      rows: list[OrderRow] | None = None) -> OrderStatus | None:
    if seat.power is None or seat.role != "player" or seat.status == "eliminated":
        return None
    return order_status(session, api, game, phase, seat.power, rows)


def seat_statuses(session: Session, api: Any, game: Game, phase: Phase) -> list[tuple[Player, OrderStatus]]:
    """The order status of every power, with one query for all the orders."""
    by_power: dict[str, list[OrderRow]] = {}
    for row in queries.orders_for(session, game.id, phase.code):
        by_power.setdefault(row.power, []).append(row)
    out = []
    for seat in game.players:
        status = seat_needs_orders(session, api, game, phase, seat, by_power.get(seat.power or "", []))
        if status is not None:
            out.append((seat, status))
    return out
