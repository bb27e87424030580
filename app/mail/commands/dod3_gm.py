"""The GM's DOD3 entries by mail: DOD3 SET, NEUTRAL, the numbers (PE, PEMOD, MONEY, CREDIT,
BIDPOINTS, OBJECTIVES, USENTRY: ``+N`` / ``-N`` add, a bare number sets), WAR, CONQUERED,
PEHIDDEN, EFFECT, RECORD, WEATHER and TALLY. Each parses its words and calls a use case of
``app.services.dod3``."""

from __future__ import annotations

from fractions import Fraction

from app.dod3.exact import format_number, parse_number
from app.dod3.powers import normalise_power
from app.dod3.report import tally_lines
from app.mail.commands.dod3_door import Dod3Command, actor_of, name, signed
from app.mail.commands.registry import CommandError, CommandRole, register
from app.mail.commands.session import MailSession
from app.services.dod3 import gm_entries, options, report, setup
from app.services.dod3.gm_entries import NumberEntry, PowerField
from app.services.dod3.setup import SetupItem

__all__ = ["number_entry"]

_ON = {"ON": True, "YES": True, "TRUE": True, "OFF": False, "NO": False, "FALSE": False}
_WORDS = {PowerField.PE: "PE", PowerField.PEMOD: "PE modifier", PowerField.MONEY: "money",
          PowerField.CREDIT: "credit limit", PowerField.BIDPOINTS: "bid points", PowerField.OBJECTIVES: "objectives",
          PowerField.USENTRY: "US entry"}
_SET_USAGE = ("DOD3 SET COST <option> <n> | NEEDED <power> <n> | RULE86 ON|OFF | BITTEREND ON|OFF"
              " | WEATHER <months> <10 results, comma-separated> | MODIFIERS <8 numbers> | "
              "HOURS <bids|movedown|weather|option|gm> <n>")


def _number(text: str, what: str = "number") -> Fraction:
    try:
        return parse_number(text, what=what)
    except ValueError as error:
        raise CommandError(str(error).strip("'\"")) from error


def number_entry(text: str, what: str = "number") -> NumberEntry:
    """``+2`` and ``-1/2`` add; ``4`` (or ``0``) sets; ``=-2`` sets a negative number."""
    if text.startswith("=") and len(text) > 1:
        return NumberEntry(_number(text[1:], what), relative=False)
    relative = text[:1] in "+-" and len(text) > 1
    return NumberEntry(_number(text, what), relative=relative)


def _yes_no(args: list[str], usage: str) -> tuple[str, bool]:
    if len(args) != 2 or args[1].upper() not in ("YES", "NO"):
        raise CommandError(f"usage: {usage}")
    return args[0], args[1].upper() == "YES"


class Dod3Number(Dod3Command):
    role = CommandRole.MASTER
    field = PowerField.PE

    def run(self, ctx: MailSession, args: str) -> None:
        words = args.split()
        if len(words) != 2:
            raise CommandError(f"usage: DOD3 {self.field.name} <power> <value> (+N or -N adds, N or =N sets)")
        done = gm_entries.change_number(ctx.judge, ctx.uow, actor_of(ctx), words[0], self.field,
                                        number_entry(words[1], self.field.name.lower()))
        words_of = _WORDS[done.field]
        change = f" ({signed(done.new - done.old)})" if done.entry.relative else ""
        if done.setup:
            ctx.add_note(f"Set-up: {name(done.power)} {words_of} {format_number(done.new)}{change}.")
        else:
            ctx.add_note(f"{name(done.power)}: {words_of} is now {format_number(done.new)}{change}.")


_NUMBER_HELP = ("DOD3 PE|PEMOD|MONEY|CREDIT|BIDPOINTS|OBJECTIVES|USENTRY <power> <value> -- (DoD III GM) a power's "
                "number: +N or -N adds, N (or =-N) sets")
for _field in PowerField:
    register(type(f"Dod3{_field.name.title()}", (Dod3Number,), {
        "names": (f"DOD3 {_field.name}",), "field": _field,
        "help": _NUMBER_HELP if _field is PowerField.PE else "",
    }))


@register
class Dod3Set(Dod3Command):
    names = ("DOD3 SET",)
    help = ("DOD3 SET COST <option> <n> | NEEDED <power> <n> | RULE86 ON | BITTEREND ON | WEATHER <months> "
            "<r1,...,r10> | HOURS <step> <n> -- (DoD III GM) set-up data")
    role = CommandRole.MASTER

    def run(self, ctx: MailSession, args: str) -> None:
        words = args.split()
        item, rest = (words[0].upper(), words[1:]) if words else ("", [])
        actor = actor_of(ctx)
        if item == "COST" and len(rest) >= 2:
            done = setup.set_setup(ctx.judge, ctx.uow, actor, SetupItem.COST, " ".join(rest[:-1]), [_number(rest[-1])])
            ctx.add_note(f"Cost of {done.key}: {rest[-1]}.")
        elif item == "NEEDED" and len(rest) == 2:
            done = setup.set_setup(ctx.judge, ctx.uow, actor, SetupItem.NEEDED, rest[0], [_number(rest[1])])
            ctx.add_note(f"{name(done.key)} needs {rest[1]} objectives.")
        elif item in ("RULE86", "8.6", "BITTEREND", "4.1") and len(rest) == 1 and rest[0].upper() in _ON:
            which = SetupItem.RULE86 if item in ("RULE86", "8.6") else SetupItem.BITTEREND
            on = _ON[rest[0].upper()]
            setup.set_setup(ctx.judge, ctx.uow, actor, which, "", [on])
            ctx.add_note(f"Option {'8.6' if which is SetupItem.RULE86 else '4.1 Bitter end'}: {'on' if on else 'off'}.")
        elif item == "WEATHER" and len(rest) >= 2:
            results = [r.strip() for r in " ".join(rest[1:]).split(",")]
            done = setup.set_setup(ctx.judge, ctx.uow, actor, SetupItem.WEATHER, rest[0], results)
            ctx.add_note(f"Weather chart {done.key}: {', '.join(results)}.")
        elif item == "MODIFIERS" and len(rest) == 1:
            setup.set_setup(ctx.judge, ctx.uow, actor, SetupItem.MODIFIERS, "", [_number(m) for m in rest[0].split(",")])
            ctx.add_note(f"Bid modifiers: {rest[0]}.")
        elif item == "HOURS" and len(rest) == 2:
            done = setup.set_setup(ctx.judge, ctx.uow, actor, SetupItem.HOURS, rest[0], [_number(rest[1])])
            ctx.add_note(f"Deadline for {done.key}: {rest[1]} hours.")
        else:
            raise CommandError(_SET_USAGE)


@register
class Dod3Neutral(Dod3Command):
    names = ("DOD3 NEUTRAL",)
    help = "DOD3 NEUTRAL <objective> <power> <distance> ... | NONE -- (DoD III GM) a neutral objective"
    role = CommandRole.MASTER

    def run(self, ctx: MailSession, args: str) -> None:
        words = args.split()
        if len(words) < 2:
            raise CommandError("usage: DOD3 NEUTRAL <objective> <power> <distance> [...] | DOD3 NEUTRAL <objective> NONE")
        objective = words[0].replace("_", " ")
        pairs = [] if words[1].upper() == "NONE" else words[1:]
        if len(pairs) % 2:
            raise CommandError("give a distance for each power")
        try:
            distances = [(pairs[i], int(pairs[i + 1])) for i in range(0, len(pairs), 2)]
        except ValueError as error:
            raise CommandError("a distance is a whole number of hexes") from error
        done = setup.set_neutral(ctx.judge, ctx.uow, actor_of(ctx), objective, distances)
        if not done.distances:
            ctx.add_note(f"{done.name} no longer counts as a neutral objective.")
        else:
            ctx.add_note(f"Neutral objective {done.name}: " + ", ".join(f"{p} {d}" for p, d in done.distances) + ".")


@register
class Dod3War(Dod3Command):
    names = ("DOD3 WAR",)
    help = "DOD3 WAR <power> <enemy>... | DOD3 WAR <power> PEACE <enemy>... -- (DoD III GM) wars between powers"
    role = CommandRole.MASTER

    def run(self, ctx: MailSession, args: str) -> None:
        words = args.split()
        if len(words) < 2:
            raise CommandError("usage: DOD3 WAR <power> <enemy> [<enemy>...] | DOD3 WAR <power> PEACE <enemy>")
        peace = words[1].upper() == "PEACE"
        done = gm_entries.set_war(ctx.judge, ctx.uow, actor_of(ctx), words[0], words[2:] if peace else words[1:],
                                  at_war=not peace)
        ctx.add_note(f"{name(done.power)} at {'war' if done.on else 'peace'} with "
                     f"{', '.join(name(e) for e in done.others)}.")


@register
class Dod3Conquered(Dod3Command):
    names = ("DOD3 CONQUERED",)
    help = "DOD3 CONQUERED <power> YES|NO -- (DoD III GM) a power completely conquered"
    role = CommandRole.MASTER

    def run(self, ctx: MailSession, args: str) -> None:
        power, yes = _yes_no(args.split(), "DOD3 CONQUERED <power> YES|NO")
        done = gm_entries.set_conquered(ctx.judge, ctx.uow, actor_of(ctx), power, yes)
        ctx.add_note(f"{name(done.power)} is " + ("conquered." if done.on else "not conquered."))


@register
class Dod3PeHidden(Dod3Command):
    names = ("DOD3 PEHIDDEN",)
    help = "DOD3 PEHIDDEN <power> YES|NO -- (DoD III GM) turn a PE marker face down or up"
    role = CommandRole.MASTER

    def run(self, ctx: MailSession, args: str) -> None:
        power, yes = _yes_no(args.split(), "DOD3 PEHIDDEN <power> YES|NO")
        done = gm_entries.set_pe_hidden(ctx.judge, ctx.uow, actor_of(ctx), power, yes)
        ctx.add_note(f"{name(done.power)}'s PE marker is face " + ("down." if done.on else "up."))


@register
class Dod3Effect(Dod3Command):
    names = ("DOD3 EFFECT",)
    help = "DOD3 EFFECT [<power>] <text> -- (DoD III GM) the effects of the latest option played"
    role = CommandRole.MASTER

    def run(self, ctx: MailSession, args: str) -> None:
        words = args.split()
        power: str | None = None
        if words:
            try:
                power = normalise_power(words[0])
            except ValueError:
                power = None
        text = " ".join(words[1:] if power is not None else words)
        done = gm_entries.record_effect(ctx.judge, ctx.uow, actor_of(ctx), power, text)
        ctx.add_note(f"Effects of {done.power} {done.option} recorded.")


@register
class Dod3Record(Dod3Command):
    names = ("DOD3 RECORD",)
    help = "DOD3 RECORD <text> -- (DoD III GM) military affairs, production, conquest... for the report"
    role = CommandRole.MASTER

    def run(self, ctx: MailSession, args: str) -> None:
        gm_entries.record_text(ctx.judge, ctx.uow, actor_of(ctx), args)
        ctx.add_note("Recorded.")


@register
class Dod3Weather(Dod3Command):
    names = ("DOD3 WEATHER",)
    help = "DOD3 WEATHER <result> -- (DoD III GM) the weather, when there is no chart"
    role = CommandRole.MASTER

    def run(self, ctx: MailSession, args: str) -> None:
        done = gm_entries.record_weather_result(ctx.judge, ctx.uow, actor_of(ctx), args)
        ctx.add_note(f"Weather recorded: {done.text}.")


@register
class Dod3Tally(Dod3Command):
    names = ("DOD3 TALLY",)
    help = "DOD3 TALLY -- (DoD III GM) the victory tally now (also printed in the turn report)"
    role = CommandRole.MASTER

    def run(self, ctx: MailSession, args: str) -> None:
        done = report.show_tally(ctx.judge, ctx.uow, actor_of(ctx))
        ctx.add_section("\n".join(tally_lines(done.tally, final=done.finished)))
        ctx.add_note("The final victory tally: the game is over." if done.finished
                     else "Victory tally computed; it will also appear in this turn's report.")


@register
class Dod3Settle(Dod3Command):
    names = ("DOD3 SETTLE",)
    help = ("DOD3 SETTLE <power> <option> YES|NO|CANCEL -- (DoD III GM) a pending option (rule 8.4) succeeds "
            "(its cost is paid) or fails (nothing is paid)")
    role = CommandRole.MASTER

    def run(self, ctx: MailSession, args: str) -> None:
        words = args.split()
        if len(words) < 3 or words[-1].upper() not in ("YES", "NO", "CANCEL"):
            raise CommandError("usage: DOD3 SETTLE <power> <option> YES|NO|CANCEL")
        verdict = words[-1].upper()
        done = options.settle_pending(ctx.judge, ctx.uow, actor_of(ctx), words[0], " ".join(words[1:-1]),
                                      verdict == "YES")
        if done.succeeded:
            ctx.add_note(f"{name(done.power)} {done.option} succeeds; {done.paid} paid.")
        else:
            ctx.add_note(f"{name(done.power)} {done.option} " + ("is cancelled" if verdict == "CANCEL" else "fails")
                         + "; nothing is paid.")
