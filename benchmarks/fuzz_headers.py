"""Hostile headers and over-long lines for the inbound fuzzer (``benchmarks/fuzz_inbound.py``).

- encoded-word Subjects (and display names) in every charset Python knows, B and Q encoded,
  UTF-7 lone surrogates included, and broken encoded words;
- over-long Message-IDs, In-Reply-To, References and addresses;
- NUL and control characters in every header the judge reads;
- command lines past the length of every column that keeps what a person sent.

Headers are written as raw bytes in front of the generated mail, so the first occurrence (the one
the judge reads) is the hostile one, exactly as sent, without any library tidying it up.
"""

from __future__ import annotations

import base64
import codecs
import encodings
import encodings.aliases
import pkgutil
import random
from functools import cache

__all__ = ["hostile_headers", "long_lines", "python_charsets"]

HEADERS = ("From", "To", "Cc", "Subject", "Message-ID", "In-Reply-To", "References", "Reply-To", "Sender",
           "Content-Type", "Auto-Submitted", "Authentication-Results")
CONTROLS = ["\x00", "\x01", "\x07", "\x08", "\x0b", "\x0c", "\x0e", "\x1b", "\x1f", "\x7f", "\x85", "\u2028",
            "\u2029", "\u202e", "\ufeff", "\r", "\t"]
TEXTS = ["Ordres", "Grüße aus Köln", "Привет", "こんにちは", "😀 orders", "été", "naïve straße", "Δ", "中文",
         "\u202eevil", "x" * 300]
# Encoded words that decode to something no column can store, or do not decode at all.
POISON_WORDS = ["=?utf-7?q?+2AA-?=", "=?utf-7?b?KzJBQS0=?=", "=?UTF-7?Q?+2D3cAA-?=", "=?utf-7?q?+AAA-?=",
                "=?utf-8?b?7aCA?=", "=?utf-8?q?=ED=A0=80?=", "=?utf-16?b?AND=?=", "=?utf-8?b?!!!?=",
                "=?x-unknown?q?x?=", "=?utf-8*fr?q?bonjour?=", "=?idna?q?xn--?=", "=?punycode?q?-?=",
                "=?unicode_escape?q?\\ud800?=", "=?undefined?q?x?=", "=?utf-8?q?=00=01=7F?=", "=?utf-8?q?a=0D=0Ab?=",
                "=?utf-8?q??=", "=??q?x?=", "=?utf-8?x?y?="]


@cache
def python_charsets() -> tuple[str, ...]:
    """Every text codec of this Python: the encodings package's modules and all their aliases."""
    names = set(encodings.aliases.aliases) | set(encodings.aliases.aliases.values())
    names |= {module.name for module in pkgutil.iter_modules(encodings.__path__)}
    found = []
    for name in sorted(names):
        try:
            info = codecs.lookup(name)
        except (LookupError, ValueError):
            continue
        if getattr(info, "_is_text_encoding", True):
            found.append(name)
    return tuple(found)


def _q(data: bytes) -> str:
    safe = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!*+-/"
    return "".join(chr(byte) if byte in safe else f"={byte:02X}" for byte in data)


def encoded_word(rng: random.Random, charset: str | None = None) -> str:
    """``=?charset?B|Q?...?=`` of some text in ``charset`` (random bytes when it cannot encode it)."""
    charset = charset or rng.choice(python_charsets())
    text = rng.choice(TEXTS)
    try:
        data = text.encode(charset)
    except Exception:
        data = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 30)))
    if rng.random() < 0.5:
        return f"=?{charset}?B?{base64.b64encode(data).decode()}?="
    return f"=?{charset}?Q?{_q(data)}?="


def _control_text(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        chars.insert(rng.randint(0, len(chars)), rng.choice(CONTROLS))
    return "".join(chars)


def _long_id(rng: random.Random) -> str:
    length = rng.choice([390, 399, 400, 401, 450, 499, 500, 501, 998, 2000])
    local = f"{rng.getrandbits(48):x}." + "x" * length
    return f"<{local[: max(1, length - 12)]}@fuzz.test>"


def _address(rng: random.Random) -> str:
    pick = rng.random()
    if pick < 0.3:
        return f"{'l' * rng.choice([64, 65, 250, 320, 400, 1000])}@example.com"
    if pick < 0.5:
        return f"{encoded_word(rng)} <p{rng.randint(0, 99)}@example.com>"
    if pick < 0.7:
        return f"\"{'N' * rng.choice([200, 2000])}\" <p{rng.randint(0, 99)}@example.com>"
    if pick < 0.85:
        return f"p@{'d' * 300}.example.com"
    return ", ".join(f"r{n}@example.com" for n in range(rng.choice([50, 400])))


def _value(rng: random.Random, name: str) -> str:
    """One hostile value for header ``name``."""
    lowered = name.lower()
    if lowered == "subject":
        pick = rng.random()
        if pick < 0.4:
            return " ".join(encoded_word(rng) for _ in range(rng.randint(1, 3)))
        if pick < 0.65:
            return rng.choice(POISON_WORDS) + rng.choice(["", " orders", " " + encoded_word(rng)])
        if pick < 0.8:
            return "S" * rng.choice([399, 400, 401, 1000, 5000])
        return _control_text(rng, "Diplomacy orders")
    if lowered in ("message-id", "in-reply-to"):
        pick = rng.random()
        if pick < 0.5:
            return _long_id(rng)
        if pick < 0.7:
            return _control_text(rng, f"<{rng.getrandbits(32):x}@fuzz.test>")
        return rng.choice(["", "<>", "no brackets at all", "<a@b> <c@d>", "<" + encoded_word(rng) + "@x>"])
    if lowered == "references":
        return " ".join(_long_id(rng) if rng.random() < 0.2 else f"<r{n}.{rng.getrandbits(24):x}@fuzz.test>"
                        for n in range(rng.choice([1, 20, 200])))
    if lowered in ("from", "to", "cc", "reply-to", "sender"):
        return _control_text(rng, _address(rng)) if rng.random() < 0.3 else _address(rng)
    if lowered == "content-type":
        return rng.choice([f"text/plain; charset={rng.choice(python_charsets())}",
                           f"text/plain; charset=\"{_control_text(rng, 'utf-8')}\"",
                           "text/plain; charset=" + "x" * 500, "multipart/mixed; boundary=" + "b" * 2000])
    return _control_text(rng, rng.choice(["auto-replied", "no", "mx.judge.test; dmarc=fail"]))


def hostile_headers(rng: random.Random) -> bytes:
    """Raw header lines to put in front of a mail (CRLF-ended; 8-bit, NULs and bare CRs kept)."""
    names = rng.sample(HEADERS, rng.randint(1, 4))
    lines = []
    for name in names:
        value = _value(rng, name)
        data = value.encode("utf-8", "surrogatepass") if rng.random() < 0.9 else value.encode("latin-1", "replace")
        lines.append(name.encode() + b": " + data.replace(b"\r", b"\r" if rng.random() < 0.5 else b"") + b"\r\n")
    return b"".join(lines)


def long_lines(rng: random.Random, power: str) -> list[str]:
    """Command lines past the length of each column that keeps what a person sent."""
    letter = power[0]
    long_game = "g" * rng.choice([31, 40, 41, 60, 200])
    choices = [
        [f"SIGNON {letter}{long_game} pw{power.lower()}"],
        [f"SIGNON {letter}fuzz pw{power.lower()}", "PHASE F1901M", "A" * rng.choice([41, 60, 201, 401])],
        [f"SIGNON {letter}fuzz pw{power.lower()}", "A " + "Par" * 30 + "-Bur"],
        [f"SIGNON {letter}fuzz pw{power.lower()}", "F " + "x" * 45 + " S A Par-" + "y" * 45],
        [f"SIGNON {letter}fuzz pw{power.lower()}", "x" * rng.choice([401, 4000, 20000])],
        [f"CREATE {long_game} secretpw"], [f"DOD3 CREATE {long_game} secret1"], ["DOD3 CREATE ab\x01cd secret1"],
        [f"JOIN fuzz pw{power.lower()} " + "pref" * 60], [f"OBSERVE fuzz {'w' * 300}"],
        [f"SIGNON {letter}fuzz pw{power.lower()}", "SET PASSWORD " + "p" * 300],
        [f"SIGNON {letter}fuzz pw{power.lower()}", "SET ADDRESS " + "a" * 400 + "@example.com"],
        [f"SIGNON {letter}fuzz pw{power.lower()}", "SET DRAW " + "France " * 60],
        [f"SIGNON {letter}fuzz pw{power.lower()}", "SET CONCEDE " + "France" * 20],
        [f"SIGNON {letter}fuzz pw{power.lower()}", "SET PREFERENCE " + "EFGIRTA" * 40],
        [f"SIGNON {letter}fuzz pw{power.lower()}", "PRESS TO " + "England" * 20, "hello", "ENDPRESS"],
        [f"SIGNON {letter}fuzz pw{power.lower()}", "CONTEST S1901M " + "c" * 5000],
        [f"SIGNON {letter}fuzz pw{power.lower()}", "SET ABSENCE " + "2026-03-10 " * 30],
        [f"SIGNON {letter}fuzz pw{power.lower()}", "SET DEADLINE +" + "9" * 100 + "h"],
        ["SIGNON master@fuzz fuzzmaster", "SET DEADLINE +1h", "REPLACE " + "Spain" * 20 + " a@example.com"],
        ["SIGNON master@fuzz fuzzmaster", "SET RULE " + "r" * 300 + " on"],
        ["SIGNON master@fuzz fuzzmaster", "PAUSE " + "because " * 60],
        [f"SIGNON {letter}fuzz pw{power.lower()}", _control_text(rng, "A Par-Bur"), "\x00" * 10, "\x1b[31m"],
    ]
    return list(rng.choice(choices))
