"""The tables of the web door: GM accounts, the games they are linked to, browser sessions and
sign-in attempts (0002), the contests of adjudications that players mail in (0004), and the
one-time codes mailed to prove an address (0007), a game's co-GMs (0009).  Like every table, created only by the Alembic
migrations."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, UtcDateTime, utcnow
from app.db.statuses import ContestStatus

__all__ = ["CoMaster", "Contest", "EmailCode", "GmAccount", "GmAccountGame", "SignInAttempt", "WebSession"]


class GmAccount(Base):
    """A game master who signs in to the dashboard: an address and an argon2 password hash (empty:
    no password yet, sign in with a mailed code).  ``proven_at``: when a code mailed to the address
    was last used (the owner reads its mail); NULL for an account only the judgekeeper vouched for."""

    __tablename__ = "gm_accounts"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(320), unique=True)  # stored lower-case
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    last_sign_in: Mapped[datetime | None] = mapped_column(UtcDateTime)
    proven_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class GmAccountGame(Base):
    """A game linked to an account: its master address and master password were shown once."""

    __tablename__ = "gm_account_games"

    account_id: Mapped[int] = mapped_column(ForeignKey("gm_accounts.id", ondelete="CASCADE"), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    linked_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class CoMaster(Base):
    """A co-GM of a game (njudge's PROMOTE, vDiplomacy's co-moderators): an address the game's
    master added.  It runs the game from the dashboard once its account has proven the address by a
    mailed code (``games.co_masters``); the master stays the game's master of record."""

    __tablename__ = "co_masters"
    __table_args__ = (UniqueConstraint("game_id", "email"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    email: Mapped[str] = mapped_column(String(320))  # stored lower-case
    added_by: Mapped[str] = mapped_column(String(320))
    added_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class WebSession(Base):
    """A signed-in browser.  The cookie holds a random token; only its SHA-256 is stored here."""

    __tablename__ = "web_sessions"

    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("gm_accounts.id", ondelete="CASCADE"), index=True)
    csrf_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)


class SignInAttempt(Base):
    """One try to sign in, kept for the rate limit (per address and per client)."""

    __tablename__ = "sign_in_attempts"
    __table_args__ = (
        Index("ix_sign_in_attempts_address_at", "address", "at"),
        Index("ix_sign_in_attempts_client_at", "client", "at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    address: Mapped[str] = mapped_column(String(320))
    client: Mapped[str] = mapped_column(String(100))
    ok: Mapped[bool] = mapped_column(default=False)
    at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class EmailCode(Base):
    """A one-time code mailed to an address to prove the sender reads its mail (sign-up, sign-in
    without a password, password reset).  Only an argon2 hash of the code is kept; used once."""

    __tablename__ = "email_codes"
    __table_args__ = (Index("ix_email_codes_email_created_at", "email", "created_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(320))  # stored lower-case
    code_hash: Mapped[str] = mapped_column(String(200))
    client: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class Contest(Base):
    """A player contests a processed phase's adjudication (mail ``CONTEST <phase> <text>``); the GM
    answers it: ``open`` until then, ``upheld`` (the phase was corrected), ``rejected`` or ``answered``."""

    __tablename__ = "contests"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    phase: Mapped[str] = mapped_column(String(12))
    power: Mapped[str] = mapped_column(String(40))
    address: Mapped[str] = mapped_column(String(320))
    text: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default=ContestStatus.OPEN, index=True)
    answer: Mapped[str | None] = mapped_column(Text)
    answered_by: Mapped[str | None] = mapped_column(String(320))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    answered_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
