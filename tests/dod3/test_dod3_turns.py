"""The calendar and rule 5's sequence of play."""

import pytest

from app.dod3.turns import (
    TURN_COUNT,
    Phase,
    is_last_turn,
    next_step,
    phases_of_turn,
    turn_index,
    turn_label,
    turn_year,
)


def test_calendar():
    assert TURN_COUNT == 66
    assert turn_label(0) == "Jan/Feb 1936"
    assert turn_label(1) == "Mar/Apr 1936"
    assert turn_label(65) == "Nov/Dec 1946"
    assert turn_label(66) == "Jan/Feb 1947"  # Bitter end may go on
    assert turn_index("Jul/Aug 1945") == 57 and turn_label(57) == "Jul/Aug 1945"
    assert turn_year(23) == 1939
    assert is_last_turn(65) and not is_last_turn(65, bitter_end=True)
    with pytest.raises(ValueError):
        turn_index("Feb/Mar 1936")
    with pytest.raises(ValueError):
        turn_label(-1)


def test_phases():
    assert [p.value for p in phases_of_turn(1)] == list("ABCDEFGHI")
    assert phases_of_turn(0)[0] == Phase.WEATHER  # no initiative on turn 1
    assert next_step(0, Phase.WEATHER) == (0, Phase.POLITICAL_AFFAIRS)
    assert next_step(0, Phase.END_OF_TURN) == (1, Phase.INITIATIVE)
    assert next_step(3, Phase.INITIATIVE) == (3, Phase.WEATHER)
