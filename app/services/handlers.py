"""What reacts to the use cases' domain events (Cosmic Python's ``messagebus.HANDLERS``); the
doors' and jobs' units of work get them in ``app.services.bootstrap``.

``OrdersChanged`` (orders stored or cleared, WAIT set, press sent) -> early processing: the
game's deadline moves to the end of its quiet period when everyone is ready
(``turns.deadlines.check_early``), whether the change came by mail or from the dashboard.
``SettingChanged`` (the GM changed a setting) -> one notice to the players per unit of work
(``games.setting_notice``: one save of the dashboard's settings, one mail of SET commands).

``MoveDownsChanged`` (a Democrat answered, DoD III) -> the next Democrat still to answer is called,
once the mail's commands have all run (``dod3.player_commands.call_next_democrat``).
"""

from __future__ import annotations

from app.db.models import Game
from app.services.dod3.player_commands import call_next_democrat
from app.services.games.setting_notice import SettingChanged, tell_setting_changes
from app.services.kernel.context import Judge
from app.services.kernel.uow import Handlers, MoveDownsChanged, OrdersChanged, UnitOfWork
from app.services.turns.deadlines import check_early

__all__ = ["handlers"]


def handlers(judge: Judge) -> Handlers:
    def early_processing(unit: UnitOfWork, event: OrdersChanged) -> None:
        game = unit.session.get(Game, event.game_id)
        if game is not None:
            check_early(unit, judge, game)

    def next_democrat(unit: UnitOfWork, event: MoveDownsChanged) -> None:
        game = unit.session.get(Game, event.game_id)
        if game is not None:
            call_next_democrat(unit, judge, game)

    def settings_told(unit: UnitOfWork, event: SettingChanged) -> None:
        tell_setting_changes(judge, unit, event)

    return {OrdersChanged: (early_processing,), MoveDownsChanged: (next_democrat,), SettingChanged: (settings_told,)}
