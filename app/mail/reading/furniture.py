"""Step 5 of the reading: the lines a mail client or a mail server adds, dropped without a word.

``Sent from my iPhone``, ``Get Outlook for iOS``, ``Sent from my Android device`` and their
kin (in the common client languages, Chinese, Japanese and Korean too: ``使用Zoho Mail发送``,
``发自我的iPhone``, ``iPhoneから送信``), and a footer that a mailing list, an ISP or a webmail
appends below a rule (``____`` or ``----``) at the end of the mail: a link, an
advertisement, a list's address.  They are no commands, so they are never answered with an
error, and in ``whole_set`` order mode they never void a player's orders.
"""

from __future__ import annotations

import re

__all__ = ["drop_furniture", "is_furniture"]

_SENT_FROM = re.compile(
    r"^\s*(sent (from|via|using|with) \S|"
    r"(get|download) \[?(outlook|aol|yahoo mail|the \S+ app) for (ios|android)|obtenir outlook pour|"
    r"verzonden met |gesendet mit |envoyé avec |inviato con |enviado con |"
    r"outlook für (ios|android) (beziehen|herunterladen)|verstuurd vanaf|wysłane z|"
    r"envoyé (de|depuis|à partir de) |von meinem \S+ gesendet|gesendet von (meinem|mail|outlook)|"
    r"enviado (desde|de|do) (mi|meu|o meu|yahoo|outlook|iphone|ipad)|inviato da (il mio )?\S+|verzonden (vanaf|met) (mijn|outlook)|"
    r"skickat från (min|outlook)|sendt fra (min|outlook)|wysłano z (mojego|mojej|outlook)|отправлено с|"
    r"lähetetty (iphonesta|android)|this e-?mail has been (checked|scanned) (for viruses|by)|"
    r"do you yahoo!\?|yahoo! (mail|messenger|groups|personals|photos)\b|get your free|express yourself instantly|"
    r"msn (messenger|hotmail)\b|join the world's largest e-?mail service|virus-free\.? ?(www\.)?avast|"
    r"\[?external( email| sender)?\]?:? (this|caution|do not)|caution: this (e-?mail|message) originated|"
    r"使用\s*\S.{0,30}发送|使用\s*\S.{0,30}傳送|发自我的|從我的\s*\S.{0,20}傳送|从我的\s*\S.{0,20}发送|"
    r"\S.{0,20}から送信|나의 \S.{0,20}에서 보냄)",
    re.IGNORECASE)
_RULE = re.compile(r"^\s*(_{5,}|-{2,}|={5,}|\*{5,})\s*$")
_FOOTER_WORDS = re.compile(
    r"(https?://|www\.|mailing list|listinfo|unsubscribe|list-?serv|\byahoo!|hotmail|\bmsn\b|messenger|"
    r"free e-?mail|get your own|do you yahoo|\bemail address\b|to post to this group|google groups|"
    r"you received this message|antivirus|virus-free|avast|avg|confidential)", re.IGNORECASE)
_FOOTER_LINES = 10


def is_furniture(line: str) -> bool:
    """A line a client adds under what its user wrote (``Sent from my iPhone``)."""
    return len(line) <= 200 and len(line.strip()) <= 100 and bool(_SENT_FROM.match(line))


def drop_furniture(lines: list[str]) -> list[str]:
    """``lines`` without client furniture and without a footer below a rule at their end."""
    kept = [line for line in lines if not is_furniture(line)]
    end = len(kept)
    while end and not kept[end - 1].strip():
        end -= 1
    for i in range(end - 1, max(-1, end - _FOOTER_LINES - 2), -1):
        if _RULE.match(kept[i]):
            below = [line for line in kept[i + 1:end] if line.strip()]
            if below and len(below) <= _FOOTER_LINES and any(_FOOTER_WORDS.search(line) for line in below):
                return kept[:i]
            break
    return kept
