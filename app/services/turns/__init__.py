"""Processing turns: adjudicate, store, publish; deadlines; the GM's control of a game's course."""
