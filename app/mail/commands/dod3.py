"""Days of Decision III mail commands: BID, MOVEDOWN, STAY, OPTION, PASS, DOD3 STATUS and the
GM's DOD3 CREATE, SEAT, START, PROCESS (the GM's entries are in ``app.mail.commands.dod3_gm``).

Each command parses its words, calls one use case of ``app.services.dod3`` with the mail's
actor and writes the reply from the value it returns.
"""

from __future__ import annotations

import re
from dataclasses import replace

import app.mail.commands.dod3_gm  # noqa: F401  -- registers the GM's DOD3 entries
from app.db.statuses import GameStatus
from app.dod3.political import PlayStatus
from app.dod3.report import play_line, roll_lines
from app.mail.commands.dod3_door import Dod3Command, actor_of, name, step_outcome
from app.mail.commands.registry import CommandError, CommandRole, register
from app.mail.commands.session import MailSession
from app.services.dod3 import gm_entries, options, player_commands, report, setup

__all__ = ["status_text"]

_BID = re.compile(r"^(?P<power>\S+(?:\s+\S+)*?)\s+(?P<points>-?\d+)(?:\s+OPTIONS?\s+(?P<options>\d+))?\s*$", re.IGNORECASE)
_MOVE = re.compile(r"^(?P<power>.+?)\s+BELOW\s+(?P<below>.+?)\s*$", re.IGNORECASE)
_OPTION = re.compile(r"^(?P<power>\S+)\s+(?P<option>.+?)(?:\s+MINOR\s+(?P<minor>.+?))?\s*$", re.IGNORECASE)


def _power_or_own(ctx: MailSession, args: str) -> str:
    words = args.split()
    if words:
        return " ".join(words)
    if ctx.seat is not None and ctx.seat.power:
        return ctx.seat.power
    raise CommandError("say which power")


@register
class Bid(Dod3Command):
    names = ("BID",)
    help = "BID <power> <points> [OPTIONS <n>] -- (DoD III) a secret initiative bid; 0 = no bid."
    role = CommandRole.PLAYER

    def run(self, ctx: MailSession, args: str) -> None:
        match = _BID.match(args.strip())
        if not match:
            raise CommandError("usage: BID <power> <points> [OPTIONS <n>]")
        options = int(match["options"]) if match["options"] is not None else 1
        done = player_commands.place_bid(ctx.judge, ctx.uow, actor_of(ctx), match["power"], int(match["points"]),
                                         options)
        ctx.add_note(f"Bid recorded: {name(done.power)} " + (f"{done.points} bid point{'' if done.points == 1 else 's'}" if done.points else "no bid")
                     + (f" for {done.options} options" if done.options > 1 else "")
                     + f". It stays secret until the deadline ({done.deadline}).")
        ctx.add_note("Your bids this turn: " + "; ".join(f"{p} {points}" + (f" for {n} options" if n != 1 else "")
                                                         for p, points, n in done.own_bids) + ".")
        if done.revealed is not None:
            ctx.add_note(f"Every power has bid (0 = no bid): the bids are revealed "
                         f"(next step {done.revealed.next_phase}).")


def _move(ctx: MailSession, power: str, below: str | None) -> None:
    done = player_commands.move_down(ctx.judge, ctx.uow, actor_of(ctx), power, below)
    ctx.add_note(f"{name(done.power)}: " + (f"moves down below {name(done.below)}." if done.below
                                            else "stays where it is."))
    if done.settled is not None:
        ctx.add_note(f"Every Democrat has answered: the track is settled (next step {done.settled.next_phase}).")


@register
class MoveDown(Dod3Command):
    names = ("MOVEDOWN", "MOVE DOWN")
    help = "MOVEDOWN <power> BELOW <power> | STAY <power> -- (DoD III) a Democrat's move down the track."
    role = CommandRole.PLAYER

    def run(self, ctx: MailSession, args: str) -> None:
        match = _MOVE.match(args.strip())
        if not match:
            raise CommandError("usage: MOVEDOWN <power> BELOW <power>")
        _move(ctx, match["power"], match["below"])


@register
class Stay(Dod3Command):
    names = ("STAY",)
    role = CommandRole.PLAYER

    def run(self, ctx: MailSession, args: str) -> None:
        _move(ctx, _power_or_own(ctx, args), None)


def _option(ctx: MailSession, power: str, option: str | None, minor: str | None, pending: bool = False) -> None:
    done = options.play_option(ctx.judge, ctx.uow, actor_of(ctx), power, option, minor, pending=pending)
    if done.play is None:
        ctx.add_note(f"{name(done.power)} passes.")
        return
    lines = [play_line(done.play)]
    if done.option_die is not None:
        lines.append(f"The judge rolls for {done.play.option}: d10 = {done.option_die}.")
    if done.play.status == PlayStatus.PENDING:
        lines.append("The GM settles it (rule 8.4); its cost is paid only if it succeeds.")
    lines += roll_lines(done.roll, done.roll_counter) if done.roll is not None else []
    ctx.add_note(" ".join(lines))


@register
class OptionCommand(Dod3Command):
    names = ("OPTION",)
    help = ("OPTION <power> <option> [MINOR <minor>] [PENDING] | PASS <power> -- (DoD III) political affairs; "
            "PENDING: the option needs another power's approval (rule 8.4)")
    role = CommandRole.PLAYER

    def run(self, ctx: MailSession, args: str) -> None:
        words = args.split()
        pending = bool(words) and words[-1].upper() == "PENDING"
        match = _OPTION.match(" ".join(words[:-1] if pending else words))
        if not match:
            raise CommandError("usage: OPTION <power> <option> [MINOR <minor>] [PENDING], "
                               "e.g. OPTION IT IPO 3 MINOR Albania")
        _option(ctx, match["power"], match["option"], match["minor"], pending)


@register
class Pass(Dod3Command):
    names = ("PASS",)
    role = CommandRole.PLAYER

    def run(self, ctx: MailSession, args: str) -> None:
        _option(ctx, _power_or_own(ctx, args), None, None)


def status_text(ctx: MailSession) -> str:
    """A DoD III game's status for the signed-on GM or player (also what a plain STATUS should
    show in a DoD III game): the report view, the open step, who has bid, one's own bids."""
    view = report.show_status(ctx.judge, ctx.uow, actor_of(ctx))
    events = list(view.report.events)
    if view.step is None:
        upcoming = ("The game has not started yet (DOD3 START)." if view.status == GameStatus.FORMING
                    else "The game is over." if view.status == GameStatus.FINISHED else "No step is open.")
    else:
        upcoming = f"Open step {view.step}, deadline {view.deadline}."
    if view.bids_in or view.bids_missing:
        events.append(f"{len(view.bids_in)} power(s) have sent a bid (amounts stay secret until the deadline).")
        if view.bids_missing:
            events.append("Still to bid: " + ", ".join(name(p) for p in view.bids_missing) + ".")
    if view.own_bids:
        events.append("Your bids this turn: " + "; ".join(f"{p} {points}" + (f" for {n} options" if n != 1 else "")
                                                          for p, points, n in view.own_bids) + ".")
    shown = replace(view.report, events=tuple(events), next=upcoming, next_commitment=None)
    return ctx.judge.templates.render("mail/dod3/report.txt.j2", v=shown)


@register
class Dod3Status(Dod3Command):
    names = ("DOD3 STATUS",)
    help = ("DOD3 STATUS -- (DoD III) the game as it stands: the GM sees every number (also before the start and "
            "after the end), a player his own powers' hidden numbers and bids.")
    role = CommandRole.PLAYER

    def run(self, ctx: MailSession, args: str) -> None:
        ctx.add_section(status_text(ctx))


@register
class Dod3Process(Dod3Command):
    names = ("DOD3 PROCESS",)
    help = "DOD3 PROCESS [<step>] -- (DoD III GM) close the open step now (steps E-I: end the turn)."
    role = CommandRole.MASTER

    def run(self, ctx: MailSession, args: str) -> None:
        words = args.split()
        outcome = gm_entries.process_now(ctx.judge, ctx.uow, actor_of(ctx), words[0] if words else None)
        ctx.add_note(f"Processed {outcome.phase}; {step_outcome(outcome)}.")


@register
class Dod3Create(Dod3Command):
    names = ("DOD3 CREATE",)
    help = "DOD3 CREATE <game> <password> [PRESET <grouping>] -- a new DoD III game with you as its GM."
    secret_args = True

    def run(self, ctx: MailSession, args: str) -> None:
        words = args.split()
        if len(words) < 2:
            raise CommandError("usage: DOD3 CREATE <game> <password> [PRESET <grouping> [SOVIETS <side>]]")
        ctx.require_authenticated_sender("create a game")
        ctx.require_confirmed("create")
        upper = [w.upper() for w in words]
        preset = words[upper.index("PRESET") + 1] if "PRESET" in upper[2:-1] else None
        soviets = words[upper.index("SOVIETS") + 1] if "SOVIETS" in upper[2:-1] else None
        game, done = setup.new_dod3_game(ctx.judge, ctx.uow, actor_of(ctx), words[0], words[1], preset=preset,
                                         soviet_with=soviets)
        ctx._enter(game.id, None, master=True)
        ctx.add_note(f"Game '{done.game}' (Days of Decision III) created; you are its GM. Players: "
                     f"{', '.join(done.players)}. Seat them with DOD3 SEAT <player> <address> <password>, "
                     f"then DOD3 START.")


@register
class Dod3Seat(Dod3Command):
    names = ("DOD3 SEAT",)
    help = "DOD3 SEAT <player> <address> <password> -- (DoD III GM) seat a player (all the player's powers)."
    role = CommandRole.MASTER
    secret_args = True

    def run(self, ctx: MailSession, args: str) -> None:
        words = args.split()
        if len(words) != 3 or "@" not in words[1]:
            raise CommandError("usage: DOD3 SEAT <player, e.g. CW+FR> <address> <password>")
        done = setup.seat_player(ctx.judge, ctx.uow, actor_of(ctx), words[0], words[1], words[2])
        ctx.add_note(f"Waiting for {words[1]} to confirm: the judge mailed it one short confirmation, and "
                     f"{done.player} ({', '.join(done.powers)}) is seated only when it answers." if done.pending else
                     f"{done.player} seated: {', '.join(done.powers)}.")


@register
class Dod3Start(Dod3Command):
    names = ("DOD3 START",)
    help = "DOD3 START -- (DoD III GM) start the game: Jan/Feb 1936 begins."
    role = CommandRole.MASTER

    def run(self, ctx: MailSession, args: str) -> None:
        done = setup.start_game(ctx.judge, ctx.uow, actor_of(ctx))
        ctx.add_note(f"The game has started. {done.opened}")
