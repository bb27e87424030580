"""The statuses of the stored rows (and a seat's role), as ``StrEnum``s.

A ``StrEnum`` member is a ``str`` equal to its value, so the columns stay ``String(16)`` with the
very values they always held (no migration), rows read back as plain strings compare equal to the
members, and the members go into SQL, JSON, templates and f-strings as their values.  Code names a
status by its member (``game.status == GameStatus.ACTIVE``), never by a string literal:
``tests/test_architecture.py`` finds a literal compared with or assigned to a status in ``app/``.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["ContestStatus", "GameStatus", "InboundStatus", "LIVE_GAMES", "OutboundStatus", "PhaseStatus",
           "RUNNING", "SeatRole", "SeatStatus"]


class GameStatus(StrEnum):
    """``games.status``."""

    FORMING = "forming"  # created, taking players; no phase yet
    ACTIVE = "active"
    PAUSED = "paused"  # by the GM, or waiting for a replacement
    FINISHED = "finished"  # won, drawn, conceded
    TERMINATED = "terminated"  # ended by the GM


RUNNING: tuple[GameStatus, ...] = (GameStatus.ACTIVE, GameStatus.PAUSED)
"""A game with an open phase."""
LIVE_GAMES: tuple[GameStatus, ...] = (GameStatus.FORMING, GameStatus.ACTIVE, GameStatus.PAUSED)
"""A game not over: listed, counted against an observer's seats."""


class PhaseStatus(StrEnum):
    """``phases.status``."""

    OPEN = "open"
    PROCESSED = "processed"
    ROLLED_BACK = "rolled_back"  # undone by ROLLBACK (or replaced by an override); ROLLFORWARD redoes it


class SeatStatus(StrEnum):
    """``players.status``: where a seat stands."""

    ACTIVE = "active"
    ABSENT = "absent"
    CD = "cd"  # civil disorder: missed a deadline
    DUMMY = "dummy"  # civil disorder by the GM's hand (DUMMY): its player may not act, until REVIVE
    ABANDONED = "abandoned"  # missed too many: waiting for a replacement
    RESIGNED = "resigned"
    ELIMINATED = "eliminated"  # no units and no centres left


class SeatRole(StrEnum):
    """``players.role``: a power's seat or an observer's."""

    PLAYER = "player"
    OBSERVER = "observer"


class InboundStatus(StrEnum):
    """``inbound_messages.status``, and what handling a mail came to (``InboundOutcome``)."""

    RECEIVED = "received"  # stored, not yet run
    DONE = "done"
    IGNORED = "ignored"  # stored, neither run nor answered (a bounce, automatic mail, a loop)
    HELD = "held"  # held back by an answer budget (a stranger's): listed for the judgekeeper; run when its
    # sender confirms its address
    FAILED = "failed"  # a try failed; tried again until done or quarantined
    QUARANTINED = "quarantined"  # failed too often: the GM (or the keeper) looks at it
    DUPLICATE = "duplicate"  # an outcome only: the Message-ID was stored before


class OutboundStatus(StrEnum):
    """``outbound_messages.status``: the outbox."""

    WAITING = "waiting"  # for its map, not drawn yet: out of the drain's queue until the painter draws it
    PENDING = "pending"
    SENDING = "sending"  # leased by a drain
    SENT = "sent"
    FAILED = "failed"  # given up after the last try


class ContestStatus(StrEnum):
    """``contests.status``: a player's contest of an adjudication, and the GM's verdict."""

    OPEN = "open"
    UPHELD = "upheld"  # the GM corrected the phase
    REJECTED = "rejected"  # the adjudication stands
    ANSWERED = "answered"  # an answer without a verdict (a question, a remark)

