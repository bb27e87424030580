"""How a game is played: the engine port, variant data, powers, phases, timing, rule options."""
