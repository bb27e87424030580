"""Turn what players write into typed orders.

Tolerant like a good email judge: `A Par-Bur`, `Army Paris moves to Burgundy`,
`F nth c a lon-nwy`, `A Lon-Nwy via convoy`, `F spa(sc) - wes`, `build F stp/nc`,
`remove A war`, `waive`. Province names are any alias of the variant, matched
without case or punctuation. The parser knows the map but not the board: the unit
type may be left open (`?`) and is filled in from the board by `legality`.
"""

from __future__ import annotations

import re

from .geo import GameMap, province_of
from .orders import (
    ARMY_FLEET,
    Board,
    Build,
    Convoy,
    Disband,
    Hold,
    Land,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
)

UNKNOWN_TYPE = "?"


class OrderSyntaxError(ValueError):
    """An order we could not read; the message is written for the player."""


_TOKEN = re.compile(r"[a-z0-9]+|-|/")
_ARROWS = re.compile(r"->|=>|→|—|–|>")
_UNIT_WORDS = {"a": "A", "army": "A", "f": "F", "fleet": "F"}
_HOLD = {"h", "hold", "holds", "stand", "stands", "hld"}
_MOVE = {"-", "m", "move", "moves", "moving", "to", "attack", "attacks", "go", "goes", "mv", "into"}
_SUPPORT = {"s", "support", "supports", "sup", "supp", "sp"}
_CONVOY = {"c", "convoy", "convoys", "cvy", "transport", "transports", "ferry", "ferries", "fastferry"}
_BOARD = {"board", "boards", "embark", "embarks", "boarding"}
_LAND = {"disembark", "disembarks", "land", "lands", "landing", "debark", "debarks"}
_BUILD = {"b", "build", "builds", "bld"}
_REMOVE = {"remove", "removes", "rem", "disband", "disbands", "d", "destroy", "r", "delete"}
_RETREAT = {"r", "retreat", "retreats", "ret"}
_WAIVE = {"w", "waive", "waives", "pass"}
_VIA = {"via", "by"}
_FILLER = {"the", "and", "unit", "order", "of", "fast", "onto", "at", "in", "/"}
_COASTS = {
    "nc": "NC", "north": "NC", "n": "NC",
    "sc": "SC", "south": "SC", "s": "SC",
    "ec": "EC", "east": "EC", "e": "EC",
    "wc": "WC", "west": "WC", "w": "WC",
}
_BARE_COASTS = {"nc", "sc", "ec", "wc"}
_KEYWORDS = set(_UNIT_WORDS) | _HOLD | _MOVE | _SUPPORT | _CONVOY | _BUILD | _REMOVE | _WAIVE | _VIA | _BOARD | _LAND
_MAX_NAME_WORDS = 6


def tokenize(text: str) -> list[str]:
    text = _ARROWS.sub(" - ", text.lower()).replace("(", " / ").replace(")", " ")
    return _TOKEN.findall(text)


class _Reader:
    def __init__(self, text: str, game_map: GameMap) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.pos = 0
        self.map = game_map

    # -- token helpers -----------------------------------------------------
    def peek(self, offset: int = 0) -> str | None:
        i = self.pos + offset
        return self.tokens[i] if i < len(self.tokens) else None

    def at_end(self) -> bool:
        self.skip_filler()
        return self.pos >= len(self.tokens)

    def skip_filler(self) -> None:
        while self.peek() in _FILLER and self._province_at(self.pos) is None:
            self.pos += 1

    def take(self, words: set[str]) -> str | None:
        self.skip_filler()
        token = self.peek()
        if token is not None and token in words:
            self.pos += 1
            return token
        return None

    # -- provinces ---------------------------------------------------------
    def _province_at(self, start: int) -> tuple[str, int] | None:
        """Longest alias starting at token `start`: (location, tokens used).

        A name of several words matches an alias word for word (`north sea`,
        `mid - atlantic ocean`); run together it matches too (`midatlantic ocean`),
        unless one of its words is an order keyword, so `Mar S A Par` is not `Mars`.
        """
        tokens = self.tokens
        if start >= len(tokens) or tokens[start] in ("-", "/"):
            return None
        for length in range(min(_MAX_NAME_WORDS, len(tokens) - start), 0, -1):
            span = tokens[start : start + length]
            if span[-1] in ("-", "/"):
                continue
            words = tuple(t for t in span if t not in ("-", "/"))
            location = self.map.word_aliases.get(words)
            if location is None and (len(words) == 1 or not _KEYWORDS.intersection(words)):
                location = self.map.aliases.get("".join(words))
            if location is not None:
                return location, length
        for length in range(min(_MAX_NAME_WORDS, len(tokens) - start), 1, -1):
            words = tuple(tokens[start : start + length])
            location = self.map.name_prefixes().get(words)
            if location is not None:  # `north atlantic` for North Atlantic Ocean
                return location, length
        return None

    def location(self, what: str) -> str:
        self.skip_filler()
        found = self._province_at(self.pos)
        if found is None:
            raise OrderSyntaxError(self._unknown_place(what))
        location, used = found
        self.pos += used
        return self._coast(location)

    def _coast(self, location: str) -> str:
        """Read a coast written after a province: `/nc`, `(sc)`, `nc`, `north coast`."""
        save = self.pos
        slash = self.peek() == "/"
        if slash:
            self.pos += 1
        word = self.peek()
        if word in _COASTS and (slash or word in _BARE_COASTS or self.peek(1) in ("coast", "cst")):
            self.pos += 1
            if self.peek() in ("coast", "cst"):
                self.pos += 1
            province = province_of(location)
            coast_location = f"{province}/{_COASTS[word]}"
            if coast_location in self.map.provinces[province].coasts:
                return coast_location
            return location  # an unknown or irrelevant coast is ignored (DATC 4.B.6)
        self.pos = save
        return location

    def _unknown_place(self, what: str) -> str:
        words: list[str] = []
        i = self.pos
        while i < len(self.tokens) and self.tokens[i] not in ("-", "/") and len(words) < 3:
            token = self.tokens[i]
            if words and (token in _SUPPORT | _CONVOY | _HOLD | _VIA | _MOVE):
                break
            words.append(token)
            i += 1
        if not words:
            return f"{what} is missing in {self.text.strip()!r}"
        written = " ".join(words)
        hint = self.map.suggest(written) or (self.map.suggest(words[0]) if len(words) > 1 else None)
        original = _original_words(self.text, written)
        if hint:
            return f"unknown province {original!r}: did you mean {hint}?"
        return f"unknown province {original!r}"

    # -- units -------------------------------------------------------------
    def unit(self, what: str = "the unit") -> Unit:
        """`[A|F|Army|Fleet] Province`; the type may be omitted (DATC 4.C.1)."""
        self.skip_filler()
        token = self.peek()
        unit_type = UNKNOWN_TYPE
        if token in ("a", "army") and self.peek(1) == "/" and self.peek(2) in ("f", "fleet") or token == "af":
            self.pos += 1 if token == "af" else 3
            return Unit(ARMY_FLEET, self.location(what))
        if token in _UNIT_WORDS and (self._province_at(self.pos + 1) is not None or self._province_at(self.pos) is None):
            unit_type = _UNIT_WORDS[token]
            self.pos += 1
        return Unit(unit_type, self.location(what))

    def via(self) -> bool:
        if self.take(_VIA):
            self.take({"convoy", "sea", "c"})
            return True
        return bool(self.take({"vc"}))


def _original_words(text: str, lowered: str) -> str:
    """The player's own spelling of a word sequence, for error messages."""
    pattern = r"[\W_]*".join(re.escape(w) for w in lowered.split())
    match = re.search(pattern, text, re.IGNORECASE)
    return match.group(0) if match else lowered


_CANONICAL = re.compile(
    r"^\s*([AF])\s+([A-Z0-9]+(?:/[NSEW]C)?)(?:\s+"
    r"(?:(H)|-\s*([A-Z0-9]+(?:/[NSEW]C)?)(\s+VIA)?"
    r"|S\s+([AF])\s+([A-Z0-9]+(?:/[NSEW]C)?)(?:\s+-\s+([A-Z0-9]+(?:/[NSEW]C)?))?"
    r"|C\s+A\s+([A-Z0-9]+)\s+-\s+([A-Z0-9]+)))?\s*$"
)


def _canonical(text: str, game_map: GameMap) -> Order | None:
    """The judges' short form with engine ids (`A PAR - BUR`, `F NTH C A LON - NWY`),
    read without the general parser; None when the text is anything else."""
    match = _CANONICAL.match(text)
    if match is None:
        return None
    kind, location, hold, target, via, s_kind, s_from, s_to, c_from, c_to = match.groups()
    provinces = game_map.provinces
    for written in (location, target, s_from, s_to, c_from, c_to):
        if written and written not in provinces and written not in game_map.fleet_borders:
            return None
    unit = Unit(kind, location)
    if target:
        return Move(unit, target, bool(via))
    if s_from:
        if s_to is None:
            return SupportHold(unit, province_of(s_from))
        return SupportMove(unit, province_of(s_from), s_to)
    if c_from:
        return Convoy(unit, c_from, c_to)
    return Hold(unit)


def parse_order(text: str, game_map: GameMap) -> Order:
    """Parse one order. Raises OrderSyntaxError with a reason a player understands."""
    fast = _canonical(text, game_map)
    if fast is not None:
        return fast
    reader = _Reader(text, game_map)
    if reader.at_end():
        raise OrderSyntaxError("empty order")
    first = reader.peek()
    if first in _WAIVE and reader._province_at(0) is None or first in _WAIVE and len(reader.tokens) == 1:
        reader.pos += 1
        return _finish(reader, Waive())
    if first in _BUILD and reader._province_at(0) is None:
        reader.pos += 1
        if reader.take(_WAIVE):
            return _finish(reader, Waive())
        return _finish(reader, Build(reader.unit("the place to build")))
    if first in _REMOVE and reader._province_at(0) is None:
        reader.pos += 1
        return _finish(reader, Remove(reader.unit("the unit to remove")))

    if first in ("a", "army") and reader.peek(1) in _LAND:  # "A disembarks Nwy": the A/F is found later
        reader.pos += 2
        return _finish(reader, Land(Unit(ARMY_FLEET, UNKNOWN_TYPE), reader.location("the landing place")))
    unit = reader.unit()
    if reader.take(_BOARD):
        reader.take({"f", "fleet"})
        return _finish(reader, Board(unit, province_of(reader.location("the fleet to board"))))
    if reader.take(_LAND):
        return _finish(reader, Land(unit, reader.location("the landing place")))
    if reader.at_end() or reader.take(_HOLD):
        return _finish(reader, Hold(unit))
    if reader.take(_SUPPORT):
        return _finish(reader, _support(reader, unit))
    if reader.take(_CONVOY):
        army = reader.unit("the convoyed army")
        if army.type == "F":
            raise OrderSyntaxError("only armies can be convoyed")
        if not reader.take(_MOVE):
            raise OrderSyntaxError("a convoy order needs the army's destination: F NTH C A LON - NWY")
        while reader.take(_MOVE):
            pass
        return _finish(reader, Convoy(unit, province_of(army.location), province_of(reader.location("the destination"))))
    if reader.take(_BUILD):
        return _finish(reader, Build(unit))
    if reader.take(_REMOVE - _RETREAT):
        return _finish(reader, Disband(unit))
    if reader.take(_RETREAT):
        if reader.at_end():
            return _finish(reader, Disband(unit))
        reader.take(_MOVE)
        return _finish(reader, Retreat(unit, reader.location("the retreat destination")))
    return _finish(reader, _move(reader, unit))


def _move(reader: _Reader, unit: Unit) -> Move | Land:
    steps: list[str] = []
    via = reader.via()
    while not reader.at_end():
        while reader.take(_MOVE):
            pass
        if reader.at_end():
            break
        if reader.via():
            via = True
            continue
        steps.append(reader.location("the destination"))
    if not steps:
        raise OrderSyntaxError(f"no destination for {unit.location}: write e.g. {unit.location} - XXX, or HOLD")
    if unit.type == ARMY_FLEET and len(steps) == 2:  # A/F Lyo - Wes - Tun: move, then land
        return Land(unit, steps[1], province_of(steps[0]))
    if len(steps) > 1:  # a convoy path spelt out: A Yor - Nth - Bel (DATC 4.A.6)
        via = True
    return Move(unit, steps[-1], via)


def _support(reader: _Reader, unit: Unit) -> SupportHold | SupportMove:
    supported = reader.unit("the supported unit")
    source = province_of(supported.location)
    if reader.at_end() or reader.take(_HOLD):
        return SupportHold(unit, source)
    while reader.take(_MOVE):
        pass
    target = reader.location("the supported move's destination")
    reader.via()
    return SupportMove(unit, source, target)


def _finish(reader: _Reader, order: Order) -> Order:
    reader.via()  # a trailing "via convoy" only matters on moves, handled there
    if not reader.at_end():
        rest = " ".join(reader.tokens[reader.pos :])
        raise OrderSyntaxError(f"could not understand {rest!r} at the end of the order")
    return order
