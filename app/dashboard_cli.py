"""`judge dashboard account ADDRESS`: the judgekeeper creates a GM account or sets its password
(read from standard input, never from the command line).  The judgekeeper's own account is made
only here; other GMs may also sign up on the dashboard with a code mailed to them.  Register with ``register(subparsers)``."""

from __future__ import annotations

import argparse
import sys

__all__ = ["register"]


def _account(args: argparse.Namespace) -> int:
    from app.main import build_judge
    from app.services.bootstrap import transaction
    from app.services.errors import DomainError
    from app.services.games.gm_accounts import set_gm_password
    from app.services.kernel.actor import Actor, Role
    from app.settings import Settings

    password = sys.stdin.readline().rstrip("\r\n")
    judge = build_judge(Settings())
    try:
        with transaction(judge) as unit:
            created = set_gm_password(judge, unit, Actor("command line", Role.KEEPER), args.address, password)
    except DomainError as error:
        print(f"judge: {error.message}", file=sys.stderr)
        return 2
    print(f"GM account {args.address.lower()}: {'created' if created else 'password changed'}.")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    dashboard = subparsers.add_parser("dashboard", help="the GM dashboard")
    sub = dashboard.add_subparsers(dest="dashboard_command", required=True)
    account = sub.add_parser("account", help="create a GM account or set its password (password on stdin); "
                                             "the judgekeeper's own account (JUDGE_ADMIN_ADDRESS), which sees "
                                             "every game, is made only here")
    account.add_argument("address")
    account.set_defaults(handler=_account)
