"""A use case's refusal as the mail door words it (issue 27.2): the command to send next.

The use cases refuse with a code and its values (``DomainError``) and a door-neutral message; this
table adds what a mail's reader does about it, in the judge's command words ("add CONFIRM", "use
PROCESS", ``SIGNON <power letter><game> <password>``).  A code without a wording here, or raised
without the values its wording needs, is answered with its message: a refusal is never lost for
want of words.  ``docs/commands.md`` quotes these sentences; the replies keep them word for word.
"""

from __future__ import annotations

from collections.abc import Callable

from app.services.errors import DomainError

__all__ = ["refusal_text"]

_Wording = Callable[[DomainError], str | None]

_DOD3_USAGE = {"effect": "usage: DOD3 EFFECT [<power>] <text>", "record": "usage: DOD3 RECORD <text>",
               "weather": "usage: DOD3 WEATHER <result>"}


def _deadline_in_past(e: DomainError) -> str | None:
    return f"{e.message}; to adjudicate the phase now, use PROCESS" if "deadline" in e.values else None


def _deadline_in_absence(e: DomainError) -> str | None:
    if "deadline" not in e.values:
        return None
    return f"{e.message}; to set {e.values['deadline']} all the same, add CONFIRM"


def _not_signed_on(e: DomainError) -> str | None:
    if e.values.get("dod3"):
        return f"{e.message} (SIGNON <power>@<game> <password>)"
    return f"{e.message} (SIGNON <power letter><game> <password>)" if e.message == "sign on to a game first" else None


def _bad_option(e: DomainError) -> str | None:
    if e.values.get("option") == "draw_expires":
        return ("say SET DRAW EXPIRES PHASE (a vote is good for one phase) or SET DRAW EXPIRES NEVER (it stands "
                "until withdrawn)")
    if e.values.get("option") != "early":
        return None
    return ("SET EARLY takes minutes from 0 to a week (10080), or off" if e.values.get("range")
            else "SET EARLY takes minutes (0 or more), or off")


def _absence_cap(e: DomainError) -> str | None:
    if "cap" not in e.values:
        return None
    v = e.values
    return (f"absences are capped at {v['cap']} days in any {v['window']} days of a game ({v['used']} days already "
            f"taken; this one would make {v['total']}); ask the game master to GRANT ABSENCE")


def _not_forming(e: DomainError) -> str | None:
    return f"game '{e.values['game']}' is not forming; TAKEOVER a vacant power instead" if e.values.get("takeover") else None


_WORDINGS: dict[str, _Wording] = {
    "deadline_in_past": _deadline_in_past,
    "deadline_in_absence": _deadline_in_absence,
    "not_signed_on": _not_signed_on,
    "bad_option": _bad_option,
    "absence_cap": _absence_cap,
    "not_forming": _not_forming,
    "observer_press": lambda e: (f"observers may not send press in game '{e.values['game']}' (the GM may allow it: "
                                 "SET PRESS ... OBSERVERS)") if "game" in e.values else None,
    "seated_by_gm": lambda e: (f"the players of the Days of Decision III game '{e.values['game']}' are seated by its "
                               "GM (DOD3 SEAT): ask the GM for a seat") if "game" in e.values else None,
    "vacant": lambda e: f"{e.values['power']} is vacant: use TAKEOVER" if "power" in e.values else None,
    "no_phase": lambda e: ("say which phase you contest: CONTEST <phase> <what is wrong>"
                           if e.values.get("contest") else None),
    "no_text": lambda e: "say what you contest: CONTEST <phase> <what is wrong>" if e.values.get("contest") else None,
    "observer_limit": lambda e: (f"{e.values['address']} already observes {e.values['held']} games, the most one "
                                 f"address may (JUDGE_OBSERVER_SEATS = {e.values['limit']}); RESIGN from one first"
                                 if "limit" in e.values else None),
    "no_power": lambda e: ("sign on as a power, or BECOME one, to give orders"
                           if e.message == "sign on as a power, or act as one, to give orders" else None),
    "bad_absence": lambda e: "say SET ABSENCE 2026-12-01 TO 2026-12-07" if e.message.startswith("say when") else None,
    "master_not_vacant": lambda e: "the master role is handed over by the GM with REPLACE",
    "seats_missing": lambda e: (f"no player yet for {e.values['missing']} (DOD3 SEAT <player> <address> <password>)"
                                if "missing" in e.values else None),
    "dod3_no_setup": lambda e: (f"game '{e.values['game']}' has no Days of Decision III set-up (create it with "
                                "DOD3 CREATE)" if "game" in e.values else None),
    "setup_field": lambda e: (f"before the start only PE, MONEY, CREDIT, BIDPOINTS and OBJECTIVES are set (not DOD3 "
                              f"{e.values['field']})" if "field" in e.values else None),
    "usage": lambda e: _DOD3_USAGE.get(str(e.values.get("usage"))),
}


def refusal_text(error: Exception) -> str:
    """What a reply says of ``error``: a use case's refusal in the mail's words, anything else as it is."""
    if not isinstance(error, DomainError):
        return str(error)
    wording = _WORDINGS.get(error.code)
    worded = wording(error) if wording is not None else None
    return worded if worded is not None else error.message
