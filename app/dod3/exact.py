"""Exact numbers and the rounding of rule 1.1.

Rule 1.1: "retain fractions until you have applied all relevant modifiers and
then round to the nearest whole number (rounding positive halves up and
negative halves down). For example, 3.25 rounds to 3, 4.5 becomes 5 and -3.5
rounds to -4."

Every quantity the judge computes is a :class:`fractions.Fraction`; floats
never enter a computation.  Numbers arriving from JSON may be ints, decimals
(parsed exactly: ``json.loads(..., parse_float=Decimal)``, or a float, which is
read through its shortest ``repr``), or strings such as ``"7/2"`` or ``"3.5"``.

Numbers leaving the judge (``to_json_number``) are an int when whole, a JSON
number when the value is a short terminating decimal (3.5, 20.25) and
otherwise an exact ``"p/q"`` string (``"13/3"``), so nothing is ever lost.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Union

Number = Union[int, Fraction]
NumberInput = Union[int, float, str, Decimal, Fraction]

__all__ = [
    "Number",
    "NumberInput",
    "parse_number",
    "round_rule",
    "to_json_number",
    "format_number",
]


def parse_number(value: NumberInput, *, what: str = "number") -> Fraction:
    """Read a number exactly. Raises ValueError for anything that is not a finite number."""
    if isinstance(value, bool):
        raise ValueError(f"{what}: expected a number, got a boolean")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"{what}: not a finite number: {value}")
        return Fraction(value)
    if isinstance(value, float):
        # repr gives the shortest decimal that reads back as this float: 3.25 -> "3.25".
        return parse_number(repr(value), what=what)
    if isinstance(value, str):
        text = value.strip()
        if not text:
            raise ValueError(f"{what}: empty string")
        try:
            if "/" in text:
                numerator, denominator = text.split("/", 1)
                return Fraction(int(numerator.strip()), int(denominator.strip()))
            decimal = Decimal(text)
        except (ValueError, ZeroDivisionError, InvalidOperation) as error:
            raise ValueError(f"{what}: not a number: {value!r}") from error
        if not decimal.is_finite():
            raise ValueError(f"{what}: not a finite number: {value!r}")
        return Fraction(decimal)
    raise ValueError(f"{what}: expected a number, got {type(value).__name__}")


def parse_whole(value: NumberInput, *, what: str = "number") -> int:
    """Read a number that must be whole (e.g. a bid or a die roll)."""
    number = parse_number(value, what=what)
    if number.denominator != 1:
        raise ValueError(f"{what}: must be a whole number, got {format_number(number)}")
    return int(number)


def round_rule(value: NumberInput) -> int:
    """Round to the nearest whole number; halves go away from zero (rule 1.1).

    >>> [round_rule(x) for x in ("3.25", "4.5", "-3.5", "-3.25", "2.5")]
    [3, 5, -4, -3, 3]
    """
    number = parse_number(value)
    magnitude = abs(number)
    whole, remainder = divmod(magnitude.numerator, magnitude.denominator)
    if 2 * remainder >= magnitude.denominator:
        whole += 1
    return whole if number >= 0 else -whole


def _terminating(number: Fraction) -> bool:
    denominator = number.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    return denominator == 1


def to_json_number(value: NumberInput) -> int | float | str:
    """An exact JSON form: int if whole, float if a short terminating decimal, else "p/q"."""
    number = parse_number(value)
    if number.denominator == 1:
        return int(number.numerator)
    if _terminating(number):
        as_float = float(number)
        if Fraction(repr(as_float)) == number:
            return as_float
    return f"{number.numerator}/{number.denominator}"


def format_number(value: NumberInput) -> str:
    """Human form for reports: 5, 3.5, 13/3."""
    out = to_json_number(value)
    return str(out)
