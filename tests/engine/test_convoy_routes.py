"""Convoy routes on random boards: the breadth-first `route_exists` and the routes of
`fleet_routes` (searched among the linked fleets only) agree with a plain search of
every minimal chain among all the fleets on the board (DATC 4.E.1, 6.G.19)."""

from __future__ import annotations

import random

import pytest

from app.engine import convoy
from app.engine.orders import Unit
from app.engine.phases import Phase
from app.engine.state import GameState
from app.variants import load_variant

VARIANT = load_variant("standard")
GAME_MAP = VARIANT.map
SEAS = sorted(GAME_MAP.convoy_waters)
COASTS = sorted(p for p in GAME_MAP.provinces if GAME_MAP.is_coastal(p) and p not in GAME_MAP.convoy_waters)


def _board(rng: random.Random) -> GameState:
    fleets = rng.sample(SEAS, rng.randint(0, 9))
    units = {sea: ("ENGLAND", Unit("F", sea)) for sea in fleets}
    return GameState(Phase.parse("S1901M"), units, {})


def _all_minimal_routes(source: str, target: str, state: GameState) -> set[tuple[str, ...]]:
    fleets = convoy.convoy_fleets(state, GAME_MAP)
    return {tuple(r) for r in convoy._find_fleet_routes(source, target, fleets, GAME_MAP)}


@pytest.mark.parametrize("seed", range(40))
def test_route_search_agrees_with_every_minimal_chain(seed: int) -> None:
    rng = random.Random(seed)
    GAME_MAP.forget()
    for _ in range(60):
        state = _board(rng)
        source, target = rng.sample(COASTS, 2)
        every = _all_minimal_routes(source, target, state)
        fleets = convoy.convoy_fleets(state, GAME_MAP)
        assert set(convoy.fleet_routes(source, target, fleets, GAME_MAP)) == every
        for limit in (None, 1, 2):
            expected = any(limit is None or len(r) <= limit for r in every)
            assert convoy.route_exists(source, target, state, GAME_MAP, max_fleets=limit) is expected
        if state.units:
            excluded = rng.choice(sorted(state.units))
            left = GameState(state.phase, {p: u for p, u in state.units.items() if p != excluded}, {})
            assert convoy.route_exists(source, target, state, GAME_MAP, excluded=excluded) is bool(
                _all_minimal_routes(source, target, left)
            )


def test_a_three_fleet_chain_is_found_and_a_one_fleet_limit_refuses_it() -> None:
    # London to Tunis: English Channel, Mid-Atlantic, Western Mediterranean.
    units = {sea: ("ENGLAND", Unit("F", sea)) for sea in ("ENG", "MAO", "WES")}
    state = GameState(Phase.parse("S1901M"), units, {})
    assert convoy.route_exists("LON", "TUN", state, GAME_MAP)
    assert not convoy.route_exists("LON", "TUN", state, GAME_MAP, max_fleets=2)
    assert not convoy.route_exists("LON", "TUN", state, GAME_MAP, excluded="MAO")
    assert convoy.fleet_routes("LON", "TUN", convoy.convoy_fleets(state, GAME_MAP), GAME_MAP) == (("ENG", "MAO", "WES"),)
