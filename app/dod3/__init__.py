"""Days of Decision III (Australian Design Group, playtest draft of 12 Dec 2003) as a GM aid.

Pure rules computations: no I/O, no clock; dice only through an injected,
verifiable roller (dice.py). Modules:

* exact      - exact fractions and the rounding of rule 1.1
* powers     - the eight major powers, ideologies, initial track, rule 3.1 groupings
* initiative - rule 6: bids, the track, the last-card marker, Democrat move-downs
* political  - rules 8.2/8.6: option choice checks, the end roll
* option_numbers - rule 8.7: IPO 1 and IPO 2, as the draft prints them
* bonus      - step D: bonus bid points
* victory    - rule 4: the victory tally, the end of the game, option 4.1 Bitter end
* dice       - commit-reveal d10 rolls (HMAC-SHA256) and their verification
* turns      - the calendar (Jan/Feb 1936 to Nov/Dec 1946) and rule 5's steps A-I
* setup      - the GM-entered set-up (players, starting numbers, costs, weather chart, options)
* state      - the JSON-serialisable game state and its transitions
* report     - the one turn report, as data (public, a player's own, or the GM's view)
* cli        - `judge dod3 initiative|end-roll|victory|round`
"""

from .bonus import BonusChange, bonus_bid_points
from .dice import DiceRoller, FixedRoller, Roll, commitment, derive_roll, generate_seed, verify_roll, verify_rolls
from .exact import format_number, parse_number, round_rule, to_json_number
from .initiative import (
    DEFAULT_BID_MODIFIERS,
    Bid,
    InitiativeEntry,
    InitiativeResult,
    MoveDown,
    apply_move_downs,
    bid_modifier,
    compute_initiative,
    final_bid,
    move_down_order,
)
from .political import (
    EndRoll,
    OptionPlay,
    PoliticalAffairs,
    end_of_political_affairs,
    normalise_option,
    start_political_affairs,
    within_credit_limit,
)
from .powers import (
    DEFAULT_OBJECTIVES_NEEDED,
    GROUPING_PRESETS,
    IDEOLOGIES,
    IDEOLOGY_OF,
    INITIAL_TRACK,
    POWER_NAMES,
    POWERS,
    grouping_preset,
    normalise_power,
)
from .state import GameOptions, GameSetup, GameState, PowerSetup, PowerState, new_game
from .turns import Phase, turn_index, turn_label
from .victory import NeutralObjective, VictoryResult, game_end_reasons, victory_tally

__all__ = [name for name in dir() if not name.startswith("_")]
