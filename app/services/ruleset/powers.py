"""Power names as players write them: France, FRA, F, french; lists such as ``France, Germany``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["PowerBook", "full_stop"]


def full_stop(text: str) -> str:
    """``text`` ending a sentence: one stop, even after a name that ends with one (``U.S.A.``)."""
    return text if text.endswith(".") else text + "."


@dataclass(frozen=True)
class PowerInfo:
    id: str
    name: str
    adjective: str
    letter: str


class PowerBook:
    """The powers of one variant, with lookup by any of the names players use."""

    def __init__(self, info: dict[str, Any]) -> None:
        self.powers: list[PowerInfo] = []
        for entry in info.get("powers", []):
            if isinstance(entry, str):
                entry = {"id": entry}
            pid = str(entry["id"]).upper()
            self.powers.append(
                PowerInfo(
                    id=pid,
                    name=str(entry.get("name") or pid.title()),
                    adjective=str(entry.get("adjective") or entry.get("name") or pid.title()),
                    letter=str(entry.get("letter") or pid[:1]).upper(),
                )
            )

    @property
    def ids(self) -> list[str]:
        return [p.id for p in self.powers]

    def name(self, pid: str) -> str:
        for p in self.powers:
            if p.id == pid.upper():
                return p.name
        return pid.title()

    def letter(self, pid: str) -> str:
        """The letter a player signs on with (``SIGNON <letter><game>``)."""
        for p in self.powers:
            if p.id == pid.upper():
                return p.letter
        return pid[:1].upper()

    def adjective(self, pid: str) -> str:
        for p in self.powers:
            if p.id == pid.upper():
                return p.adjective
        return pid.title()

    def find(self, word: str) -> str | None:
        """One power from a name, a prefix of at least three letters, an adjective or a letter."""
        w = word.strip().upper().rstrip(".")
        if not w:
            return None
        for p in self.powers:
            if w in (p.id, p.name.upper(), p.adjective.upper()):
                return p.id
        if len(w) >= 3:
            matches = [p.id for p in self.powers if p.id.startswith(w) or p.name.upper().startswith(w)]
            if len(matches) == 1:
                return matches[0]
        if len(w) == 1:
            matches = [p.id for p in self.powers if p.letter == w]
            if len(matches) == 1:
                return matches[0]
        return None

    def by_letter(self, letter: str) -> str | None:
        matches = [p.id for p in self.powers if p.letter == letter.upper()]
        return matches[0] if len(matches) == 1 else None

    def parse_list(self, text: str) -> tuple[list[str], list[str]]:
        """Powers from ``France, Germany`` or ``FRA`` style initials; returns (powers, unknown words).
        A name of several words counts whole between commas (``USA, Soviet Union``)."""
        found: list[str] = []
        unknown: list[str] = []
        for chunk in text.replace("+", ",").split(","):
            whole = self.find(chunk.strip()) if len(chunk.split()) > 1 else None
            if whole is not None:
                found.append(whole)
                continue
            for word in chunk.split():
                pid = self.find(word)
                if pid is None and word.isalpha() and all(self.by_letter(c) for c in word):
                    found.extend(p for c in word if (p := self.by_letter(c)))
                    continue
                if pid is None:
                    unknown.append(word)
                else:
                    found.append(pid)
        return list(dict.fromkeys(found)), unknown
