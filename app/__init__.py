"""Postal Judge: a play-by-email game-master server for Diplomacy and its variants."""
