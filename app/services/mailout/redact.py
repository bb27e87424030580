"""Passwords never shown: every word in a password position of a line is masked, wherever the line is shown.

``mask_passwords`` looks for the words of the commands that take a password (``SIGNON``,
``CREATE``, ``JOIN``, ``OBSERVE``, ``TAKEOVER``, ``RESIGN``, ``SET PASSWORD``, ``REPLACE``,
``DOD3 SEAT``, ...) anywhere on a line, however they are dressed (``SIGNON:``, ``* SIGNON``,
``Please SIGNON``, any case), and masks the password that follows with ``****``, together with
the rest of the line.  When the line has fewer words than the command's usual form, its last word
is taken for the password (``SIGNON pw``, ``OBSERVE pw``, ``REPLACE Italy pw``): a target masked
by mistake costs an echo, a password shown costs a seat.  A dashboard sign-in code
(``Your code: ABCDE-23456``) is masked too: the judgekeeper's mailbox view shows every address's
mail.  A pure function, for every door (the mail door's echoes, the dashboard's views of mail:
``mail_display``).

A near miss counts as the command (issue 29 item 8): every word is also read folded (NFKC, so
fullwidth ``ＳＩＧＮＯＮ`` is ``SIGNON``; the digits that stand for letters read as them, ``S1GNON``;
dashes and dots inside dropped, ``SIGN-ON``), and a folded word of six letters or more one edit
(a letter changed, added, dropped, or two swapped) from a one-word command counts as it
(``SIGNIN``, ``SINGON``, ``OBSERVER``), and so do two words that make one (``SIGN IN``, ``LOG IN``).
A sign-on glued to its target (``SIGNONFdemo pw``) masks
the word after it.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["MASK", "mask_passwords"]

MASK = "****"

# The command words (one or two) and how many words after them come before the password.
_BEFORE_PASSWORD: dict[tuple[str, ...], int] = {
    ("SIGNON",): 1, ("SIGN", "ON"): 1, ("LOGIN",): 1,
    ("CREATE",): 1,
    ("JOIN",): 1,
    ("OBSERVE",): 1, ("WATCH",): 1, ("MONITOR",): 1,
    ("TAKEOVER",): 1, ("TAKE", "OVER"): 1,
    ("RESIGN",): 1, ("WITHDRAW",): 1,
    ("SET", "PASSWORD"): 0, ("PASSWORD",): 0,
    ("REPLACE",): 2,
    ("DOD3", "SEAT"): 2,
}
# Commands whose password is one word followed by words that are no secret: JOIN's power
# preferences stay shown (issue 28.21), only the password is masked.
_ONE_WORD = frozenset({("JOIN",)})
_LONGEST = max(len(key) for key in _BEFORE_PASSWORD)
_ADDRESS = re.compile(r"^[^@\s]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$")
_EDGES = re.compile(r"^[^A-Za-z0-9]+|[^A-Za-z0-9]+$")


_LOOKALIKE = str.maketrans("0134578$", "OIEASTBS")
_INSIDE = re.compile(r"[^A-Z0-9]")
_FUZZY = tuple(key[0] for key in _BEFORE_PASSWORD if len(key) == 1 and len(key[0]) >= 6)
_SIGN_ON = ("SIGNON", "LOGIN")  # the words a target may be glued to (SIGNONFdemo)


def _bare(word: str) -> str:
    """The word without its dress: ``SIGNON:`` and ``*SIGNON`` are ``SIGNON``."""
    return _EDGES.sub("", word).upper()


def _folded(word: str) -> str:
    """The word as the command word it may be meant for: NFKC, upper case, look-alike digits read
    as letters, all but letters and digits dropped (``ＳＩＧＮ-0Ｎ`` is ``SIGNON``)."""
    return _INSIDE.sub("", unicodedata.normalize("NFKC", word).upper().translate(_LOOKALIKE))


def _one_edit(word: str, key: str) -> bool:
    """Whether ``word`` is ``key`` with at most one letter changed, added or dropped, or two swapped."""
    if word == key:
        return True
    if abs(len(word) - len(key)) > 1:
        return False
    if len(word) == len(key):
        diffs = [i for i in range(len(key)) if word[i] != key[i]]
        return len(diffs) == 1 or (len(diffs) == 2 and diffs[1] == diffs[0] + 1
                                   and word[diffs[0]] == key[diffs[1]] and word[diffs[1]] == key[diffs[0]])
    short, long_ = (word, key) if len(word) < len(key) else (key, word)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def _glued(word: str) -> bool:
    """A sign-on glued to its target: ``SIGNONFdemo``, ``SIGNINmaster@demo``."""
    folded = _folded(word.split("@", 1)[0])
    return any(len(folded) > len(key) and _one_edit(folded[:len(key)], key) for key in _SIGN_ON)


def _command_at(bare: list[str], index: int, folded: list[str] | None = None) -> tuple[int, int, bool] | None:
    """(words of the command name, words before its password, whether only the password word is
    secret) when a command word, or a near miss of one (``folded``: see above), starts at ``index``."""
    for words in (bare, folded or []):
        for size in range(_LONGEST, 0, -1):
            key = tuple(words[index:index + size])
            if len(key) == size and key in _BEFORE_PASSWORD:
                return size, _BEFORE_PASSWORD[key], key in _ONE_WORD
    if folded is None:
        return None
    joined = "".join(folded[index:index + 2])  # SIGN IN, LOG IN, S1GN 0N
    if index + 1 < len(folded) and ((joined,) in _BEFORE_PASSWORD
                                     or (len(joined) >= 6 and any(_one_edit(joined, c) for c in _FUZZY))):
        command = next((c for c in _FUZZY if _one_edit(joined, c)), joined)
        return 2, _BEFORE_PASSWORD.get((command,), 1), (command,) in _ONE_WORD
    if len(folded[index]) >= 6:
        for command in _FUZZY:
            if _one_edit(folded[index], command):
                return 1, _BEFORE_PASSWORD[(command,)], (command,) in _ONE_WORD
    if _glued(bare[index]):
        return 1, 0, False  # the target is in the word: the password comes next
    return None


def _mask_line(line: str) -> str:
    words = re.sub(r"([:=])(?=\S)", r"\1 ", line).split()  # SIGNON:Falpha pw reads as SIGNON: Falpha pw
    bare = [_bare(word) for word in words]
    folded = [_folded(word) for word in words]
    for index in range(len(words)):
        found = _command_at(bare, index, folded)
        if found is None:
            continue
        size, before, one_word = found
        args = words[index + size:]
        if not args:
            continue
        if len(args) > before:
            cut = index + size + before
            if one_word:  # the password, then words that are no secret (JOIN's preferences)
                return " ".join(words[:cut] + [MASK] + words[cut + 1:])
        else:  # a short form: its last word may be the password (an address is not)
            if before and _ADDRESS.match(args[-1]) and len(args) == before:
                continue
            cut = index + size + len(args) - 1
        return " ".join(words[:cut] + [MASK])
    return line


_SIGNIN_CODE = re.compile(r"(Your code: )[A-Z0-9]{5}-[A-Z0-9]{5}")


def mask_passwords(text: str) -> str:
    """``text`` (one line or many) with every password position masked; other lines unchanged."""
    text = _SIGNIN_CODE.sub(r"\1*****-*****", text)
    if "\n" not in text:
        return _mask_line(text)
    return "\n".join(_mask_line(line) for line in text.split("\n"))
