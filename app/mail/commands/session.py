"""The state of one incoming mail while its commands run: who is signed on, what to answer.

The stable API for command classes: ``ctx.actor()``, ``ctx.db``, ``ctx.judge``,
``ctx.require_game()``, ``ctx.flush_orders()``, ``ctx.add_note(text)``, ``ctx.add_section(text)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from app.db import queries
from app.db.models import Game, Phase, Player
from app.db.statuses import RUNNING, SeatRole
from app.mail.commands.errors import CommandError, NeedsConfirmation
from app.mail.commands.refusals import refusal_text
from app.mail.replies.acks import advance_view, retreat_line
from app.mail.replies.orders import too_many_warning
from app.mail.replies.subjects import answer_subject
from app.services.errors import DomainError
from app.services.games import identity
from app.services.kernel.actor import Actor, Role
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.render import deadline_text
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.redact import mask_passwords
from app.services.orders import submit as order_service
from app.services.orders.acknowledge import advance_orders, retreat_choices
from app.services.ruleset.kinds import ruleset_for
from app.services.ruleset.options import GameOptions, options_of
from app.services.ruleset.phases import PhaseKind, parse_phase_words
from app.services.ruleset.powers import PowerBook
from app.services.seats import confirmations

_WHAT = {"join": "a seat in a game", "observe": "the results of a game", "create": "a new game, you its master",
         "takeover": "a power in a game"}

__all__ = ["Collector", "CommandRole", "EchoItem", "MailSession", "parse_sign_on_target"]


def parse_sign_on_target(word: str) -> identity.SignOnTarget:
    """``Fgame``, ``france@game``, ``master@game``, ``observer@game`` -> whom to sign on as."""
    word = word.strip()
    if "@" in word:
        who, _, name = word.partition("@")
        if who.lower() in ("master", "gm"):
            return identity.SignOnTarget(name, master=True)
        if who.lower() in ("observer", "monitor"):
            return identity.SignOnTarget(name, observer=True)
        return identity.SignOnTarget(name, power=who)
    if len(word) < 2:
        raise CommandError("say which power and game, e.g. SIGNON Fgame password")
    return identity.SignOnTarget(word[1:], letter=word[0])


class CommandRole(StrEnum):
    """Who may give a mail command (``Command.role``), and whose HELP comes first."""

    ANYONE = "anyone"
    PLAYER = "player"  # signed on to a game (a power, an observer, or its master)
    MASTER = "master"  # signed on as the game's master


class Collector(Protocol):
    """Gathers the lines after a command (PRESS ... ENDPRESS), then acts on them."""

    def append(self, line: str) -> None: ...

    def finish(self, ctx: MailSession) -> None: ...


@dataclass
class EchoItem:
    line: str
    notes: list[str] = field(default_factory=list)


@dataclass
class PendingOrders:
    power: str
    phase: str
    items: list[tuple[EchoItem, str]] = field(default_factory=list)


class MailSession:
    """One mail's commands: sign-on state, the echo of each line, and what to send back."""

    def __init__(self, judge: Judge, uow: UnitOfWork, *, sender: str, subject: str, message_id: str) -> None:
        self.judge = judge
        self.uow = uow  # the mail's unit of work, handed to the use cases
        self.db = uow.session  # for the commands' own reads
        self.sender = sender.lower()
        self.subject = subject
        self.message_id = message_id
        self.echoes: list[EchoItem] = []
        self.sections: list[str] = []
        self.unprocessed: list[str] = []
        self.game: Game | None = None
        self.seat: Player | None = None
        self.master = False
        self.co_master = False  # signed on as a co-GM (its own account's password): not the master of record
        self.acting_power: str | None = None
        self.target_phase: str | None = None
        self.collector: Collector | None = None
        self.stop_on_error = False
        self.copies: set[str] = set()
        self.status_keys: list[tuple[int, str]] = []
        self.pending: PendingOrders | None = None
        self.map_id: int | None = None  # a stored map the reply carries (MAP)
        self.orders_accepted = 0  # order lines read without error (a mail with none and no command: the answer budget)
        self.sender_trusted = True  # False: the sender failed SPF/DMARC (Authentication-Results): a stranger
        self.of_record = True  # False: a stranger (no player, observer or GM of record; no personal reply address)
        self.proven = False  # the mail proved its mailbox: a personal reply address, a sign-on with the password of
        # a seat (or game) of this very address, or the confirmation of a waiting mail (issue 29)
        self.inbound_id: int | None = None  # the stored mail (a waiting command points at it)
        self.confirmation: str | None = None  # the token of the confirmation this mail asked for
        self.confirming: list[str] = []  # tokens of waiting mails this mail confirms (CONFIRM <token>)

    # -- reply building -------------------------------------------------------------------
    def echo(self, line: str, notes: list[str]) -> EchoItem:
        line = mask_passwords(line)  # whatever the line is (a command, an order, not a command)
        item = EchoItem(line if len(line) <= 300 else line[:300] + " [... line cut here in this echo]", list(notes))
        self.echoes.append(item)
        return item

    def add_note(self, text: str) -> None:
        if not self.echoes:
            self.echo("", [])
        self.echoes[-1].notes.append(text)

    def add_section(self, text: str) -> None:
        self.sections.append(text.rstrip("\n"))

    def attach_map(self, map_id: int) -> None:
        """The reply carries this stored map as a picture (one per reply: the last asked for)."""
        self.map_id = map_id

    def note_unprocessed(self, lines: list[str]) -> None:
        self.unprocessed.extend(mask_passwords(line)[:300] for line in lines if line.strip())

    def audit(self, action: str, **detail: Any) -> None:
        audit(self.uow, self.sender, self.game, action, **detail)

    # -- identity ---------------------------------------------------------------------------
    def actor(self) -> Actor:
        """Who this mail speaks for, as the use cases see it."""
        if self.game is None:
            return Actor(self.sender, proven=self.proven)
        if self.master:
            role = Role.GM
        elif self.seat is not None and self.seat.role == SeatRole.OBSERVER:
            role = Role.OBSERVER
        elif self.seat is not None:
            role = Role.PLAYER
        else:
            role = Role.ANYONE
        return Actor(self.sender, role, self.game.id, self.power, self.seat.id if self.seat else None,
                     co_master=self.master and self.co_master, proven=self.proven)

    def book(self, game: Game | None = None) -> PowerBook:
        game = game or self.require_game()
        return PowerBook(self.judge.variant_data(game.variant))

    def require_game(self) -> Game:
        if self.game is None:
            raise CommandError("sign on to a game first (SIGNON <power letter><game> <password>)")
        return self.game

    def require_authenticated_sender(self, what: str) -> None:
        """Refuse what a forged ``From`` must not do: the sender's domain failed SPF or DMARC."""
        if not self.sender_trusted:
            raise CommandError(f"this mail failed its domain's SPF or DMARC check at the judge's mail server, so "
                               f"it cannot {what}: send it from a mailbox whose domain authenticates its mail")

    def require_of_record(self, what: str) -> None:
        """Large answers (maps, histories) go only to addresses of record and personal reply addresses."""
        if not self.of_record:
            raise CommandError(f"{what} is mailed only to the players, observers and game masters of this judge "
                               f"(their registered addresses, or a reply to a personal reply address)")

    def require_confirmed(self, what: str) -> None:
        """A command that gives this address a seat, a game or a standing answer runs only on a mail
        that proved its mailbox; otherwise it waits for the address's confirmation (issue 29)."""
        if not self.proven:
            raise NeedsConfirmation(what)

    def ask_confirmation(self, line: int, what: str) -> None:
        """This mail's commands from ``line`` on wait for the address's confirmation."""
        if self.inbound_id is None:
            raise CommandError("this command needs a confirmation of your address, which this mail cannot get")
        self.confirmation = confirmations.ask_confirmation(self.judge, self.uow, self.sender, self.inbound_id, line,
                                                           what)
        self.audit("confirmation_asked", what=what)
        address = self.judge.settings.confirm_address(self.confirmation)
        self.add_note(f"Waiting for your confirmation: this command ({_WHAT.get(what, what)}) runs only once this "
                      f"address confirms it wants it.  Reply to this mail (its reply address, {address}, works "
                      f"once), or send the line CONFIRM {self.confirmation} to {self.judge.settings.judge_address}, "
                      f"within {self.judge.settings.confirm_hours} hours.  If you did not write to the judge, "
                      f"ignore this mail: nothing happens, and you get no more mail for it.")

    def require(self, role: CommandRole) -> None:
        if role == CommandRole.PLAYER and self.game is None:
            raise CommandError("you must sign on first")
        if role == CommandRole.MASTER and not self.master:
            raise CommandError("only the game master may do that (sign on as master@game)")

    @property
    def power(self) -> str | None:
        if self.acting_power:
            return self.acting_power
        if self.seat is not None and self.seat.role == SeatRole.PLAYER:
            return self.seat.power
        return None

    def _note_sender(self, address: str) -> None:
        if address and address.lower() != self.sender:
            self.copies.add(address.lower())

    def sign_on(self, game_word: str, password: str) -> None:
        """``Fgame`` / ``france@game`` / ``master@game`` / ``Mgame`` / ``Ogame`` (observer by address)."""
        self.flush_orders()
        self.stop_on_error = True
        target = parse_sign_on_target(game_word)
        # A wrong password is not copied to the player of record one by one: a seat that is
        # guessed at locks, and its player is told once (``app.services.games.lockout``).
        signed = identity.sign_on(self.judge, self.uow, self.actor(), target, password)
        self.enter(signed)
        if self.sender_trusted and self._own_seat():
            self.proven = True  # the password of a seat (or game) of this very address
        if signed.co_master:
            self.add_note(f"Signed on as a co-GM of game '{signed.game_name}'.")
        elif signed.role == Role.GM:
            self.add_note(f"Signed on as the master of game '{signed.game_name}'.")
        elif signed.role == Role.OBSERVER:
            self.add_note(f"Signed on as an observer of game '{signed.game_name}'.")
        else:
            self.add_note(f"Signed on as {signed.power_name} in game '{signed.game_name}'.")

    def _own_seat(self) -> bool:
        """Whether the seat (or game) signed on to is registered to the sender's address."""
        if self.master:
            return self.game is not None and (self.game.master_email or "").lower() == self.sender
        return self.seat is not None and self.seat.email.lower() == self.sender

    def sign_on_token(self, token: str) -> bool:
        """A personal reply address: sign its seat on without a password."""
        signed = identity.sign_on_by_token(self.judge, self.uow, token)
        if signed is None:
            return False
        self.enter(signed)
        return True

    def enter(self, signed: identity.SignOn, *, status: bool = True) -> None:
        """Act for a sign-on from now on (its address of record gets a copy of the reply);
        ``status``: end the reply with its power's orders."""
        seat = self.db.get_one(Player, signed.seat_id) if signed.seat_id is not None else None
        self._enter(signed.game_id, seat, master=signed.role == Role.GM, status=status)
        self.co_master = signed.co_master
        if signed.record_address:
            self._note_sender(signed.record_address)

    def enter_as_creator(self, game_id: int) -> None:
        """The sender just created this game: its master for the rest of the mail."""
        self.game, self.master, self.seat = self.db.get_one(Game, game_id), True, None
        self.co_master = False

    def sign_on_new_seat(self, game: Game, seat: Player) -> None:
        self._enter(game.id, seat)

    def _enter(self, game_id: int, seat: Player | None, *, master: bool = False, status: bool = True) -> None:
        # Lock the game for the rest of this mail's transaction, so that its phase cannot
        # change under the mail (a turn being processed meanwhile waits, or is skipped).
        game = self.uow.lock_game(game_id) or self.db.get_one(Game, game_id)
        self.game = game
        self.seat = seat
        self.master = master
        self.co_master = False
        self.acting_power = None
        self.target_phase = None
        self.stop_on_error = False
        if status and seat is not None and seat.power and seat.role == SeatRole.PLAYER:
            self._want_status(game, seat.power)

    def want_status(self, power: str) -> None:
        """End the reply with this power's orders."""
        self._want_status(self.require_game(), power)

    def _want_status(self, game: Game, power: str) -> None:
        key = (game.id, power)
        if key not in self.status_keys:
            self.status_keys.append(key)

    def become(self, power: str) -> str:
        """The master acts as ``power`` for the rest of the mail; returns the power's name."""
        became = identity.become(self.judge, self.uow, self.actor(), power)
        if became.record_address is not None:
            self._note_sender(became.record_address)
        self.acting_power = became.power
        self._want_status(self.require_game(), became.power)
        return became.power_name

    def find_game(self, name: str) -> Game:
        game = queries.game_by_name(self.db, name.strip())
        if game is None:
            raise CommandError(f"there is no game called '{name.strip()}'")
        return game

    # -- orders -------------------------------------------------------------------------------
    def open_phase(self) -> Phase:
        game = self.require_game()
        phase = self.uow.open_phase_of(game)  # remembered for the mail's transaction
        if phase is None or game.status not in RUNNING:
            raise CommandError(f"game '{game.name}' is not running ({game.status})")
        return phase

    def can_order(self) -> bool:
        return self.game is not None and self.power is not None

    def not_a_command_reason(self) -> str:
        if self.game is None:
            return "Error: not a command, and you are not signed on (SIGNON <power letter><game> <password>)."
        return "Error: not a command (sign on as a power, or BECOME one, to give orders)."

    def order_line(self, line: str) -> None:
        game = self.require_game()
        power = self.power
        assert power is not None  # can_order() was checked by the finder
        item = self.echo(line, [])
        try:
            self.open_phase()
        except (CommandError, DomainError) as error:
            item.notes.append(f"Error: {refusal_text(error)}")
            return
        target = self.target_phase or ""  # "" means the phase open when the orders are stored
        if self.pending is None or self.pending.power != power or self.pending.phase != target:
            self.flush_orders()
            self.pending = PendingOrders(power=power, phase=target)
        for part in order_service.split_order_line(line):
            self.pending.items.append((item, part))
        self._want_status(game, power)

    def flush_orders(self) -> None:
        pending, self.pending = self.pending, None
        if pending is None or not pending.items or self.game is None:
            return
        game = self.game
        phase = self.uow.open_phase_of(game)
        if phase is None:
            return
        try:
            receipt = order_service.submit_orders(self.judge, self.uow, self._order_actor(pending.power), game,
                                                  [part for _, part in pending.items], pending.phase or None)
        except DomainError as error:  # e.g. the game ended earlier in this very mail (a draw, a concession)
            for item, _ in pending.items:
                item.notes.append(f"Error: {refusal_text(error)}")
            return
        if receipt.advance:
            self.orders_accepted += len(pending.items)
            for item, _ in pending.items:
                if not item.notes:
                    item.notes.append(f"Stored for {receipt.phase}; it will be checked when that phase begins.")
            return
        for (item, part), result in zip(pending.items, receipt.lines, strict=False):
            if not result.ok:
                why = mask_passwords(result.error or "not a valid order")  # it may quote the line
                item.notes.append(f"Error in '{mask_passwords(part)}': {why}")
            else:
                self.orders_accepted += 1
        if not receipt.stored:
            self.add_note("Erroneous orders: nothing from this message was saved (whole-set orders).")
            return

    def _order_actor(self, power: str) -> Actor:
        """The actor the order use cases see: the power's player, or the GM acting for it (BECOME)."""
        role = Role.GM if self.master else Role.PLAYER
        return Actor(self.sender, role, self.game.id if self.game else None, power,
                     self.seat.id if self.seat else None, co_master=self.master and self.co_master)

    def clear_orders(self) -> None:
        self.flush_orders()
        game = self.require_game()
        power = self.power
        if power is None:
            raise CommandError("only a power has orders to clear")
        order_service.clear_orders(self.judge, self.uow, self._order_actor(power), game, self.target_phase)
        self._want_status(game, power)

    def set_target_phase(self, words: str) -> None:
        self.flush_orders()
        code = parse_phase_words(words)
        if code is None:
            raise CommandError("say the phase as S1902M or 'Spring 1902 Movement' (a season, a year of 4 to 10 "
                               "digits, a kind)")
        self.target_phase = None if code == self.open_phase().code else code

    # -- press --------------------------------------------------------------------------------
    def finish_collector(self) -> None:
        collector, self.collector = self.collector, None
        if collector is not None:
            try:
                collector.finish(self)
            except (CommandError, DomainError) as error:
                self.add_note(f"Error: {refusal_text(error)}")

    # -- the reply ------------------------------------------------------------------------------
    def _seat_of(self, game: Game, power: str) -> Player | None:
        """The seat of ``power``: the one signed on, mostly (no query then)."""
        seat = self.seat
        if seat is not None and seat.game_id == game.id and seat.power == power:
            return seat
        return queries.seat_for_power(self.db, game.id, power)

    def status_views(self) -> list[dict[str, Any]]:
        views = []
        for game_id, power in self.status_keys:
            game = self.db.get_one(Game, game_id)
            phase = self.uow.open_phase_of(game)
            if phase is None or game.status not in RUNNING:
                continue
            status = order_service.power_status(self.judge, self.uow, self._order_actor(power), game, power)
            if status is None:
                continue
            seat = self._seat_of(game, power)
            retreats = [retreat_line(c) for c in retreat_choices(phase.state_before, power)] if phase.code.endswith(
                "R") else []
            views.append(
                {
                    "power_name": self.book(game).name(power),
                    "phase_code": phase.code,
                    "orders": status.orders,
                    "missing": status.missing,
                    "builds_missing": status.builds_missing,
                    "needs_orders": status.needs_orders,
                    "too_many": too_many_warning(status),
                    "wait": bool(seat and seat.wait),
                    "adjustment": PhaseKind.of(phase.code) is PhaseKind.ADJUSTMENT,
                    "retreats": retreats,
                    "advance": [advance_view(a) for a in advance_orders(self.uow, game, power, phase.code)],
                    **self._deadline(game, phase),
                }
            )
        return views

    def reply_header(self) -> dict[str, Any] | None:
        if self.game is None:
            return None
        game = self.game
        return {
            "judge_id": self.judge.settings.judge_id,
            "game": game.name,
            "variant": game.variant,
            "phase_code": game.phase or "forming",  # one name a phase everywhere (W1901A; F1901B read on input)
            "phase": game.phase or "forming",
            **self._deadline(game, self.uow.open_phase_of(game) if game.grace_until is not None else None),
        }

    @staticmethod
    def _deadline(game: Game, phase: Phase | None) -> dict[str, Any]:
        """``deadline_text`` (the date of the ``::`` line), ``deadline_sentence`` ("is ...", or in the
        grace period "passed on ...; the grace period ends ..."), ``grace_ends``."""
        shown = deadline_text(game.deadline, game.grace_until, phase.deadline if phase else None,
                              options_of(game).timezone)
        return {"deadline_text": shown.at, "deadline_sentence": shown.sentence, "grace_ends": shown.grace_ends}

    def layout(self) -> str:
        return options_of(self.game).layout if self.game else GameOptions().layout

    def reply_subject(self) -> str:
        """``Re: <the mail's subject>`` (threaded by clients); the judge's title when it had none."""
        title = "Judge reply"
        if self.game is not None and self.game.phase:
            title = ruleset_for(self.game.variant).reply_subject(self.game.name, self.game.phase)
        return answer_subject(self.subject, title)
