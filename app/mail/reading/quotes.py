"""Step 4 of the reading: where the writer's own text ends.

Lines quoted with ``>`` are never run (the command finder skips them), and reading goes on
below them: a player may answer under a quote.  A client that quotes *without* ``>`` (Outlook,
Outlook for iOS, Outlook.com, AOL, Yahoo, Zimbra, Outlook Express, Windows Live Mail) puts the
message it answers below a separator, and there reading stops:

- ``-----Original Message-----``, ``----- Original Message -----`` and their translations,
  ``----- Forwarded message -----``, ``Begin forwarded message:`` (the dashes may be Unicode's:
  ProtonMail writes ``‐‐‐‐‐‐‐ Original Message ‐‐‐‐‐‐‐`` with U+2010);
- a ``____`` rule followed by a ``From:`` line;
- a ``From:`` line followed by ``Sent:``/``Date:``/``Subject:`` (in the client's language too:
  ``De :``/``Envoyé :``/``Objet :``, ``Von:``/``Gesendet:``/``Betreff:``, ``보낸 사람:``, ``发件人：``
  with a full-width colon, ...), or (GMX, Web.de) a ``Sent:``/``Gesendet:`` line with ``From:``/
  ``Von:`` right below it;
- an attribution line (``On ... wrote:``, ``Le ... a écrit :``, ``Am ... schrieb ...:``,
  ``... napsal(a):``, ``... ezt írta (időpont: ...):``, ...) that no ``>`` quote follows (it is
  read as a client shows it: without the bidi controls Gmail puts into a right-to-left one);
- GroupWise's ``>>> judge <judge@...> 12/3/2026 6:02 PM >>>`` that no ``>`` quote follows.

An attribution line that a ``>`` quote follows is dropped (client furniture) and reading goes
on.  The judge's own lines (``app.mail.reading.own``) end the text whatever a client did.
The patterns follow those of the quotequail library (MIT, closeio/quotequail), widened.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from app.mail.reading.own import OwnMarks, own_line

__all__ = ["Stop", "find_stop", "is_attribution"]

_DASHES = "\\-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"  # ASCII's, and Unicode's (Proton's U+2010)
_RULE_CHARS = f"[{_DASHES}_=*]"
_ORIGINAL = re.compile(
    rf"^\s*{_RULE_CHARS}{{2,}}\s*(original message|forwarded message|ursprüngliche nachricht|weitergeleitete nachricht|"
    r"message d'origine|message transféré|mensaje original|mensaje reenviado|messaggio originale|"
    r"messaggio inoltrato|oorspronkelijk bericht|doorgestuurd bericht|mensagem original|mensagem encaminhada|"
    r"originalmeddelande|vidarebefordrat meddelande|oprindelig meddelelse|oprindelig besked|opprinnelig melding|"
    r"original message|originalnachricht|mail original|message original|originale|ursprüngliche mail|"
    r"e-mail original|original e-mail|oryginalna wiadomość|původní zpráva|eredeti üzenet|原始邮件|原始郵件|"
    r"alkuperäinen viesti|wiadomość oryginalna|исходное сообщение|пересылаемое сообщение|"
    r"reply message|original email)\s*" + _RULE_CHARS + r"{2,}\s*$", re.IGNORECASE)
_FORWARD = re.compile(r"^\s*(begin forwarded message|anfang der weitergeleiteten e-mail|début du message réexpédié|"
                      r"inicio del mensaje reenviado)\s*:\s*$", re.IGNORECASE)
_RULE = re.compile(r"^\s*_{8,}\s*$")
_HEADER = re.compile(r"^[*>\s]*([^\W\d_][\w .'-]{0,24}?)\s*\*?\s*[:：]\*?(\s|$|(?<=：))", re.UNICODE)
_LONGEST = 1000  # a longer line is never a header, a separator, an attribution or one of the judge's own


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# the header keys of a quoted message in the clients' languages (a key of several words counts by its
# first word and by all its words together: ``De la:``, ``보낸 사람:``, ``تاريخ الإرسال:``)
_FROM_KEYS = _words("from de von van da från fra od от від lähettäjä feladó kimden gönderen 差出人 发件人 寄件者 "
                    "보낸사람 από מאת من šalje")
_DATE_KEYS = _words("sent date datum dato gesendet envoyé envoye enviado enviada inviato verzonden skickat sendt "
                    "lähetetty wysłano wysłane отправлено надіслано дата fecha data 送信日時 发送时间 日期 寄件日期 날짜 "
                    "보낸날짜 trimis στάλθηκε נשלח تاريخ تاريخالإرسال gönderildi odesláno odoslané poslano poslato "
                    "elküldve")
_SUBJECT_KEYS = _words("subject betreff objet asunto oggetto onderwerp assunto ämne emne aihe temat тема 件名 主题 主旨 "
                       "제목 předmět predmet tárgy konu subiect θέμα נושא الموضوع")
# the verb may carry a gender ending (``napsal(a)``, ``написал(а)``) and a date in brackets after it
# (Gmail in Hungarian: ``... ezt írta (időpont: 2026. dec. 3., Cs 18:02):``)
_ATTRIBUTION = re.compile(
    r"((\bwrote|\ba écrit|\bescribió|\bha scritto|\bgeschreven|\bescreveu|\bnapisał|\bnapsal[a]?|"
    r"\bnapisao( je)?|\bнаписал[а]?|\bпише|\bkirjoitti|\bírta|\byazdı|\ba scris|\bέγραψε|\bmenulis|"
    r"\bva escriure|\bđã viết|كتب|เขียนว่า|写道|寫道|来信|작성)(\s*\(\w{1,3}\))?(\s*\([^()]{1,80}\))?\s*[:：]?|"
    r"\b(schrieb|schreef|skrev|wrote on)\b.*[:：])\s*$", re.IGNORECASE)
_ATTRIBUTION_START = re.compile(
    r"^\s*(-\s+)?(on|le|am|el|il|op|em|den|på|w dniu|dne|in data)\b", re.IGNORECASE)
_DATE_START = re.compile(r"^\s*(\S{1,4}[.,]?\s+)?\d{1,4}[./, -]")
# Gmail in some languages names no verb: ``ср, 30 апр. 2025 г. в 15:19, John Doe <doe@example.com>:``
_ADDRESS_COLON = re.compile(r"<\s*[^<>\s]+@[^<>\s]+\s*>\s*[:：]\s*$")
# Zoho: ``---- On Wed, 24 Feb 2021 14:02:50 +0530 john@gmail.com wrote ----``
_DASHED_ATTRIBUTION = re.compile(rf"^\s*[{_DASHES}]{{2,}}\s*\S.*(\b(wrote|a écrit|schrieb|escribió|ha scritto)|撰写|寫道|写道)"
                                 rf"\s*[{_DASHES}]{{2,}}\s*$", re.IGNORECASE)
# GroupWise: ``>>> judge <judge@judge.test> 12/3/2026 6:02 PM >>>`` above the message it quotes unmarked
_GROUPWISE = re.compile(r"^>>>\s+\S.*\d.*\s>>>\s*$")
_SEPARATOR = re.compile(rf"^\s*({_RULE_CHARS}{{3,}}.*{_RULE_CHARS}{{3,}}|{_RULE_CHARS}{{3,}})\s*$")


_PRESS_STARTS = frozenset({"PRESS", "BROADCAST"})
_PRESS_ENDS = frozenset({"ENDPRESS", "END PRESS", "ENDBROADCAST", "END BROADCAST", "SIGNOFF", "SIGN OFF", "--"})


@dataclass(frozen=True)
class Stop:
    """Reading stops before line ``index`` (0-based) because of ``why`` (a phrase)."""

    index: int
    why: str


def _key(line: str) -> str | None:
    match = _HEADER.match(line) if len(line) <= _LONGEST else None
    return match.group(1).strip().lower().split(" ")[0] if match else None


def _keys(line: str) -> set[str]:
    """The header key of ``line`` by its first word and by all its words together (empty: no header)."""
    match = _HEADER.match(line) if len(line) <= _LONGEST else None
    if not match:
        return set()
    words = match.group(1).strip().lower().split()
    return {words[0], "".join(words)}


def _header_block(lines: list[str], i: int) -> bool:
    """Line ``i`` starts a quoted header block: a From-like key, then a Date-like key or a subject
    within the next few lines (headers may wrap); or (GMX, Web.de) a Date-like key first, a From-like
    key right below it and a subject within the next few lines."""
    first = _keys(lines[i])
    if first & _FROM_KEYS:
        keys = set().union(*(_keys(line) for line in lines[i + 1:i + 8]))
        return bool(keys & (_DATE_KEYS | _SUBJECT_KEYS))
    if first & _DATE_KEYS:
        below = [_keys(line) for line in lines[i + 1:i + 8]]
        return bool(below) and bool(below[0] & _FROM_KEYS) and any(keys & _SUBJECT_KEYS for keys in below)
    return False


def is_attribution(lines: list[str], i: int) -> int:
    """How many lines (1 to 3) the attribution line starting at ``i`` spans, or 0."""
    first = lines[i]
    if first.lstrip().startswith(">"):
        return 0
    # its first line starts with the clients' own first word or a date, or (on one line) holds a date or an address
    starts = bool(_ATTRIBUTION_START.match(first) or _DATE_START.match(first) or "@" in first)
    if not (starts or "@" in first or any(c.isdigit() for c in first)):
        return 0
    for span in (1, 2, 3) if starts else (1,):
        if i + span > len(lines):
            break
        last = lines[i + span - 1]
        wrapped_address = last.strip().startswith(">:")  # Gmail wraps ``<test@example.com\n>:``
        if span > 1 and (not last.strip() or (last.lstrip().startswith(">") and not wrapped_address)):
            break
        joined = " ".join(line.strip() for line in lines[i:i + span])
        if len(joined) > 300:
            break
        dated = any(c.isdigit() for c in joined)
        if ("@" in joined or dated) and (_ATTRIBUTION.search(joined) or (_ADDRESS_COLON.search(joined) and dated)):
            return span  # every client's attribution names a date or an address
    return 0


def _quote_follows(lines: list[str], i: int) -> bool:
    for line in lines[i:]:
        if line.strip():
            return line.lstrip().startswith(">")
    return True  # nothing follows: the attribution is all that is left


def _shown(line: str) -> str:
    """``line`` as a client shows it: without the characters that show nothing (bidi controls, zero-width
    spaces), which Gmail puts around the parts of a right-to-left attribution."""
    if line.isascii():
        return line
    return "".join(c for c in line if unicodedata.category(c) != "Cf")


def find_stop(lines: list[str], own: OwnMarks | None = None) -> tuple[Stop | None, set[int]]:
    """Where the writer's own text ends (None: it runs to the end), and the attribution lines above
    ``>`` quotes, which are dropped."""
    lines = [_shown(line) for line in lines]
    dropped: set[int] = set()
    in_press = False
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if _GROUPWISE.match(stripped) and not _quote_follows(lines, i + 1):
            return Stop(i, f"a quoted message begins ({stripped[:60]!r})"), dropped
        if not stripped or stripped.startswith(">") or len(line) > _LONGEST:
            i += 1
            continue
        words = stripped.upper().split()
        if in_press or words[0] in _PRESS_STARTS or words[:2] == ["POSTAL", "PRESS"]:
            # a press's text is the player's own letter: only the judge's own lines and a clear separator end it
            in_press = " ".join(words[:2]) not in _PRESS_ENDS and words[0] not in _PRESS_ENDS
            if own_line(line, own):
                return Stop(_header_start(lines, i), f"a line of the judge's own making ({stripped[:60]!r})"), dropped
            if _ORIGINAL.match(line) or _FORWARD.match(line):
                return Stop(_rules_above(lines, i), f"a quoted message begins ({stripped[:60]!r})"), dropped
            i += 1
            continue
        if _ORIGINAL.match(line) or _FORWARD.match(line) or _DASHED_ATTRIBUTION.match(line):
            return Stop(_rules_above(lines, i), f"a quoted message begins ({stripped[:60]!r})"), dropped
        if _RULE.match(line) and any(_key(nxt) in _FROM_KEYS for nxt in lines[i + 1:i + 4] if nxt.strip()):
            return Stop(_rules_above(lines, i), f"a quoted message begins ({stripped[:20]!r} and a 'From:' line)"), \
                dropped
        if _header_block(lines, i):
            return Stop(_rules_above(lines, i), f"a quoted message's header begins ({stripped[:60]!r})"), dropped
        if own_line(line, own):
            return Stop(_header_start(lines, i), f"a line of the judge's own making ({stripped[:60]!r})"), dropped
        span = is_attribution(lines, i) or (1 if "@" in line and stripped.endswith(":") and _quote_follows(lines, i + 1)
                                            else 0)
        if span:
            if _quote_follows(lines, i + span):
                dropped.update(range(i, i + span))
                i += span
                continue
            return Stop(i, f"a quoted message begins ({stripped[:60]!r})"), dropped
        i += 1
    return None, dropped


def _rules_above(lines: list[str], i: int) -> int:
    """Back from line ``i`` over the separator lines (``-----``, ``-------- Oprindelig besked --------``) and
    blank lines right above it: they belong to the quote."""
    start = i
    j = i - 1
    while j >= 0 and (not lines[j].strip() or _SEPARATOR.match(lines[j])):
        if lines[j].strip():
            start = j
        j -= 1
    return start


def _header_start(lines: list[str], i: int) -> int:
    """Back from the judge's own line at ``i`` over the quoted header above it (header lines, rules,
    blank lines, an attribution): the quoted message starts there."""
    start = i
    j = i - 1
    while j >= 0:
        line = lines[j]
        stripped = line.strip()
        if stripped and not (_key(line) is not None or _RULE.match(line) or _ORIGINAL.match(line)
                             or _SEPARATOR.match(line) or _ATTRIBUTION.search(stripped)):
            break
        if stripped:
            start = j
        j -= 1
    return start
