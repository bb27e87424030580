"""The reply to ``MAP game``: the position as text beside the picture."""

from __future__ import annotations

from app.services.readmodels.dashboard import PublicGame
from app.services.results.maps import CurrentMap

__all__ = ["render_map_reply"]


def render_map_reply(shown: CurrentMap, game: PublicGame) -> str:
    head = (f"The map of game '{shown.game_name}' in {shown.phase} is attached." if shown.map_id is not None
            else f"No map picture of game '{shown.game_name}' can be sent; the position in {shown.phase}:")
    centres = dict(game.centres)
    powers = [name for name, _ in game.units] + [name for name in centres if name not in dict(game.units)]
    width = max((len(name) for name in powers), default=0) + 1
    lines = [head, "", "Units and supply centres:"]
    for name in powers:
        units = dict(game.units).get(name, ())
        count = centres.get(name, 0)
        lines.append(f"  {name + ':':<{width}} {count:>2} centre{'s' if count != 1 else ''}; "
                     + (", ".join(units) if units else "no units"))
    return "\n".join(lines)
