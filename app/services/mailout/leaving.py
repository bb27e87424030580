"""How a seat stops its mail (issue 29 item 1): every mail an address gets because of a seat ends
with a note saying how (``templates/mail/common/stop.txt.j2``, one wording for each kind of seat,
so a phase's results are still rendered a few times, not once a seat), and carries the seat's
one-time address, ``judge+u-<token>@domain``, for its ``List-Unsubscribe`` (RFC 2369).  A mail
to that address leaves an observer seat or a game not started at once
(``app.services.seats.unsubscribe``)."""

from __future__ import annotations

from html import escape

from app.db.models import Game, Player, new_leave_token
from app.db.statuses import GameStatus, SeatRole
from app.services.kernel.context import Judge

__all__ = ["LEAVE_PREFIX", "leave_address", "seat_kind", "with_stop_note"]

LEAVE_PREFIX = "u-"
"""The token kind of a one-time address that stops a seat's mail: ``judge+u-<token>@domain``."""


def leave_address(judge: Judge, seat: Player) -> str:
    """The seat's one-time address (its token is made with the seat; a seat not flushed yet gets it here)."""
    if not seat.leave_token:
        seat.leave_token = new_leave_token()
    return judge.settings.token_address(LEAVE_PREFIX + seat.leave_token)


def seat_kind(seat: Player, game: Game) -> str:
    """``over`` (a seat of a game that ended), ``observer``, ``forming`` (a player of a game not
    started) or ``player``."""
    if game.status in (GameStatus.FINISHED, GameStatus.TERMINATED):
        return "over"
    if seat.role == SeatRole.OBSERVER:
        return "observer"
    return "forming" if game.status == GameStatus.FORMING else "player"


def with_stop_note(judge: Judge, game: Game, kind: str, text: str, html: str | None) -> tuple[str, str | None]:
    """``text`` (and ``html``) with the note saying how a seat of ``kind`` stops the game's mail."""
    note = judge.templates.render("mail/common/stop.txt.j2", role=kind, game=game.name)
    text = text if text.endswith("\n") else text + "\n"
    if html is not None:
        shown = "<br>\n".join(escape(line) for line in note.strip("\n").split("\n")[1:])
        block = f'<hr>\n<p style="font-size:smaller">{shown}</p>\n'
        at = html.lower().rfind("</body>")
        html = html[:at] + block + html[at:] if at >= 0 else html + block
    return text + "\n" + note, html
