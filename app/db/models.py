"""The tables of the judge.  The schema itself is created only by the Alembic migrations."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, LargeBinary, String, Text, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db.base import Base, UtcDateTime, utcnow
from app.db.statuses import GameStatus, InboundStatus, OutboundStatus, PhaseStatus, SeatRole, SeatStatus
from app.variants import DEFAULT_VARIANT

__all__ = [
    "AuditEntry",
    "Game",
    "GmNote",
    "InboundMessage",
    "JudgeState",
    "MapImage",
    "OrderRow",
    "OutboundMessage",
    "Phase",
    "Player",
    "Press",
]


class Game(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    variant: Mapped[str] = mapped_column(String(40), default=DEFAULT_VARIANT)
    status: Mapped[str] = mapped_column(String(16), default=GameStatus.FORMING, index=True)
    # forming | active | paused | finished | terminated
    master_email: Mapped[str] = mapped_column(String(320))
    master_password_hash: Mapped[str] = mapped_column(String(200))
    press: Mapped[str] = mapped_column(String(16), default="white")  # none|white|grey|white/grey
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    phase: Mapped[str | None] = mapped_column(String(12))
    deadline: Mapped[datetime | None] = mapped_column(UtcDateTime, index=True)
    grace_until: Mapped[datetime | None] = mapped_column(UtcDateTime, index=True)  # the due games (turns/deadlines.py)
    reminded_phase: Mapped[str | None] = mapped_column(String(12))
    paused_reason: Mapped[str | None] = mapped_column(String(200))
    version: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)

    players: Mapped[list[Player]] = relationship(
        back_populates="game", order_by="Player.id", cascade="all, delete-orphan"
    )


def new_leave_token() -> str:
    """A seat's one-time unsubscribe token: lowercase letters and digits (``judge+u-<token>@``)."""
    return "".join(secrets.choice("abcdefghijkmnpqrstuvwxyz23456789") for _ in range(20))


class Player(Base):
    """A seat in a game: a power (or an observer) with its player's address and password."""

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("game_id", "power"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    power: Mapped[str | None] = mapped_column(String(40))
    role: Mapped[str] = mapped_column(String(16), default=SeatRole.PLAYER)  # player | observer
    email: Mapped[str] = mapped_column(String(320), index=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(16), default=SeatStatus.ACTIVE)
    # active | absent | cd | dummy | abandoned | resigned | eliminated
    reply_token: Mapped[str] = mapped_column(String(40), unique=True)
    # The one-time address that stops the seat's mail (``judge+u-<token>@``, List-Unsubscribe),
    # made with the seat (so that mailing every seat writes nothing to them); used once.
    leave_token: Mapped[str | None] = mapped_column(String(40), unique=True, default=new_leave_token)
    preferences: Mapped[str] = mapped_column(Text, default="")  # power ids, as many as the variant has
    wait: Mapped[bool] = mapped_column(default=False)
    draw: Mapped[str | None] = mapped_column(Text)  # power ids, as many as the variant has
    concede: Mapped[str | None] = mapped_column(String(40))
    absence_from: Mapped[datetime | None] = mapped_column(UtcDateTime)
    absence_to: Mapped[datetime | None] = mapped_column(UtcDateTime)
    misses: Mapped[int] = mapped_column(default=0)
    missed_in_row: Mapped[int] = mapped_column(default=0, server_default="0")  # consecutive missed deadlines
    joined_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)

    game: Mapped[Game] = relationship(back_populates="players")


class Phase(Base):
    """One phase of a game: the state before, the orders, the results and the state after."""

    __tablename__ = "phases"
    __table_args__ = (Index("ix_phases_game_seq", "game_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int]
    code: Mapped[str] = mapped_column(String(12))
    status: Mapped[str] = mapped_column(String(16), default=PhaseStatus.OPEN)  # PhaseStatus
    state_before: Mapped[dict[str, Any]] = mapped_column(JSON)
    orders_received: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    orders_parsed: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # per power, the orders as text
    orders_typed: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # the same, as the codec's order JSON
    results: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    state_after: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    deadline: Mapped[datetime | None] = mapped_column(UtcDateTime)
    processed_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    results_text: Mapped[str | None] = mapped_column(Text)
    opening: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # the seats and settings when it opened
    advance_orders: Mapped[list[Any] | None] = mapped_column(JSON)  # orders for later phases, at processing


class OrderRow(Base):
    """The current order of one unit (or build site) of a power for a phase."""

    __tablename__ = "orders"
    __table_args__ = (UniqueConstraint("game_id", "phase", "power", "unit"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    phase: Mapped[str] = mapped_column(String(12))
    power: Mapped[str] = mapped_column(String(40))
    # The unit, the build site, or a short key of its own for a line that names neither
    # (app/services/orders/submit.py _unit_key): the unique index stays within PostgreSQL's b-tree limit.
    unit: Mapped[str] = mapped_column(Text)
    line: Mapped[str] = mapped_column(Text)  # as the player wrote it, whole
    order: Mapped[str | None] = mapped_column(Text)  # as the judge understood it
    order_json: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # the same, read once (the codec's order JSON)
    checked: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class Press(Base):
    __tablename__ = "press"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    phase: Mapped[str | None] = mapped_column(String(12))
    sender: Mapped[str] = mapped_column(String(40))
    recipients: Mapped[list[str]] = mapped_column(JSON)
    broadcast: Mapped[bool] = mapped_column(default=False)
    grey: Mapped[bool] = mapped_column(default=False)
    postal: Mapped[bool] = mapped_column(default=False)
    published: Mapped[bool] = mapped_column(default=False)
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class GmNote(Base):
    """A note of the GM's (``NOTE``, or the judge's line on a change of the settings), printed with the
    next results of the game and then deleted."""

    __tablename__ = "gm_notes"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class InboundMessage(Base):
    """Every mail received, raw bytes first; the Message-ID makes processing idempotent."""

    __tablename__ = "inbound_messages"

    id: Mapped[int] = mapped_column(primary_key=True)
    message_id: Mapped[str] = mapped_column(String(400), unique=True)
    source_uid: Mapped[str | None] = mapped_column(String(200))
    sender: Mapped[str] = mapped_column(String(320), default="")
    subject: Mapped[str] = mapped_column(String(400), default="")
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    status: Mapped[str] = mapped_column(String(16), default=InboundStatus.RECEIVED, index=True)
    # received | done | ignored | failed | quarantined
    attempts: Mapped[int] = mapped_column(default=0)
    error: Mapped[str | None] = mapped_column(Text)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"))
    received_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    processed_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class OutboundMessage(Base):
    """The transactional outbox: written with the state change, drained by the sender."""

    __tablename__ = "outbound_messages"
    __table_args__ = (
        # the leases that ran out (a drain that crashed mid-send): only the mails being sent, so a
        # mail's other changes of status (queued, released, sent) do not update this index
        Index("ix_outbound_messages_sending", "lease_until",
              postgresql_where=text(f"status = '{OutboundStatus.SENDING.value}'"),
              sqlite_where=text(f"status = '{OutboundStatus.SENDING.value}'")),
        # the drain's queue: the pending mails in order, whatever the number sent before them
        Index("ix_outbound_messages_pending", "id", postgresql_where=text(f"status = '{OutboundStatus.PENDING.value}'"),
              sqlite_where=text(f"status = '{OutboundStatus.PENDING.value}'")),
        # the mails a map not drawn yet holds back, by map: released in one statement when it is drawn
        Index("ix_outbound_messages_waiting", "map_id",
              postgresql_where=text(f"status = '{OutboundStatus.WAITING.value}'"),
              sqlite_where=text(f"status = '{OutboundStatus.WAITING.value}'")),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    message_id: Mapped[str] = mapped_column(String(400), unique=True)
    kind: Mapped[str] = mapped_column(String(32), default="reply")
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"))
    recipients: Mapped[list[str]] = mapped_column(JSON)
    subject: Mapped[str] = mapped_column(String(400))
    body_text: Mapped[str] = mapped_column(Text)
    body_html: Mapped[str | None] = mapped_column(Text)
    in_reply_to: Mapped[str | None] = mapped_column(String(400))
    reply_to: Mapped[str | None] = mapped_column(String(320))
    # The References of the mail answered, before its Message-ID (``in_reply_to``): space-separated.
    thread_refs: Mapped[str | None] = mapped_column(Text)
    # The one-time address a mail to which stops the seat's mail (List-Unsubscribe, RFC 2369).
    unsubscribe: Mapped[str | None] = mapped_column(String(320))
    status: Mapped[str] = mapped_column(String(16), default=OutboundStatus.PENDING)
    # waiting (for its map) | pending | sending | sent | failed
    attempts: Mapped[int] = mapped_column(default=0)
    next_try: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    lease_until: Mapped[datetime | None] = mapped_column(UtcDateTime)
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    # The map the mail carries (a PNG attachment; inline in the zine's HTML).
    map_id: Mapped[int | None] = mapped_column(ForeignKey("map_images.id", ondelete="SET NULL"))


class MapImage(Base):
    """A rendered map, kept once per set of inputs (``digest``: variant, position, results, title,
    renderer version), so a phase is drawn once however many mails carry it."""

    __tablename__ = "map_images"
    # the painter's pick: the maps not drawn yet, whatever the number drawn before them
    __table_args__ = (Index("ix_map_images_undrawn", "id", postgresql_where=text("png IS NULL"),
                            sqlite_where=text("png IS NULL")),)

    id: Mapped[int] = mapped_column(primary_key=True)
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    phase: Mapped[str] = mapped_column(String(12))
    kind: Mapped[str] = mapped_column(String(16))  # results | position | preview
    renderer_version: Mapped[int] = mapped_column()
    # What it is drawn from: drawn by the drain's painter after the turn (never inside a turn).
    variant: Mapped[str] = mapped_column(String(40))
    title: Mapped[str] = mapped_column(String(80))
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    png: Mapped[bytes | None] = mapped_column(LargeBinary)  # None: not drawn yet; empty: could not be drawn
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class AuditEntry(Base):
    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    actor: Mapped[str] = mapped_column(String(320))
    action: Mapped[str] = mapped_column(String(40))
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class Confirmation(Base):
    """A command that gives an address a seat, a game or a standing answer, waiting for that address
    to prove its mailbox (confirmed opt-in, issue 29): the judge mailed it a one-time ``token``; a
    reply to ``judge+c-<token>@`` or ``CONFIRM <token>`` runs the mail's commands from ``line`` on.
    Single-use (``used_at``), and it expires."""

    __tablename__ = "confirmations"

    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(40), unique=True)
    address: Mapped[str] = mapped_column(String(320), index=True)
    inbound_id: Mapped[int | None] = mapped_column(ForeignKey("inbound_messages.id", ondelete="CASCADE"))
    line: Mapped[int] = mapped_column(default=0)  # the index of the first line to run (``split_lines``)
    what: Mapped[str] = mapped_column(String(40))  # join | observe | create | takeover | set_address | ...
    # An address change (SET ADDRESS, REPLACE, DOD3 SEAT: ``ADDRESS_KINDS``) names no waiting mail but
    # its seat or game, who asked (``asked_by``: the per-hour cap), a password hash, a DoD III player.
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    asked_by: Mapped[str | None] = mapped_column(String(320), index=True)
    secret: Mapped[str | None] = mapped_column(String(255))
    detail: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class JudgeState(Base):
    """Server-wide values, such as the time of the last scheduler tick (the outage guard)."""

    __tablename__ = "judge_state"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[datetime | None] = mapped_column(UtcDateTime)
