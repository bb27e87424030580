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

from typing import Union

from .convoy import goes_by_convoy, path_stands
from .geo import GameMap, province_of
from .orders import Convoy, Move, MovementOrder, SupportHold, SupportMove, Unit
from .outcomes import Bounced, Outcome, OwnUnit
from .rules import RuleOptions

_UNRESOLVED, _GUESSING, _RESOLVED = 0, 1, 2
_NO_GUESS = 1 << 30


class NoPath:
    """The verdict on a move whose convoy path (or A/F fleet part) failed; what broke
    it is read from the convoying fleets' own decisions (see movement_outcomes.py)."""


NO_PATH = NoPath()
Verdict = Union[Outcome, NoPath, None]  # None: the move succeeds


class MovementResolution:
    """The decisions of a movement phase, keyed by the province of the ordered unit.
    `resolver` answers further questions about the settled decisions (strengths, who
    cut a support), always by the same functions that made the decisions."""

    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        self.orders: dict[str, MovementOrder] = resolver.orders
        self.owners: dict[str, str] = resolver.owner
        self.succeeded: dict[str, bool] = resolver.result
        self.convoy_moves: frozenset[str] = frozenset(resolver.convoy_moves)
        self.paradox_fleets: frozenset[str] = frozenset(resolver.paradox_fleets)
        self.void_supports: frozenset[str] = frozenset(resolver.void_supports)
        self.dislodged_by: dict[str, str] = {}  # dislodged unit's province -> attacker's origin
        for province in resolver.orders:
            if resolver.is_dislodged(province):
                self.dislodged_by[province] = next(a for a in resolver.attackers[province] if resolver.result[a])

    def path_failed(self, source: str) -> bool:
        """A convoyed move whose route of convoying fleets did not stand."""
        return source in self.resolver.convoy_moves and not self.resolver.path(source)


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
    resolver = Resolver(game_map, rules, units, orders, carried or {})
    for province in orders:
        resolver.resolve(province)
    return MovementResolution(resolver)


class Resolver:
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
        self.orders = orders
        self.owner = {p: owner for p, (owner, _u) in units.items()}
        self.state: dict[str, int] = dict.fromkeys(orders, _UNRESOLVED)
        self.result: dict[str, bool] = dict.fromkeys(orders, False)
        self.deps: list[str] = []
        self.guess_depth: dict[str, int] = {}
        self.depth = 0
        self.lowest = _NO_GUESS
        self.paradox_fleets: set[str] = set()
        self.verdicts: dict[str, Verdict] = {}  # each move's verdict at its latest evaluation
        self.final: set[str] = set()  # decisions settled by an evaluation that read no guess

        self.target: dict[str, str] = {}  # move source -> target province
        self.attackers: dict[str, list[str]] = {}
        for source, order in orders.items():
            if type(order) is Move:
                target = province_of(order.target)
                self.target[source] = target
                self.attackers.setdefault(target, []).append(source)
        for sources in self.attackers.values():
            sources.sort()  # a fixed order: the first preventing move is the one reported

        self.move_supports: dict[str, list[str]] = {}
        self.hold_supports: dict[str, list[str]] = {}
        self.void_supports: set[str] = set()
        self.convoyers: dict[str, list[str]] = {}  # army source -> fleets convoying that move
        for province, order in orders.items():
            if type(order) is SupportMove:
                if self._support_matches(order):
                    self.move_supports.setdefault(order.supported, []).append(province)
                else:
                    self.void_supports.add(province)
            elif type(order) is SupportHold:
                if order.supported in orders and order.supported not in self.target:
                    self.hold_supports.setdefault(order.supported, []).append(province)
                else:
                    self.void_supports.add(province)
            elif type(order) is Convoy:
                if self.target.get(order.army) == order.target and units[order.army][1].type == "A":
                    self.convoyers.setdefault(order.army, []).append(province)

        self.convoy_moves: set[str] = set()
        for source, target in self.target.items():
            if orders[source].unit.type == "A" and source not in carried and goes_by_convoy(
                game_map, orders[source], source, target, self.convoyers.get(source, ()),
                self.owner, self.target, rules.adjacent_convoy,
            ):
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
            self.final.add(province)  # its last verdict read settled decisions only
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
        standing = [
            f for f in self.convoyers.get(source, ()) if f not in self.paradox_fleets and self.resolve(f)
        ]
        return bool(standing) and path_stands(standing, source, self.target[source], self.map.fleet_reaches_province)

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
        if type(order) is SupportMove:
            supported_target = order.target
        elif type(order) is SupportHold:
            supported_target = order.supported
        else:
            return False  # only supports are cut
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

    def support_cutters(self, province: str) -> list[str]:
        """Every unit that cuts this support, in a fixed order (for explanations)."""
        return sorted(a for a in self.attackers.get(province, ()) if self.cuts_support(a, province))

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
        verdict = self.verdicts[source] = self.move_verdict(source)
        return verdict is None

    def move_verdict(self, source: str) -> Verdict:
        """The move decision (DATC 5.B.5), saying what stopped the move: None when it
        succeeds. The same function decides and, once settled, explains."""
        if self._path_fails(source):
            return NO_PATH
        target = self.target[source]
        attack = self.attack_strength(source)
        if attack == 0:
            return OwnUnit(target)
        if source in self.head_to_head:
            defend = self.defend_strength(target)
            if attack <= defend:
                return Bounced(target, attack, defend, "head_to_head")
        else:
            hold = self.hold_strength(target)
            if attack <= hold:
                return Bounced(target, attack, hold, "hold")
        for other in self.attackers[target]:
            if other != source:
                prevent = self.prevent_strength(other)
                if attack <= prevent:
                    return Bounced(other, attack, prevent, "prevent")
        return None
