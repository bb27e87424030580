"""Days of Decision III mail commands: BID, MOVEDOWN, STAY, OPTION, PASS and the GM's DOD3 ... commands.

Same registry style as the other command modules: tiny handler classes that call the
services layer (``app.services.dod3``); they never touch the database themselves.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from app.mail.commands import Command, CommandError, register

if TYPE_CHECKING:
    from app.services.mail_session import MailSession

_BID = re.compile(r"^(?P<power>\S+(?:\s+\S+)*?)\s+(?P<points>-?\d+)(?:\s+OPTIONS?\s+(?P<options>\d+))?\s*$", re.IGNORECASE)
_MOVE = re.compile(r"^(?P<power>.+?)\s+BELOW\s+(?P<below>.+?)\s*$", re.IGNORECASE)
_OPTION = re.compile(r"^(?P<power>\S+)\s+(?P<option>.+?)(?:\s+MINOR\s+(?P<minor>.+?))?\s*$", re.IGNORECASE)


def _service():  # type: ignore[no-untyped-def]
    from app.services import dod3

    return dod3


def _power_or_own(ctx: MailSession, args: str) -> str:
    words = args.split()
    if words:
        return " ".join(words)
    if ctx.seat is not None and ctx.seat.power:
        return ctx.seat.power
    raise CommandError("say which power")


@register
class Bid(Command):
    names = ("BID",)
    help = "BID <power> <points> [OPTIONS <n>] -- (DoD III) a secret initiative bid; 0 = no bid."
    role = "player"

    def process(self, ctx: MailSession, args: str) -> None:
        match = _BID.match(args.strip())
        if not match:
            raise CommandError("usage: BID <power> <points> [OPTIONS <n>]")
        _service().bid(ctx, match["power"], match["points"], match["options"])


@register
class MoveDown(Command):
    names = ("MOVEDOWN", "MOVE DOWN")
    help = "MOVEDOWN <power> BELOW <power> | STAY <power> -- (DoD III) a Democrat's move down the track."
    role = "player"

    def process(self, ctx: MailSession, args: str) -> None:
        match = _MOVE.match(args.strip())
        if not match:
            raise CommandError("usage: MOVEDOWN <power> BELOW <power>")
        _service().move_down(ctx, match["power"], match["below"])


@register
class Stay(Command):
    names = ("STAY",)
    role = "player"

    def process(self, ctx: MailSession, args: str) -> None:
        _service().move_down(ctx, _power_or_own(ctx, args), None)


@register
class OptionCommand(Command):
    names = ("OPTION",)
    help = "OPTION <power> <option> [MINOR <minor>] | PASS <power> -- (DoD III) political affairs."
    role = "player"

    def process(self, ctx: MailSession, args: str) -> None:
        match = _OPTION.match(args.strip())
        if not match:
            raise CommandError("usage: OPTION <power> <option> [MINOR <minor>], e.g. OPTION IT IPO 3 MINOR Albania")
        _service().play_option(ctx, match["power"], match["option"], match["minor"])


@register
class Pass(Command):
    names = ("PASS",)
    role = "player"

    def process(self, ctx: MailSession, args: str) -> None:
        _service().play_option(ctx, _power_or_own(ctx, args), None)


# -- the GM ------------------------------------------------------------------------------------


class Dod3Master(Command):
    role = "master"
    keyword = ""

    def process(self, ctx: MailSession, args: str) -> None:
        ctx.add_note(_service().gm_entry(ctx, self.keyword, args.split()))


def _gm(keyword: str, usage: str, *aliases: str) -> type[Command]:
    cls = type(f"Dod3{keyword.title()}", (Dod3Master,), {
        "names": (f"DOD3 {keyword}",) + tuple(f"DOD3 {a}" for a in aliases),
        "help": usage,
        "keyword": keyword,
    })
    return register(cls)


_gm("SET", "DOD3 SET COST <option> <n> | NEEDED <power> <n> | RULE86 ON | BITTEREND ON | WEATHER <months> "
           "<r1,...,r10> | HOURS <step> <n> -- (DoD III GM) set-up data")
_gm("OBJECTIVES", "DOD3 OBJECTIVES <power> <n> -- (DoD III GM) objectives a power controls")
_gm("NEUTRAL", "DOD3 NEUTRAL <objective> <power> <distance> ... | NONE -- (DoD III GM) a neutral objective")
_gm("PE", "DOD3 PE|PEMOD|MONEY|CREDIT|BIDPOINTS|USENTRY <power> <value> -- (DoD III GM) set a power's number")
for _keyword in ("PEMOD", "MONEY", "CREDIT", "BIDPOINTS", "USENTRY"):
    _gm(_keyword, "")
_gm("WAR", "DOD3 WAR <power> <enemy>... | DOD3 WAR <power> PEACE <enemy>... -- (DoD III GM) wars between powers")
_gm("CONQUERED", "DOD3 CONQUERED <power> YES|NO -- (DoD III GM) a power completely conquered")
_gm("PEHIDDEN", "DOD3 PEHIDDEN <power> YES|NO -- (DoD III GM) turn a PE marker face down or up")
_gm("EFFECT", "DOD3 EFFECT [<power>] <text> -- (DoD III GM) the effects of the latest option played")
_gm("RECORD", "DOD3 RECORD <text> -- (DoD III GM) military affairs, production, conquest... for the report")
_gm("WEATHER", "DOD3 WEATHER <result> -- (DoD III GM) the weather, when there is no chart")
_gm("TALLY", "DOD3 TALLY -- (DoD III GM) the victory tally now (also printed in the turn report)")


@register
class Dod3Process(Command):
    names = ("DOD3 PROCESS",)
    help = "DOD3 PROCESS [<step>] -- (DoD III GM) close the open step now (steps E-I: end the turn)."
    role = "master"

    def process(self, ctx: MailSession, args: str) -> None:
        ctx.add_note(_service().process_now(ctx, args.split()[0] if args.split() else None))


@register
class Dod3Status(Command):
    names = ("DOD3 STATUS",)
    help = "DOD3 STATUS -- (DoD III GM) the game as it stands, face-down PE included."
    role = "master"

    def process(self, ctx: MailSession, args: str) -> None:
        ctx.add_section(_service().gm_status(ctx))


@register
class Dod3Create(Command):
    names = ("DOD3 CREATE",)
    help = "DOD3 CREATE <game> <password> [PRESET <grouping>] -- a new DoD III game with you as its GM."
    secret_args = True

    def process(self, ctx: MailSession, args: str) -> None:
        words = args.split()
        if len(words) < 2:
            raise CommandError("usage: DOD3 CREATE <game> <password> [PRESET <grouping> [SOVIETS <side>]]")
        upper = [w.upper() for w in words]
        setup: dict[str, object] = {}
        if "PRESET" in upper[2:-1]:
            setup["preset"] = words[upper.index("PRESET") + 1]
        if "SOVIETS" in upper[2:-1]:
            setup["soviet_with"] = words[upper.index("SOVIETS") + 1]
        service = _service()
        game = service.create_game(ctx.db, ctx.judge, words[0], ctx.sender, words[1], setup, {})
        ctx._enter(game, None, master=True)
        players = ", ".join(name for name, _ in service.setup_of(game).players)
        ctx.add_note(f"Game '{game.name}' (Days of Decision III) created; you are its GM. Players: {players}. "
                     f"Seat them with DOD3 SEAT <player> <address> <password>, then DOD3 START.")


@register
class Dod3Seat(Command):
    names = ("DOD3 SEAT",)
    help = "DOD3 SEAT <player> <address> <password> -- (DoD III GM) seat a player (all the player's powers)."
    role = "master"
    secret_args = True

    def process(self, ctx: MailSession, args: str) -> None:
        words = args.split()
        if len(words) != 3 or "@" not in words[1]:
            raise CommandError("usage: DOD3 SEAT <player, e.g. CW+FR> <address> <password>")
        seats = _service().add_player(ctx.db, ctx.require_game(), words[0], words[1], words[2])
        ctx.add_note(f"{words[0]} seated: {', '.join(s.power or '?' for s in seats)}.")


@register
class Dod3Start(Command):
    names = ("DOD3 START",)
    help = "DOD3 START -- (DoD III GM) start the game: Jan/Feb 1936 begins."
    role = "master"

    def process(self, ctx: MailSession, args: str) -> None:
        text = _service().start_game(ctx.db, ctx.judge, ctx.require_game())
        ctx.add_note(f"The game has started. {text}")
