"""Reply text of the GM's STATUS: every power of the game at a glance (issue 8.14)."""

from __future__ import annotations

from app.db.statuses import SeatStatus
from app.services.kernel.render import format_deadline
from app.services.readmodels.game_status import GameOverview, PowerLine

__all__ = ["render_overview", "seat_status"]

_SEAT_WORDS: dict[str, str] = {SeatStatus.CD: "civil disorder", SeatStatus.DUMMY: "civil disorder (DUMMY)"}


def seat_status(code: str) -> str:
    """A seat's stored status as words: ``cd`` -> ``civil disorder``."""
    return ", ".join(_SEAT_WORDS.get(part.strip(), part.strip().replace("_", " ")) for part in code.split(","))


def _orders(line: PowerLine) -> str:
    if not line.needs_orders:
        return "nothing to order"
    if line.complete:
        return "orders complete"
    if line.missing:
        return "without orders: " + ", ".join(line.missing)
    return f"{line.builds_missing} adjustment order(s) still to give"


def render_overview(view: GameOverview) -> str:
    zone = view.timezone
    head = [f"Status of game '{view.game}' ({view.status}), phase {view.phase or '-'}.",
            f"Deadline: {format_deadline(view.deadline, zone)}."
            + (f"  Grace until {format_deadline(view.grace_until, zone)}." if view.grace_until else ""), ""]
    body = []
    width = max([14, *(len(line.power_name) for line in view.powers)])  # a long name keeps the column
    for line in view.powers:
        last = format_deadline(line.last_mail, zone) if line.last_mail else "no mail yet"
        body.append(f"  {line.power_name:<{width}} {line.player}")
        body.append(f"      status {seat_status(line.status)}; {_orders(line)}; WAIT {'set' if line.wait else 'not set'};"
                    f" last mail {last}.")
    return "\n".join(head + (body or ["  (no powers)"]))
