"""Commands anyone may send: HELP, LIST, HISTORY, SUMMARY, MAP, CREATE, JOIN, OBSERVE, TAKEOVER, SIGNON."""

from __future__ import annotations

from app.db.statuses import SeatRole
from app.mail.commands.dod3 import status_text
from app.mail.commands.errors import CommandError
from app.mail.commands.help_text import help_text
from app.mail.commands.registry import REGISTRY, Command, CommandRole, register
from app.mail.commands.session import MailSession
from app.mail.replies.lobby import render_game_info, render_games, render_history, render_joined, render_summary
from app.mail.replies.maps import render_map_reply
from app.services.games import identity, lobby
from app.services.readmodels import dashboard, listing
from app.services.results import maps as maps_cache
from app.services.ruleset.catalogue import variant_help
from app.services.ruleset.engine import DEFAULT_VARIANT
from app.services.ruleset.kinds import ruleset_for


def _words(args: str, least: int, usage: str) -> list[str]:
    words = args.split()
    if len(words) < least:
        raise CommandError(f"usage: {usage}")
    return words


@register
class SignOff(Command):
    names = ("SIGNOFF", "SIGN OFF")
    help = "SIGNOFF -- ends the commands of this mail (the rest, such as a signature, is ignored)."


@register
class SignOn(Command):
    names = ("SIGNON", "SIGN ON")
    help = ("SIGNON Fgame password | SIGNON france@game password | SIGNON master@game password | "
            "SIGNON ?game password (njudge: join a forming game, as JOIN)")
    secret_args = True

    def process(self, ctx: MailSession, args: str) -> None:
        words = _words(args, 2, "SIGNON <power letter><game> <password>")
        if words[0].startswith("?"):  # njudge's SIGNON ?game password [variant]: JOIN (issue 28.19)
            name = words[0][1:]
            if not name:
                raise CommandError("say which game: SIGNON ?game password (the judge does not pick one for you)")
            extra = words[2:]
            if extra and extra[0].lower() == ctx.find_game(name).variant.lower():
                extra = extra[1:]  # njudge names the variant: it is the game's own
            REGISTRY["JOIN"].process(ctx, " ".join([name, words[1], *extra]))  # the JOIN command, whatever it asks
            return
        ctx.sign_on(words[0], words[1])


@register
class Confirm(Command):
    names = ("CONFIRM",)
    help = ("CONFIRM code -- runs a waiting JOIN, OBSERVE, CREATE or TAKEOVER: the code is in the judge's "
            "confirmation mail (or reply to that mail).")

    def process(self, ctx: MailSession, args: str) -> None:
        words = _words(args, 1, "CONFIRM <code>")
        ctx.confirming.append(words[0])
        ctx.add_note("The waiting mail's commands run now; their answer comes in a mail of its own.")


@register
class Help(Command):
    names = ("HELP", "GET HELP")
    help = "HELP -- mails you this list of commands."

    def process(self, ctx: MailSession, args: str) -> None:
        role = (CommandRole.MASTER if ctx.master
                else CommandRole.PLAYER if ctx.seat is not None and ctx.seat.role == SeatRole.PLAYER
                else CommandRole.ANYONE)
        topics = ruleset_for(ctx.game.variant).help_topics if ctx.game is not None else None
        ctx.add_section(help_text(REGISTRY.values(), role, topics))
        extra = variant_help(ctx.game.variant) if ctx.game is not None else None  # its folder's `help`
        if extra:
            ctx.add_section(extra)


def _list_text(ctx: MailSession, name: str) -> str:
    if name:
        return render_game_info(listing.game_info(ctx.judge, ctx.uow, ctx.actor(), name))
    return render_games(listing.list_games(ctx.judge, ctx.uow, ctx.actor()))


@register
class ListGames(Command):
    names = ("LIST",)
    help = "LIST [game] -- the games on this judge, or one game's status."

    def process(self, ctx: MailSession, args: str) -> None:
        ctx.add_note(_list_text(ctx, args.strip()))  # right under its command line


@register
class History(Command):
    names = ("HISTORY",)
    help = "HISTORY game [FROM S1901M] [TO F1902M] -- all results of a game."

    def process(self, ctx: MailSession, args: str) -> None:
        words = _words(args, 1, "HISTORY <game> [FROM <phase>] [TO <phase>]")
        ctx.require_of_record("HISTORY")
        upper = [w.upper() for w in words]
        start = upper[upper.index("FROM") + 1] if "FROM" in upper[:-1] else None
        end = upper[upper.index("TO") + 1] if "TO" in upper[:-1] else None
        ctx.add_section(render_history(listing.game_history(ctx.judge, ctx.uow, ctx.actor(), words[0], start, end)))


@register
class Summary(Command):
    names = ("SUMMARY",)
    help = "SUMMARY game -- supply-centre counts per phase and the players."

    def process(self, ctx: MailSession, args: str) -> None:
        game = ctx.game
        if game is not None and "dod3" in ruleset_for(game.variant).help_topics and (
                not args.split() or args.split()[0].lower() == game.name.lower()):
            ctx.add_section(status_text(ctx))  # the DoD III game one is signed on to: its status report
            ending = listing.game_summary(ctx.judge, ctx.uow, ctx.actor(), game.name).ending
            if ending:  # and how it ended, once it has (a GM's ruling)
                ctx.add_section(ending.rstrip("\n"))
            return
        name = _words(args, 1, "SUMMARY <game>")[0]
        ctx.add_section(render_summary(listing.game_summary(ctx.judge, ctx.uow, ctx.actor(), name)))


@register
class MapCommand(Command):
    names = ("MAP",)
    help = "MAP game -- the current map: a picture (PNG), with the units and centres as text."

    def process(self, ctx: MailSession, args: str) -> None:
        name = args.split()[0] if args.split() else (ctx.game.name if ctx.game else "")
        if not name:
            raise CommandError("usage: MAP <game>")
        if not ruleset_for(ctx.find_game(name).variant).has_map:
            raise CommandError(f"game '{name}' has no map: send STATUS (signed on) or DOD3 STATUS")
        ctx.require_of_record("MAP")
        shown = maps_cache.current_map(ctx.judge, ctx.uow, ctx.actor(), name)
        if shown.map_id is not None:
            ctx.attach_map(shown.map_id)
        ctx.add_note(render_map_reply(shown, dashboard.show_public_game(ctx.judge, ctx.uow, ctx.actor(), name)))


@register
class Create(Command):
    names = ("CREATE",)
    help = "CREATE game password [variant] -- a new forming game with you as its master."
    secret_args = True

    def process(self, ctx: MailSession, args: str) -> None:
        words = _words(args, 2, "CREATE <game> <master password> [variant]")
        ctx.require_authenticated_sender("create a game")
        ctx.require_confirmed("create")
        variant = words[2].lower() if len(words) > 2 else DEFAULT_VARIANT
        created = lobby.create_game(ctx.judge, ctx.uow, ctx.actor(), words[0], words[1], variant)
        ctx.enter_as_creator(created.game_id)
        ctx.add_note(f"Game '{created.name}' ({created.variant}) created; you are its master.  Players JOIN it.")


def _join(ctx: MailSession, target: str, password: str, preferences: str = "", *, observe: bool = False) -> None:
    ctx.require_confirmed("observe" if observe else "join")
    power, at, name = target.partition("@")
    joined = lobby.join_game(ctx.judge, ctx.uow, ctx.actor(), name if at else target, password,
                             power=power if at and not observe else None, preferences=preferences, observe=observe)
    ctx.enter(identity.seat_sign_on(ctx.judge, ctx.uow, joined.seat_id), status=False)  # a new seat: no orders yet
    for note in render_joined(joined):
        ctx.add_note(note)


@register
class Join(Command):
    names = ("JOIN",)
    help = "JOIN game password [preferences] | JOIN france@game password -- join a forming game."
    secret_args = True
    secret_words = 1  # the password; the preferences after it are echoed (issue 28.21)

    def process(self, ctx: MailSession, args: str) -> None:
        words = _words(args, 2, "JOIN <game> <password> [power preferences]")
        _join(ctx, words[0], words[1], " ".join(words[2:]))


@register
class Observe(Command):
    names = ("OBSERVE", "WATCH", "MONITOR")
    help = "OBSERVE game password -- receive the results (and broadcasts) of a game."
    secret_args = True

    def process(self, ctx: MailSession, args: str) -> None:
        words = _words(args, 2, "OBSERVE <game> <password>")
        _join(ctx, words[0], words[1], observe=True)


@register
class Takeover(Command):
    names = ("TAKEOVER", "TAKE OVER")
    help = ("TAKEOVER power@game password -- take a vacant power (resigned, ejected or abandoned); "
            "the master approves it unless the game has open takeovers.")
    secret_args = True

    def process(self, ctx: MailSession, args: str) -> None:
        words = _words(args, 2, "TAKEOVER <power>@<game> <password>")
        if "@" not in words[0]:
            raise CommandError("say which power: TAKEOVER power@game password")
        ctx.require_confirmed("takeover")
        power, _, name = words[0].partition("@")
        took = lobby.takeover(ctx.judge, ctx.uow, ctx.actor(), name, power, words[1])
        if isinstance(took, lobby.TakeoverAsked):
            ctx.add_note(f"Taking over {took.power_name} in '{took.game_name}' needs the master's approval; "
                         f"the master has been asked and will answer you.")
            return
        ctx.enter(identity.seat_sign_on(ctx.judge, ctx.uow, took.seat_id))
        ctx.add_note(f"You now play {took.power_name} in '{took.game_name}'. Your reply address is "
                     f"{took.reply_address}.")
