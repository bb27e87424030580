"""Commands anyone may send: HELP, LIST, HISTORY, SUMMARY, MAP, CREATE, JOIN, OBSERVE, TAKEOVER, SIGNON."""

from __future__ import annotations

from app.mail.commands import Command, register
from app.mail.errors import CommandError
from app.mail.session import MailSession


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
    help = "SIGNON Fgame password | SIGNON france@game password | SIGNON master@game password"
    secret_args = True

    def process(self, ctx: MailSession, args: str) -> None:
        words = _words(args, 2, "SIGNON <power letter><game> <password>")
        ctx.sign_on(words[0], words[1])


@register
class Help(Command):
    names = ("HELP", "GET HELP")
    help = "HELP -- mails you this list of commands."

    def process(self, ctx: MailSession, args: str) -> None:
        from app.mail.commands import REGISTRY

        seen: list[str] = []
        for command in REGISTRY.values():
            if command.help and command.help not in seen:
                seen.append(command.help)
        ctx.add_section(
            "Commands of this judge (see docs/commands.md for examples):\n\n"
            + "\n".join(f"  {line}" for line in seen)
        )


@register
class ListGames(Command):
    names = ("LIST",)
    help = "LIST [game] -- the games on this judge, or one game's status."

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.lobby import list_games

        ctx.add_section(list_games(ctx, args.strip()))


@register
class History(Command):
    names = ("HISTORY",)
    help = "HISTORY game [FROM S1901M] [TO F1902M] -- all results of a game."

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.lobby import history

        words = _words(args, 1, "HISTORY <game> [FROM <phase>] [TO <phase>]")
        upper = [w.upper() for w in words]
        start = upper[upper.index("FROM") + 1] if "FROM" in upper[:-1] else None
        end = upper[upper.index("TO") + 1] if "TO" in upper[:-1] else None
        ctx.add_section(history(ctx, words[0], start, end))


@register
class Summary(Command):
    names = ("SUMMARY",)
    help = "SUMMARY game -- supply-centre counts per phase and the players."

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.lobby import summary

        ctx.add_section(summary(ctx, _words(args, 1, "SUMMARY <game>")[0]))


@register
class MapCommand(Command):
    names = ("MAP",)
    help = "MAP game -- the current map (sent as text until the map renderer exists)."

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.lobby import list_games

        name = args.split()[0] if args.split() else (ctx.game.name if ctx.game else "")
        if not name:
            raise CommandError("usage: MAP <game>")
        ctx.add_section(
            "Map pictures are not available yet on this judge; the position:\n\n" + list_games(ctx, name)
        )


@register
class Create(Command):
    names = ("CREATE",)
    help = "CREATE game password [variant] -- a new forming game with you as its master."
    secret_args = True

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.lobby import create_game

        words = _words(args, 2, "CREATE <game> <master password> [variant]")
        game = create_game(ctx, words[0], words[1], words[2].lower() if len(words) > 2 else "standard")
        ctx.add_note(f"Game '{game.name}' ({game.variant}) created; you are its master.  Players JOIN it.")


@register
class Join(Command):
    names = ("JOIN",)
    help = "JOIN game password [preferences] | JOIN france@game password -- join a forming game."
    secret_args = True

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.lobby import join_game

        words = _words(args, 2, "JOIN <game> <password> [power preferences]")
        join_game(ctx, words[0], words[1], " ".join(words[2:]))


@register
class Observe(Command):
    names = ("OBSERVE", "WATCH", "MONITOR")
    help = "OBSERVE game password -- receive the results (and broadcasts) of a game."
    secret_args = True

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.lobby import join_game

        words = _words(args, 2, "OBSERVE <game> <password>")
        join_game(ctx, words[0], words[1], observe=True)


@register
class Takeover(Command):
    names = ("TAKEOVER", "TAKE OVER")
    help = "TAKEOVER power@game password -- take a vacant power (resigned, abandoned or in CD)."
    secret_args = True

    def process(self, ctx: MailSession, args: str) -> None:
        from app.services.lobby import takeover

        words = _words(args, 2, "TAKEOVER <power>@<game> <password>")
        takeover(ctx, words[0], words[1])
