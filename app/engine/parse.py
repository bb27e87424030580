"""Turn what players write into typed orders.

Tolerant like a good email judge: `A Par-Bur`, `Army Paris moves to Burgundy`,
`F nth c a lon-nwy`, `A Lon-Nwy via convoy`, `F spa(sc) - wes`, `build F stp/nc`,
`remove A war`, `waive`. Province names are any alias of the variant, matched
without case or punctuation. The parser knows the map but not the board: the unit
type may be left open (`?`) and is filled in from the board by `legality`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .geo import GameMap, Terrain, name_words, normalize_name, province_of
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
    """An order we could not read; the message is written for the player. `unit` is
    the ordered unit when it was read before the error (`F Tri - Alb - Ven`), so a
    rejected line can still replace that unit's order."""

    def __init__(self, message: str, unit: Unit | None = None) -> None:
        super().__init__(message)
        self.unit = unit


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
# Words that may follow a place name. Not "sea" or other name words: `France - North Sea`
# must not read as `France North` (a coast) followed by `Sea`.
_FOLLOWERS = _KEYWORDS | _RETREAT | set(_COASTS) | {"-", "/", "af", "coast", "cst", "vc", "convoy"}
_MAX_NAME_WORDS = 6
_ONE_DESTINATION = "a move has one destination; to convoy, order the fleets to convoy"


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
    def _matches(self, start: int) -> list[tuple[str, int, str]]:
        """Every name starting at token `start`, longest first: (location, tokens used, key).

        A name of several words matches an alias word for word (`north sea`,
        `mid - atlantic ocean`); run together it matches too (`midatlantic ocean`),
        unless one of its words is an order keyword, so `Mar S A Par` is not `Mars`.
        Leading words of a long name come last (`north atlantic`).
        """
        tokens = self.tokens
        if start >= len(tokens) or tokens[start] in ("-", "/"):
            return []
        found: list[tuple[str, int, str]] = []
        for length in range(min(_MAX_NAME_WORDS, len(tokens) - start), 0, -1):
            span = tokens[start : start + length]
            if span[-1] in ("-", "/"):
                continue
            words = tuple(t for t in span if t not in ("-", "/"))
            key = "".join(words)
            location = self.map.word_aliases.get(words)
            if location is None and (len(words) == 1 or not _KEYWORDS.intersection(words)):
                location = self.map.aliases.get(key)
            if location is not None:
                found.append((location, length, key))
        for length in range(min(_MAX_NAME_WORDS, len(tokens) - start), 1, -1):
            words = tuple(tokens[start : start + length])
            location = self.map.name_prefixes().get(words)
            if location is not None:  # `north atlantic` for North Atlantic Ocean
                found.append((location, length, "".join(words)))
        return found

    def _province_at(self, start: int) -> tuple[str, int, str] | None:
        """The name starting at token `start`: the longest one after which the order
        can go on, else the longest. A dash may sit inside a name (`Mid-Atlantic`)
        or between two names: `France - North Sea` is France then the North Sea, not
        `France North` (a coast) followed by a stray `Sea`."""
        found = self._matches(start)
        for match in found:
            if self._can_follow(start + match[1]):
                return match
        return found[0] if found else None

    def _can_follow(self, pos: int) -> bool:
        """The token at `pos` can follow a place name: the end, a dash, a coast or a keyword."""
        tokens = self.tokens
        while pos < len(tokens) and tokens[pos] in _FILLER and tokens[pos] != "/":
            pos += 1
        return pos >= len(tokens) or tokens[pos] in _FOLLOWERS

    def location(self, what: str, fits: Fits | None = None) -> str:
        """Read a place. `fits` says which places make sense here (an army stands on
        land, a fleet reaches the places it borders): a trap name (see `_traps`) is
        read as the one place that fits, and refused when several do."""
        self.skip_filler()
        found = self._province_at(self.pos)
        if found is None:
            raise OrderSyntaxError(self._unknown_place(what))
        location, used, key = found
        meanings = _traps(self.map).get(key)
        if meanings is not None:
            possible = [m for m in meanings if fits is None or fits(m)]
            if len(possible) > 1:
                words = " ".join(t for t in self.tokens[self.pos : self.pos + used] if t not in ("-", "/"))
                choices = [_described(self.map, m) for m in possible]
                raise OrderSyntaxError(
                    f"{_original_words(self.text, words)!r} could name more than one place: did you mean {_either(choices)}?"
                )
            location = possible[0] if possible else location
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
    def unit(self, what: str = "the unit", fits: Fits | None = None) -> Unit:
        """`[A|F|Army|Fleet] Province`; the type may be omitted (DATC 4.C.1)."""
        self.skip_filler()
        token = self.peek()
        unit_type = UNKNOWN_TYPE
        if token in ("a", "army") and self.peek(1) == "/" and self.peek(2) in ("f", "fleet") or token == "af":
            self.pos += 1 if token == "af" else 3
            unit_type = ARMY_FLEET
        elif token in _UNIT_WORDS and (self._province_at(self.pos + 1) is not None or self._province_at(self.pos) is None):
            unit_type = _UNIT_WORDS[token]
            self.pos += 1
        stands = _stands(self.map, unit_type)
        both = stands if fits is None else (lambda loc: stands(loc) and fits(loc))
        return Unit(unit_type, self.location(what, both))

    def via(self) -> bool:
        if self.take(_VIA):
            self.take({"convoy", "sea", "c"})
            return True
        return bool(self.take({"vc"}))


Fits = Callable[[str], bool]


def _stands(game_map: GameMap, unit_type: str) -> Fits:
    """Where a unit of this type can stand: an army not at sea, a fleet not inland,
    an A/F at sea (or on an island)."""
    provinces = game_map.provinces
    if unit_type == "A":
        return lambda loc: provinces[province_of(loc)].terrain is not Terrain.SEA
    if unit_type == "F":
        return lambda loc: provinces[province_of(loc)].terrain is not Terrain.LAND
    if unit_type == ARMY_FLEET:
        return lambda loc: provinces[province_of(loc)].convoy_water
    return lambda loc: True


def _reaches(game_map: GameMap, unit: Unit) -> Fits:
    """Where this unit could move or support: a fleet (or A/F) the places it borders,
    an army any place not at sea (it may go by convoy)."""
    if unit.type in ("F", ARMY_FLEET):
        return lambda loc: game_map.fleet_reaches_province(unit.location, province_of(loc))
    return _stands(game_map, unit.type)


def _centre(game_map: GameMap) -> Fits:
    return lambda loc: game_map.provinces[province_of(loc)].centre


_TRAPS_KEY = ("traps",)


def _traps(game_map: GameMap) -> dict[str, tuple[str, ...]]:
    """Aliases that are also words of another place's full name: alias key -> the
    locations it could mean, the alias's own first. Small World's `Atlantic` (France's
    north coast) is in four ocean names. Such a name is read as the one candidate that
    fits the order, else refused with the candidates (`_Reader.location`). Full names,
    province ids and the name the variant's rules give a province (`rules_name`: Zeus 5
    rule 3's `Okhotsk` is Magadan, never the Sea of Okhotsk) are never traps.
    Computed once per map and kept in the map's memo."""
    cached = game_map.memo.get(_TRAPS_KEY)
    if cached is not None:
        return cached  # type: ignore[return-value]
    full = {pid: name_words(province.name) for pid, province in game_map.provinces.items()}
    firm = {name_words(p.rules_name) for p in game_map.provinces.values() if p.rules_name}
    inside: dict[tuple[str, ...], set[str]] = {}  # every run of words of a full name -> provinces
    for pid, name in full.items():
        for start in range(len(name)):
            for end in range(start + 1, len(name) + 1):
                inside.setdefault(name[start:end], set()).add(pid)
    traps: dict[str, tuple[str, ...]] = {}
    for words, location in game_map.word_aliases.items():
        province = province_of(location)
        key = "".join(words)
        if words == full[province] or words in firm or key in (province.lower(), normalize_name(location)):
            continue
        others = inside.get(words, set()) - {province}
        if others:
            traps[key] = (location, *sorted(others))
    game_map.remember(_TRAPS_KEY, traps)
    return traps


def _described(game_map: GameMap, location: str) -> str:
    return f"{game_map.provinces[province_of(location)].name} ({location})"


def _either(choices: list[str]) -> str:
    return ", ".join(choices[:-1]) + " or " + choices[-1]


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
    if first == "if" and reader._province_at(0) is None:
        raise OrderSyntaxError("conditional orders (IF ... THEN ...) are not supported: give the order itself")
    if first in _WAIVE and reader._province_at(0) is None or first in _WAIVE and len(reader.tokens) == 1:
        reader.pos += 1
        return _finish(reader, Waive())
    if first in _BUILD and reader._province_at(0) is None:
        reader.pos += 1
        if reader.take(_WAIVE):
            return _finish(reader, Waive())
        return _finish(reader, Build(reader.unit("the place to build", _centre(reader.map))))
    if first in _REMOVE and reader._province_at(0) is None:
        reader.pos += 1
        return _finish(reader, Remove(reader.unit("the unit to remove")))

    if first in ("a", "army") and reader.peek(1) in _LAND:  # "A disembarks Nwy": the A/F is found later
        reader.pos += 2
        landing = reader.location("the landing place", _stands(reader.map, "A"))
        return _finish(reader, Land(Unit(ARMY_FLEET, UNKNOWN_TYPE), landing))
    unit = reader.unit()
    try:
        return _unit_order(reader, unit)
    except OrderSyntaxError as error:
        error.unit = error.unit or unit
        raise


def _unit_order(reader: _Reader, unit: Unit) -> Order:
    """The rest of an order given to `unit`."""
    if reader.take(_BOARD):
        reader.take({"f", "fleet"})
        fleet = reader.location("the fleet to board", _stands(reader.map, ARMY_FLEET))
        return _finish(reader, Board(unit, province_of(fleet)))
    if reader.take(_LAND):
        return _finish(reader, Land(unit, reader.location("the landing place", _stands(reader.map, "A"))))
    if reader.at_end() or reader.take(_HOLD):
        return _finish(reader, Hold(unit))
    if reader.take(_SUPPORT):
        return _finish(reader, _support(reader, unit))
    if reader.take(_CONVOY):
        army = reader.unit("the convoyed army", _stands(reader.map, "A"))
        if army.type == "F":
            raise OrderSyntaxError("only armies can be convoyed")
        if not reader.take(_MOVE):
            raise OrderSyntaxError("a convoy order needs the army's destination: F NTH C A LON - NWY")
        while reader.take(_MOVE):
            pass
        target = reader.location("the destination", _stands(reader.map, "A"))
        return _finish(reader, Convoy(unit, province_of(army.location), province_of(target)))
    if reader.take(_BUILD):
        return _finish(reader, Build(unit))
    if reader.take(_REMOVE - _RETREAT):
        return _finish(reader, Disband(unit))
    if reader.take(_RETREAT):
        if reader.at_end():
            return _finish(reader, Disband(unit))
        reader.take(_MOVE)
        return _finish(reader, Retreat(unit, reader.location("the retreat destination", _reaches(reader.map, unit))))
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
        here = Unit(unit.type, steps[-1]) if steps else unit
        fits = _stands(reader.map, "A") if unit.type == ARMY_FLEET and steps else _reaches(reader.map, here)
        steps.append(reader.location("the destination", fits))
    if not steps:
        raise OrderSyntaxError(f"no destination for {unit.location}: write e.g. {unit.location} - XXX, or HOLD")
    if len(steps) == 1:
        return Move(unit, steps[0], via)
    if unit.type == ARMY_FLEET and len(steps) == 2:  # A/F Lyo - Wes - Tun: sail, then land (docs/rules.md)
        return Land(unit, steps[1], province_of(steps[0]))
    provinces = reader.map.provinces
    if unit.type in ("A", UNKNOWN_TYPE) and all(provinces[province_of(s)].convoy_water for s in steps[:-1]):
        return Move(unit, steps[-1], True)  # a convoy path spelt out: A Yor - Nth - Bel (DATC 4.A.6)
    raise OrderSyntaxError(f"{unit} - {' - '.join(steps)}: {_ONE_DESTINATION}")


def _support(reader: _Reader, unit: Unit) -> SupportHold | SupportMove:
    supported = reader.unit("the supported unit")
    source = province_of(supported.location)
    if reader.at_end() or reader.take(_HOLD):
        return SupportHold(unit, source)
    while reader.take(_MOVE):
        pass
    by_supporter, by_supported = _reaches(reader.map, unit), _reaches(reader.map, supported)
    target = reader.location("the supported move's destination", lambda loc: by_supporter(loc) and by_supported(loc))
    reader.via()
    return SupportMove(unit, source, target)


def _finish(reader: _Reader, order: Order) -> Order:
    reader.via()  # a trailing "via convoy" only matters on moves, handled there
    if not reader.at_end():
        rest = " ".join(reader.tokens[reader.pos :])
        raise OrderSyntaxError(f"could not understand {rest!r} at the end of the order")
    return order
