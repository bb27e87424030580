"""A game's options (app/services/ruleset/options.py): ``game.settings`` decoded once into a typed
``GameOptions``, its absent keys the defaults; an unknown key or a bad value is refused by name, on
the way in (creation, SET) and on the way out (a reader)."""

from __future__ import annotations

from typing import Any

import pytest

from app.db.models import Game
from app.services.errors import DomainError
from app.services.games import gm, lobby
from app.services.games.admin import create_game_direct
from app.services.kernel.actor import Actor, Role
from app.services.ruleset.options import DEFAULT_SETTINGS, GameOptions, PhaseTiming, options_of
from tests.support.fake_uow import FakeUnitOfWork, fake_judge


def test_no_settings_are_the_defaults_and_the_stored_defaults_read_the_same() -> None:
    assert GameOptions.decode(None) == GameOptions.decode({}) == GameOptions.decode(DEFAULT_SETTINGS)
    options = GameOptions.decode({})
    assert (options.layout, options.nmr, options.timezone, options.early, options.early_minutes) == (
        "judge", "cd", "UTC", True, 20.0)
    assert options.timing("S1901M") == PhaseTiming(48.0, 24.0) and options.timing("F1901R") == PhaseTiming(24.0, 12.0)


def test_values_come_back_typed_and_what_the_judge_keeps_beside_them_is_left_alone() -> None:
    options = GameOptions.decode({
        "orders": "whole_set", "nmr": "excuse:2", "reminder_hours": 0, "takeover": "open", "abandon_after": 3,
        "timing": {"movement": {"next_hours": 72, "at": "20:00", "days": "-MTWTF-"}},
        "rules": {"victory_groups": True}, "dod3": {}, "notes": ["x"], "absence_grants": {"FRANCE": 3}})
    assert options.whole_set and options.excused_misses == 2 and options.misses_to_abandon == 3
    assert options.reminder_hours == 0.0 and isinstance(options.reminder_hours, float)
    assert options.timing("S1902M") == PhaseTiming(72.0, 24.0, "20:00", "-MTWTF-")
    assert options.timing("W1901A") == PhaseTiming(24.0, 12.0)  # the kinds not named keep their defaults
    assert GameOptions.decode({"nmr": "wait", "abandon_after": 3}).misses_to_abandon == 1


@pytest.mark.parametrize(("settings", "code", "message"), [
    ({"layuot": "zine"}, "unknown_option", "unknown game option 'layuot'"),
    ({"layout": "fancy"}, "bad_option", "game option 'layout' is one of judge, zine (not 'fancy')"),
    ({"nmr": "excuse"}, "bad_option", "game option 'nmr' is cd, hold, wait, dismiss or excuse:N (not 'excuse')"),
    ({"early": "yes"}, "bad_option", "game option 'early' is true or false (not 'yes')"),
    ({"reminder_hours": -1}, "bad_option", "game option 'reminder_hours' is a number of 0 or more (not -1)"),
    ({"early_minutes": float("nan")}, "bad_option", "game option 'early_minutes' is a number of 0 or more (not nan)"),
    ({"timezone": "Mars/Olympus"}, "bad_option",
     "game option 'timezone' is a time zone, like UTC or Europe/Paris (not 'Mars/Olympus')"),
    ({"abandon_after": 0}, "bad_option", "game option 'abandon_after' is a whole number of 1 or more (not 0)"),
    ({"timing": {"spring": {}}}, "bad_option",
     "game option 'timing' is the timings of movement, retreat and adjustment phases (not {'spring': {}})"),
    ({"timing": {"movement": {"hours": 3}}}, "unknown_option", "unknown movement timing 'hours'"),
    ({"timing": {"retreat": {"at": "25:00"}}}, "bad_option", "game option 'retreat at' is a time of day, hh:mm (not '25:00')"),
    ({"timing": {"movement": {"days": "MTWTF"}}}, "bad_option",
     "game option 'movement days' is seven letters from Sunday, a '-' for a day off (not 'MTWTF')"),
])
def test_an_unknown_option_or_a_bad_value_is_refused_by_name(settings: dict[str, Any], code: str,
                                                             message: str) -> None:
    with pytest.raises(DomainError) as refused:
        GameOptions.decode(settings)
    assert (refused.value.code, refused.value.message) == (code, message)


def test_a_reader_refuses_a_game_whose_stored_options_are_not_the_judges() -> None:
    with pytest.raises(DomainError) as refused:
        options_of(Game(name="alpha", settings={"reminder_hours": "six"}))
    assert refused.value.code == "bad_option"


def test_creation_refuses_settings_no_reader_could_decode() -> None:
    judge = fake_judge()
    with FakeUnitOfWork(judge) as unit, pytest.raises(DomainError) as refused:
        lobby.create_game(judge, unit, Actor("gm@example.com"), "alpha", "pw",
                          settings={"timezone": "Europe/Pariss"})
    assert refused.value.code == "bad_option" and "Europe/Pariss" in refused.value.message


def test_the_gms_changes_are_decoded_before_they_are_stored() -> None:
    judge = fake_judge()
    with FakeUnitOfWork(judge) as unit:
        game_id = create_game_direct(judge, unit, "alpha", "gm@example.com", "pw", start=False).created.game_id
        gm_actor = Actor("gm@example.com", Role.GM, game_id)
        gm.set_option(judge, unit, gm_actor, "early_minutes", "5")
        gm.set_timing(judge, unit, gm_actor, "retreat", "at", "07:30")
        with pytest.raises(DomainError) as refused:
            gm.set_timing(judge, unit, gm_actor, "retreat", "at", "7h30")
        assert refused.value.code == "bad_option"
        options = options_of(unit.session.get_one(Game, game_id))
        assert options.early_minutes == 5.0 and options.timing("F1901R").at == "07:30"
