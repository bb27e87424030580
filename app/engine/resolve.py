"""Movement resolution, after Kruijswijk's "The Math of Adjudication" (DATC 5).

Every unit has exactly one legal order (unordered units hold). Each order gets one
yes/no decision:
    move       the move succeeds
    support    the support is given (not cut, the supporter not dislodged)
    convoy     the convoying fleet is not dislodged
    hold       the unit is not dislodged
Decisions are computed on demand by `_resolve`, which guesses when it meets a
dependency cycle and checks the guess (DATC 5.F). A cycle with two consistent
outcomes or none is settled by the backup rule: circular movement succeeds; a cycle
through a convoy is a paradox, settled by Szykman's rule (DATC 4.A.2 f): the
convoying fleets of the paradox hold, so the convoyed move fails.

The resolver names things as the DATC does: attack, hold, defend and prevent
strength; head-to-head battle; path.
"""

from __future__ import annotations

from dataclasses import dataclass

from .geo import GameMap, province_of
from .orders import Convoy, Move, MovementOrder, SupportHold, SupportMove, Unit
from .rules import AdjacentConvoy, RuleOptions

_UNRESOLVED, _GUESSING, _RESOLVED = 0, 1, 2
_NO_GUESS = 1 << 30


@dataclass(frozen=True)
class MovementResolution:
    """The decisions of a movement phase, keyed by the province of the ordered unit."""

    orders: dict[str, MovementOrder]
    owners: dict[str, str]
    succeeded: dict[str, bool]
    convoy_moves: frozenset[str]  # moves that go by convoy
    path_ok: dict[str, bool]  # convoy moves: a route of convoying fleets stood
    paradox_fleets: frozenset[str]  # fleets whose convoy Szykman's rule cancelled
    dislodged_by: dict[str, str]  # dislodged unit's province -> attacker's origin
    void_supports: frozenset[str]  # supports whose supported unit did something else
    strengths: Strengths


class Strengths:
    """Strength figures of the settled position, for explanations."""

    def __init__(self, resolver: _Resolver) -> None:
        self._r = resolver

    def attack(self, source: str) -> int:
        return self._r.attack_strength(source)

    def hold(self, province: str) -> int:
        return self._r.hold_strength(province)

    def defend(self, province: str) -> int:
        return self._r.defend_strength(province)

    def prevent(self, source: str) -> int:
        return self._r.prevent_strength(source)

    def head_to_head(self, source: str) -> bool:
        return source in self._r.head_to_head

    def attackers(self, province: str) -> list[str]:
        return sorted(self._r.attackers.get(province, []))

    def support_cutters(self, province: str) -> list[str]:
        """Every unit that cuts this support, in a fixed order (for explanations)."""
        resolver = self._r
        return sorted(a for a in resolver.attackers.get(province, ()) if resolver.cuts_support(a, province))


def resolve_movement(
    game_map: GameMap,
    rules: RuleOptions,
    units: dict[str, tuple[str, Unit]],
    orders: dict[str, MovementOrder],
    carried: dict[str, str | None] | None = None,
) -> MovementResolution:
    """Resolve a movement phase. `orders` has one legal order per unit province.

    `carried` lists the army parts of landing A/Fs (placeholder province -> the A/F's
    province when the A/F must first move, else None); see armyfleet.py."""
    resolver = _Resolver(game_map, rules, units, orders, carried or {})
    for province in orders:
        resolver.resolve(province)
    dislodged_by: dict[str, str] = {}
    for province in orders:
        if resolver.is_dislodged(province):
            dislodged_by[province] = next(a for a in resolver.attackers[province] if resolver.result[a])
    return MovementResolution(
        orders=orders,
        owners={p: owner for p, (owner, _unit) in units.items()},
        succeeded=dict(resolver.result),
        convoy_moves=frozenset(resolver.convoy_moves),
        path_ok={source: resolver.path(source) for source in resolver.convoy_moves},
        paradox_fleets=frozenset(resolver.paradox_fleets),
        dislodged_by=dislodged_by,
        void_supports=frozenset(resolver.void_supports),
        strengths=Strengths(resolver),
    )


class _Resolver:
    def __init__(
        self,
        game_map: GameMap,
        rules: RuleOptions,
        units: dict[str, tuple[str, Unit]],
        orders: dict[str, MovementOrder],
        carried: dict[str, str | None],
    ) -> None:
        self.map = game_map
        self.carried = carried
        self.adjacent_convoy = rules.adjacent_convoy
        self.orders = orders
        self.owner = {p: owner for p, (owner, _u) in units.items()}
        self.state: dict[str, int] = dict.fromkeys(orders, _UNRESOLVED)
        self.result: dict[str, bool] = dict.fromkeys(orders, False)
        self.deps: list[str] = []
        self.guess_depth: dict[str, int] = {}
        self.depth = 0
        self.lowest = _NO_GUESS
        self.paradox_fleets: set[str] = set()

        self.target: dict[str, str] = {}  # move source -> target province
        self.attackers: dict[str, list[str]] = {}
        for source, order in orders.items():
            if type(order) is Move:
                target = province_of(order.target)
                self.target[source] = target
                self.attackers.setdefault(target, []).append(source)

        self.move_supports: dict[str, list[str]] = {}
        self.hold_supports: dict[str, list[str]] = {}
        self.void_supports: set[str] = set()
        self.convoyers: dict[str, list[str]] = {}  # army source -> fleets convoying that move
        for province, order in orders.items():
            kind = type(order)
            if kind is SupportMove:
                if self._support_matches(order):
                    self.move_supports.setdefault(order.supported, []).append(province)
                else:
                    self.void_supports.add(province)
            elif kind is SupportHold:
                if order.supported in orders and order.supported not in self.target:
                    self.hold_supports.setdefault(order.supported, []).append(province)
                else:
                    self.void_supports.add(province)
            elif kind is Convoy:
                if self.target.get(order.army) == order.target and units[order.army][1].type == "A":
                    self.convoyers.setdefault(order.army, []).append(province)

        self.convoy_moves: set[str] = set()
        for source, target in self.target.items():
            if source not in carried and self._goes_by_convoy(source, target):
                self.convoy_moves.add(source)
        self.head_to_head: set[str] = {
            source
            for source, target in self.target.items()
            if self.target.get(target) == source
            and source not in self.convoy_moves
            and target not in self.convoy_moves
        }

    def _support_matches(self, order: SupportMove) -> bool:
        move = self.orders.get(order.supported)
        if type(move) is not Move or province_of(move.target) != province_of(order.target):
            return False
        # A coast named in the support must be the coast moved to (DATC 4.B.4, 6.B.9).
        return "/" not in order.target or "/" not in move.target or move.target == order.target

    def _goes_by_convoy(self, source: str, target: str) -> bool:
        order = self.orders[source]
        if type(order) is not Move or order.unit.type != "A":
            return False
        if not self.map.army_can_move(source, target):
            return True
        if order.via_convoy and self.adjacent_convoy is AdjacentConvoy.INTENT:
            return True
        fleets = self.convoyers.get(source, ())
        if not fleets:
            return False
        if self.adjacent_convoy is AdjacentConvoy.OPPOSITE:  # 1971 (DATC 4.A.3 a)
            return self.target.get(target) == source
        # 2000/2023 (DATC 4.A.3 c, no fallback to the land route)
        return any(self.owner[f] == self.owner[source] for f in fleets)

    # -- the guess algorithm (DATC 5.F) ------------------------------------
    # Each order being guessed remembers the recursion depth of the guess its value
    # rests on. A decision that read no guess is final; one that read only its own
    # guess is tried both ways; one that read a guess further up the recursion stays
    # a guess until that order settles, which then clears it (`deps`).
    def resolve(self, province: str) -> bool:
        state = self.state[province]
        if state == _RESOLVED:
            return self.result[province]
        if state == _GUESSING:
            depth = self.guess_depth[province]
            if depth < self.lowest:
                self.lowest = depth
            if province not in self.deps:
                self.deps.append(province)
            return self.result[province]
        outer_lowest = self.lowest
        self.depth += 1
        depth = self.depth
        old = len(self.deps)
        value = self._guess(province, depth, False)
        lowest = self.lowest
        if lowest > depth:  # read no guess at all
            self._settle(province, value, old)
        elif lowest < depth:  # rests on a guess further up: stay a guess
            for other in self.deps[old:]:
                if self.guess_depth.get(other, lowest) > lowest:
                    self.guess_depth[other] = lowest
            self.guess_depth[province] = lowest
            self.result[province] = value
            if province not in self.deps:
                self.deps.append(province)
        else:
            self._clear(old)
            second = self._guess(province, depth, True)
            if self.lowest < depth:
                self.guess_depth[province] = self.lowest
                self.result[province] = second
                lowest = self.lowest
            elif value == second:
                self._settle(province, value, old)
                lowest = _NO_GUESS
            else:
                self._backup_rule(old)
                self.depth -= 1
                self.lowest = outer_lowest
                return self.resolve(province)
        self.depth -= 1
        self.lowest = min(outer_lowest, lowest)
        return self.result[province]

    def _guess(self, province: str, depth: int, guess: bool) -> bool:
        self.lowest = _NO_GUESS
        self.guess_depth[province] = depth
        self.result[province] = guess
        self.state[province] = _GUESSING
        return self._adjudicate(province)

    def _settle(self, province: str, value: bool, old: int) -> None:
        self._clear(old)
        if self.state[province] != _RESOLVED:
            self.result[province] = value
            self.state[province] = _RESOLVED

    def _clear(self, old: int) -> None:
        """Forget the decisions that rested on a guess now being replaced."""
        for other in self.deps[old:]:
            if self.state[other] == _GUESSING:
                self.state[other] = _UNRESOLVED
        del self.deps[old:]

    def _backup_rule(self, old: int) -> None:
        cycle = self.deps[old:]
        del self.deps[old:]
        for province in cycle:
            if self.state[province] == _GUESSING:
                self.state[province] = _UNRESOLVED
        fleets = [p for p in cycle if type(self.orders[p]) is Convoy]
        if fleets:
            # Szykman's rule: the convoying fleets of the paradox hold.
            self.paradox_fleets.update(fleets)
            for province in cycle:
                self.state[province] = _UNRESOLVED
            return
        # Circular movement: every move of the cycle succeeds.
        moves = [p for p in cycle if type(self.orders[p]) is Move]
        for province in cycle:
            if moves and type(self.orders[province]) is not Move:
                self.state[province] = _UNRESOLVED
            else:  # a cycle with neither convoy nor move cannot arise; settle it safely
                self.result[province] = bool(moves)
                self.state[province] = _RESOLVED

    def _adjudicate(self, province: str) -> bool:
        kind = type(self.orders[province])
        if kind is Move:
            return self._move_succeeds(province)
        if kind is SupportMove or kind is SupportHold:
            return province not in self.void_supports and self.support_cutter(province) is None
        return not self.is_dislodged(province)

    # -- decisions ----------------------------------------------------------
    def is_dislodged(self, province: str) -> bool:
        if province in self.target and self.resolve(province):
            return False
        for attacker in self.attackers.get(province, ()):
            if self.resolve(attacker):
                return True
        return False

    def path(self, source: str) -> bool:
        """A route of convoying fleets still standing links the army to its target."""
        fleets = [
            f for f in self.convoyers.get(source, ()) if f not in self.paradox_fleets and self.resolve(f)
        ]
        if not fleets:
            return False
        target = self.target[source]
        reaches = self.map.fleet_reaches_province
        frontier = [f for f in fleets if reaches(f, source)]
        seen = set(frontier)
        while frontier:
            fleet = frontier.pop()
            if reaches(fleet, target):
                return True
            for other in fleets:
                if other not in seen and reaches(fleet, other):
                    seen.add(other)
                    frontier.append(other)
        return False

    def _path_fails(self, source: str) -> bool:
        if source in self.carried:  # an A/F's army lands only where its fleet got to
            fleet = self.carried[source]
            return fleet is not None and not self.resolve(fleet)
        return source in self.convoy_moves and not self.path(source)

    def cuts_support(self, attacker: str, province: str) -> bool:
        """An attack on a supporting unit cuts its support, unless it comes from the
        province the support is directed at, even when convoyed (DATC 4.A.4 a), or from
        the supporter's own power, or cannot arrive."""
        order = self.orders[province]
        supported_target = order.target if type(order) is SupportMove else order.supported
        if attacker == province_of(supported_target) or self.owner[attacker] == self.owner[province]:
            return False
        return not self._path_fails(attacker)

    def support_cutter(self, province: str) -> str | None:
        """A unit that cuts this support (its province), or None if the support stands."""
        for attacker in self.attackers.get(province, ()):
            if self.cuts_support(attacker, province):
                return attacker
        if self.is_dislodged(province):
            return next(a for a in self.attackers[province] if self.result[a])
        return None

    def _given(self, supporters: list[str]) -> list[str]:
        return [s for s in supporters if self.resolve(s)]

    def attack_strength(self, source: str) -> int:
        if self._path_fails(source):
            return 0
        target = self.target[source]
        supporters = self.move_supports.get(source, [])
        defender = self.owner.get(target)
        if defender is None or (
            target in self.target and source not in self.head_to_head and self.resolve(target)
        ):
            return 1 + len(self._given(supporters))
        if defender == self.owner[source]:
            return 0  # a unit never dislodges one of its own power's units
        return 1 + sum(1 for s in self._given(supporters) if self.owner[s] != defender)

    def hold_strength(self, province: str) -> int:
        if province not in self.owner:
            return 0
        if province in self.target:
            return 0 if self.resolve(province) else 1
        return 1 + len(self._given(self.hold_supports.get(province, [])))

    def defend_strength(self, source: str) -> int:
        return 1 + len(self._given(self.move_supports.get(source, [])))

    def prevent_strength(self, source: str) -> int:
        if self._path_fails(source):
            return 0
        if source in self.head_to_head and self.resolve(self.target[source]):
            return 0  # lost its head-to-head battle (DATC 4.A.7 b)
        return 1 + len(self._given(self.move_supports.get(source, [])))

    def _move_succeeds(self, source: str) -> bool:
        if self._path_fails(source):
            return False
        target = self.target[source]
        attack = self.attack_strength(source)
        if attack == 0:
            return False
        if source in self.head_to_head:
            if attack <= self.defend_strength(target):
                return False
        elif attack <= self.hold_strength(target):
            return False
        for other in self.attackers[target]:
            if other != source and attack <= self.prevent_strength(other):
                return False
        return True
