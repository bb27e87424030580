"""Rule 1.1 rounding and exact number handling."""

from decimal import Decimal
from fractions import Fraction

import pytest

from app.dod3.exact import format_number, parse_number, parse_whole, round_rule, to_json_number


@pytest.mark.parametrize(
    "value, expected",
    [
        # the rulebook's own examples
        ("3.25", 3),
        ("4.5", 5),
        ("-3.5", -4),
        # more halves and near-halves
        ("2.5", 3),
        ("-2.5", -3),
        ("0.5", 1),
        ("-0.5", -1),
        ("3.4999", 3),
        ("-3.4999", -3),
        ("3.75", 4),
        ("-3.75", -4),
        ("-3.25", -3),
        ("0", 0),
        (Fraction(13, 2), 7),
        (Fraction(-13, 2), -7),
        (Fraction(13, 3), 4),
        (Fraction(-14, 3), -5),
        (7, 7),
        (-7, -7),
        (Decimal("6.5"), 7),
        (4.5, 5),
        (-3.5, -4),
        ("7/2", 4),
        ("-7/2", -4),
    ],
)
def test_round_rule(value, expected):
    assert round_rule(value) == expected


def test_round_rule_differs_from_python_bankers_rounding():
    assert round(2.5) == 2 and round_rule("2.5") == 3
    assert round(-0.5) == 0 and round_rule("-0.5") == -1


def test_parse_number_is_exact():
    assert parse_number(0.1) == Fraction(1, 10)
    assert parse_number("3.25") == Fraction(13, 4)
    assert parse_number("13/3") == Fraction(13, 3)
    assert parse_number(Decimal("0.1")) == Fraction(1, 10)
    assert parse_number(" -7 / 2 ") == Fraction(-7, 2)


@pytest.mark.parametrize("bad", ["", "abc", "1/0", "nan", "inf", True, None, [1]])
def test_parse_number_rejects(bad):
    with pytest.raises(ValueError):
        parse_number(bad)


def test_parse_whole():
    assert parse_whole("6") == 6
    assert parse_whole(6.0) == 6
    with pytest.raises(ValueError):
        parse_whole("6.5")


def test_to_json_number():
    assert to_json_number(Fraction(10, 2)) == 5 and isinstance(to_json_number(Fraction(10, 2)), int)
    assert to_json_number(Fraction(7, 2)) == 3.5
    assert to_json_number(Fraction(81, 4)) == 20.25
    assert to_json_number(Fraction(13, 3)) == "13/3"
    for value in (Fraction(7, 2), Fraction(13, 3), Fraction(-1, 1024), Fraction(5)):
        assert parse_number(to_json_number(value)) == value
    assert format_number(Fraction(13, 3)) == "13/3"
