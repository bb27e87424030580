"""Rule 4: the victory tally, including the rulebook's Jul/Aug 1945 example."""

from fractions import Fraction

import pytest

from app.dod3.victory import NeutralObjective, credit_neutral_objective, game_end_reasons, victory_tally

PLAYERS_1945 = {
    "France/Commonwealth": ["FR", "CW"],
    "USA/China": ["US", "CH"],
    "Soviet": ["RU"],
    "Axis": ["GE", "IT", "JA"],
}
# Germany's and Japan's totals needed are not printed in the draft (GM-entered);
# the Fascists are conquered, so any values do.
FASCIST_NEEDS = {"GE": 20, "JA": 12}


def test_rulebook_jul_aug_1945_example():
    """"The Democrats need a total of 50 objectives, while the Communists need a
    total of 17. Both the Democrats and the Communists are 2 short of their
    total, so they have won jointly. ... The French/Commonwealth player controls
    28 objectives compared to the total needed of 30, while the US/China player
    controls 21 objectives compared to their needed total of 20. The Soviet
    player controls 15 compared to their total needed of 17. Therefore, the
    USA/China player is the overall winner of the game."

    Whole counts of 28 and 21 would make the Democrats 49 (1 short, not 2); the
    example's figures are all exact when one objective in a neutral minor is
    equidistant from London and Washington: 27.5 and 20.5 objectives, which
    rule 1.1 rounds to 28 and 21, and 48 for the Democrats."""
    result = victory_tally(
        {"FR": 7, "CW": 20, "US": 18, "CH": 2, "RU": 15, "GE": 0, "IT": 0, "JA": 0},
        needed=FASCIST_NEEDS,
        neutral=[{"name": "Sao Paulo", "distances": {"CW": 6, "US": 6, "FR": 7}}],
        players=PLAYERS_1945,
    )
    tallies = {t.ideology: t for t in result.ideologies}
    assert tallies["Democrats"].needed == 50 and tallies["Communists"].needed == 17
    assert tallies["Democrats"].net == -2 and tallies["Communists"].net == -2
    assert result.winning_ideologies == ("Democrats", "Communists")
    players = {t.player: t for t in result.players}
    assert set(players) == {"France/Commonwealth", "USA/China", "Soviet"}  # the Axis is not in a winning ideology
    assert players["France/Commonwealth"].needed == 30 and players["USA/China"].needed == 20
    assert players["Soviet"].needed == 17
    assert players["France/Commonwealth"].to_dict()["objectives_rounded"] == 28
    assert players["USA/China"].to_dict()["objectives_rounded"] == 21
    assert players["Soviet"].objectives == 15
    assert players["USA/China"].net == Fraction(1, 2)
    assert result.winning_players == ("USA/China",)
    assert result.winning_player == "USA/China"


def test_1945_example_with_whole_counts_shows_the_drafts_slip():
    # Taken literally as whole objectives (28 + 21 = 49), the Democrats would
    # be 1 short and win alone: documented in docs/dod3.md.
    result = victory_tally(
        {"FR": 7, "CW": 21, "US": 19, "CH": 2, "RU": 15},
        needed=FASCIST_NEEDS,
        players=PLAYERS_1945,
    )
    assert result.winning_ideologies == ("Democrats",)
    assert result.winning_player == "USA/China"


def test_neutral_objective_credit():
    assert credit_neutral_objective(NeutralObjective.from_dict({"name": "Oslo", "distances": {"GE": 2, "CW": 3}})) == {"GE": 1}
    assert credit_neutral_objective(NeutralObjective.from_dict({"name": "Oslo", "distances": {"GE": 2, "CW": 2, "RU": 4}})) == {
        "GE": Fraction(1, 2), "CW": Fraction(1, 2)}
    three = credit_neutral_objective(NeutralObjective.from_dict({"name": "X", "nearest": ["GE", "CW", "RU"]}))
    assert three == {"GE": Fraction(1, 3), "CW": Fraction(1, 3), "RU": Fraction(1, 3)}
    with pytest.raises(ValueError):
        NeutralObjective.from_dict({"name": "Nowhere"})


def test_neutral_objectives_change_the_winner():
    base = {"FR": 7, "CW": 23, "US": 17, "CH": 3, "RU": 17, "GE": 10, "IT": 8, "JA": 10}
    result = victory_tally(base, needed=FASCIST_NEEDS)
    nets = {t.ideology: t.net for t in result.ideologies}
    assert nets == {"Democrats": 0, "Fascists": -12, "Communists": 0}
    assert result.winning_ideologies == ("Democrats", "Communists")
    result = victory_tally(base, needed=FASCIST_NEEDS, neutral=[{"name": "Teheran", "nearest": "RU"}])
    assert result.winning_ideologies == ("Communists",)
    assert result.winning_player == "RU"  # default: one player per power


def test_missing_needed_totals_must_be_entered():
    with pytest.raises(ValueError, match="GM must enter"):
        victory_tally({"GE": 5})
    # an explicit ideology total is enough while the Fascists do not win ...
    result = victory_tally({"RU": 17}, ideology_needed={"Fascists": 35})
    assert result.winning_ideologies == ("Communists",)
    # ... but their players' tally needs each power's total
    with pytest.raises(ValueError, match="GM must enter"):
        victory_tally({"GE": 30}, ideology_needed={"Fascists": 35})
    result = victory_tally({"GE": 30}, needed={"GE": 20, "JA": 12}, ideology_needed={"Fascists": 35})
    assert result.winning_ideologies == ("Fascists",) and result.winning_player == "GE"


def test_tied_players_both_win():
    result = victory_tally(
        {"FR": 8, "CW": 23, "US": 18, "CH": 3, "RU": 0, "GE": 0, "IT": 0, "JA": 0},
        needed=FASCIST_NEEDS,
        players={"A": ["FR", "CW"], "B": ["US", "CH"], "C": ["RU"], "D": ["GE", "IT", "JA"]},
    )
    assert result.winning_players == ("A", "B") and result.winning_player is None


def test_player_errors():
    with pytest.raises(ValueError, match="both"):
        victory_tally({}, needed=FASCIST_NEEDS, players={"A": ["FR"], "B": ["FR"]})
    with pytest.raises(ValueError):
        victory_tally({"FR": -1}, needed=FASCIST_NEEDS)


def test_game_end_reasons():
    assert game_end_reasons([]) == ()
    assert game_end_reasons(["GE", "IT", "JA"]) == ("all the major powers of Fascists have been conquered",)
    assert game_end_reasons(["GE", "IT"]) == ()
    reasons = game_end_reasons([], objectives={"RU": 17}, ideology_needed={"Communists": 17})
    assert reasons == ("the Communists control the 17 objectives they need",)
    assert game_end_reasons([], last_turn=True) == ("the Nov/Dec 1946 turn has ended",)


def test_bitter_end_option_4_1():
    # one ideology conquered, objectives reached or the last turn: play goes on
    assert game_end_reasons(["GE", "IT", "JA"], {"RU": 30}, {"Communists": 17}, last_turn=True, bitter_end=True) == ()
    reasons = game_end_reasons(["GE", "IT", "JA", "RU"], bitter_end=True)
    assert len(reasons) == 1 and "Fascists and Communists" in reasons[0]
