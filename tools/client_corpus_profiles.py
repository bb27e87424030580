"""How each mail client writes a reply: its headers, MIME structure, charset, transfer encoding,
flowed text and HTML (for ``tools/client_corpus.py``, which puts a bare body into its client's
mail).  The shapes follow the clients' own mails in the public test suites named in
``tests/mail/clients/README.md``."""

from __future__ import annotations

import base64
import quopri
import re
from collections.abc import Callable
from html import escape

from tools.client_corpus_sources import Source

HEAD = ("From: {sender}\nTo: {to}\nSubject: RE: Diplomacy orders cl{n:02d} S1901M\n"
        "Date: Thu, 3 Dec 2026 18:{n:02d}:00 +0100\nMessage-ID: <corpus-{n:02d}@players.example>\n"
        "In-Reply-To: <0123456789abcdef0123456789abcd{n:02d}@judge.test>\nMIME-Version: 1.0\n")


def _head(number: int, source: Source, extra: str = "") -> str:
    to = f"Germany <judge+tok{number:02d}germany@judge.test>" if source.token else "judge@judge.test"
    sender = source.sender or "Hans Beispiel <hans@players.example>"
    return HEAD.format(sender=sender, to=to, n=number) + extra


def _body(text: str, charset: str, cte: str) -> str:
    data = text.replace("\n", "\r\n").encode(charset, "replace")
    if cte == "quoted-printable":
        return quopri.encodestring(data).decode("ascii").replace("\r\n", "\n")
    if cte == "base64":
        return base64.encodebytes(data).decode("ascii")
    return data.decode("utf-8", "surrogateescape").replace("\r\n", "\n")  # the charset's own bytes, as they are


def _part(ctype: str, text: str, charset: str, cte: str, extra: str = "") -> str:
    return (f"Content-Type: {ctype}; charset=\"{charset}\"{extra}\nContent-Transfer-Encoding: {cte}\n\n"
            + _body(text, charset, cte))


def _alternative(head: str, boundary: str, plain: str, html: str) -> str:
    return (head + f"Content-Type: multipart/alternative; boundary=\"{boundary}\"\n\n--{boundary}\n{plain}\n"
            f"--{boundary}\n{html}\n--{boundary}--\n")


def flowed(text: str, width: int = 72) -> str:
    """``text`` as format=flowed (RFC 3676): long lines soft-broken, space-stuffed where needed."""
    out: list[str] = []
    for line in text.split("\n"):
        quote = re.match(r"^(>+ ?)", line)
        prefix = quote.group(1).rstrip() + " " if quote else ""
        body = line[len(quote.group(1)):] if quote else line
        if not quote and (body.startswith((" ", "From ")) or body.startswith(">")):
            body = " " + body
        while len(prefix) + len(body) > width and " " in body[: width - len(prefix)]:
            cut = body.rindex(" ", 0, width - len(prefix)) + 1
            out.append(prefix + body[:cut])
            body = body[cut:]
        out.append((prefix + body) if body or not quote else prefix.rstrip())
    return "\n".join(out)


def _split(text: str) -> tuple[list[str], list[str]]:
    """(the writer's lines, the rest): the rest starts at the first line of furniture or quote."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if re.match(r"^(>|On .*|Le .*|Am .*|-{2,}|_{5,}|From:|De ?:|Von:|Sent from|Get Outlook|Envoy)", line):
            return lines[:i], lines[i:]
    return lines, []


def _html_lines(lines: list[str], open_tag: str, close_tag: str) -> str:
    return "".join(f"{open_tag}{escape(line) if line.strip() else '<br>'}{close_tag}" for line in lines)


def outlook(text: str, number: int, source: Source) -> str:
    own, rest = _split(text)
    version = source.version or "Microsoft Outlook 16.0"
    head = _head(number, source, f"X-Mailer: {version}\nThread-Index: AdnP7Vb3Q0N1k0b1R0WyZ2Tq8x+{number:02d}A==\n"
                                 "Content-Language: en-us\n")
    msonormal = '<p class=MsoNormal>{}<o:p></o:p></p>'
    html = ('<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><meta name=Generator content="Microsoft '
            'Word 15 (filtered medium)"><style><!-- p.MsoNormal {margin:0cm;} --></style></head><body lang=EN-US>'
            '<div class=WordSection1>' + "".join(msonormal.format(escape(x) or "&nbsp;") for x in own)
            + "<div style='border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm'>"
            + "".join(msonormal.format(escape(x) or "&nbsp;") for x in rest) + "</div></div></body></html>")
    charset = source.charset or ("us-ascii" if text.isascii() else "iso-8859-1")
    return _alternative(head, f"_000_VI1PR0{number:02d}MB1234_", _part("text/plain", text, charset, "quoted-printable"),
                        _part("text/html", html, charset, "quoted-printable"))


def outlook_mobile(text: str, number: int, source: Source) -> str:
    own, rest = _split(text)
    head = _head(number, source, "Thread-Topic: Diplomacy orders\nx-ms-has-attach:\nContent-Language: en-US\n")
    html = ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"></head><body>'
            + _html_lines(own, '<div dir="ltr">', "</div>")
            + '<div id="appendonsend"></div><hr style="display:inline-block;width:98%" tabindex="-1">'
            + '<div id="divRplyFwdMsg" dir="ltr">' + "<br>".join(escape(x) for x in rest[:6]) + "</div>"
            + _html_lines(rest[6:], "<div>", "</div>") + "</body></html>")
    return _alternative(head, f"_000_DB7PR0{number:02d}MB5678_", _part("text/plain", text, "utf-8", "quoted-printable"),
                        _part("text/html", html, "utf-8", "quoted-printable"))


def gmail(text: str, number: int, source: Source) -> str:
    own, rest = _split(text)
    quoted = [line[1:].lstrip() if line.startswith(">") else line for line in rest[1:]]
    html = ('<div dir="ltr">' + _html_lines(own, "<div>", "</div>") + '</div><br><div class="gmail_quote">'
            '<div dir="ltr" class="gmail_attr">' + escape(rest[0] if rest else "") + '<br></div>'
            '<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);'
            'padding-left:1ex">' + "<br>".join(escape(x) for x in quoted) + "</blockquote></div>")
    cte = "quoted-printable" if not text.isascii() or max(map(len, text.split("\n"))) > 76 else "7bit"
    charset = source.charset or "UTF-8"
    if charset.lower() == "iso-2022-jp":  # a 7-bit charset (Japanese Gmail)
        cte = "7bit"
    return _alternative(_head(number, source), f"000000000000{number:02d}a1b2c3d4e5f6",
                        _part("text/plain", text, charset, cte), _part("text/html", html, "UTF-8", "quoted-printable"))


def yahoo(text: str, number: int, source: Source) -> str:
    own, rest = _split(text)
    head = _head(number, source, "X-Mailer: WebService/1.1.21952 YMailNorrin\n")
    html = ('<html><head></head><body><div class="ydp3a6c yahoo-style-wrap">' + _html_lines(own, "<div>", "</div>")
            + '</div><div id="yahoo_quoted_12" class="yahoo_quoted">' + _html_lines(rest, "<div>", "</div>")
            + "</div></body></html>")
    return _alternative(head, f"----=_Part_{number:02d}_1234.5678", _part("text/plain", text, "UTF-8", "7bit"),
                        _part("text/html", html, "UTF-8", "quoted-printable"))


def gmx(text: str, number: int, source: Source) -> str:
    """GMX and Web.de: the quoted header (``Sent:`` first) and message below the answer, unmarked in the
    text, in a ``<div name="quote">`` in the HTML."""
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith(("Sent:", "Gesendet:")))
    header = [line for line in lines[at:] if line.strip()]
    head_lines = header[:4]
    html = ('<html><head></head><body><div style="font-family: Verdana;font-size: 12.0px;"><div>'
            + "<br/>".join(escape(x) for x in lines[:at] if x.strip()) + '</div><div>&nbsp;</div>'
            '<div name="quote" style="margin:10px 5px 5px 10px; padding: 10px 0 10px 10px; border-left:2px solid '
            '#C3D9E5;"><div style="margin:0 0 10px 0;">'
            + "<br/>".join("<b>{}</b>&nbsp;{}".format(*map(escape, x.split(" ", 1))) for x in head_lines)
            + '</div><div name="quoted-content">' + "<br/>".join(escape(x) for x in header[4:])
            + "</div></div></div></body></html>")
    head = _head(number, source, "Importance: normal\nSensitivity: Normal\n")
    return _alternative(head, f"=_Part_{number:02d}_gmx", _part("text/plain", text, "UTF-8", "quoted-printable"),
                        _part("text/html", html, "UTF-8", "quoted-printable"))


def proton(text: str, number: int, source: Source) -> str:
    """ProtonMail: ``‐‐‐‐‐‐‐ Original Message ‐‐‐‐‐‐‐`` (Unicode hyphens) and the attribution above a quote
    marked ``>`` in the text, a ``protonmail_quote`` in the HTML."""
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if "Original Message" in line)
    own = [x for x in lines[:at] if x.strip() and not x.startswith("Sent with")]
    rest = [x for x in lines[at:] if x.strip()]
    quoted = [x[1:].lstrip() if x.startswith(">") else x for x in rest[2:]]
    html = (_html_lines(own, "<div>", "</div>") + '<div><br></div><div class="protonmail_signature_block"><div '
            'class="protonmail_signature_block-proton">Sent with <a href="https://protonmail.com">ProtonMail</a> Secure '
            'Email.</div></div><div><br></div><div class="protonmail_quote">' + escape(rest[0]) + "<br>"
            + escape(rest[1]) + '<br><blockquote class="protonmail_quote" type="cite">'
            + "<br>".join(escape(x) for x in quoted) + "</blockquote></div>")
    return _alternative(_head(number, source), f"b1_{number:02d}proton", _part("text/plain", text, "utf-8",
                        "quoted-printable"), _part("text/html", html, "utf-8", "base64"))


def _plain(extra_headers: str, charset: str, cte: str, params: str = "",
           transform: Callable[[str], str] = lambda t: t) -> Callable[[str, int, Source], str]:
    def build(text: str, number: int, source: Source) -> str:
        head = _head(number, source, extra_headers.format(version=source.version))
        return head + _part("text/plain", transform(text), source.charset or charset, cte, params)
    return build


def flowed_delsp(text: str, width: int = 72) -> str:
    """``text`` as format=flowed with ``DelSp=yes`` (Apple Mail): the space ending a soft-broken line is
    the client's own, so a break between words keeps the word's space before it."""
    out: list[str] = []
    for line in text.split("\n"):
        quote = re.match(r"^(>+ ?)", line)
        prefix = quote.group(1).rstrip() + " " if quote else ""
        body = line[len(quote.group(1)):] if quote else line
        if not quote and (body.startswith((" ", "From ")) or body.startswith(">")):
            body = " " + body
        while len(prefix) + len(body) > width and " " in body[: width - len(prefix)]:
            cut = body.rindex(" ", 0, width - len(prefix)) + 1
            out.append(prefix + body[:cut] + " ")
            body = body[cut:]
        out.append((prefix + body) if body or not quote else prefix.rstrip())
    return "\n".join(out)


def apple_reply(raw: bytes) -> str:
    """An Apple Mail reply to the mail ``raw`` (its own attribution line, the quote below it)."""
    from email import message_from_bytes
    from email.utils import parseaddr, parsedate_to_datetime
    msg = message_from_bytes(raw)
    when = parsedate_to_datetime(str(msg["Date"]))
    name, address = parseaddr(str(msg["From"]))
    return (f"Hi\n\nOn {when:%b} {when.day}, {when:%Y}, at {when:%-I:%M} {when:%p}, {name} <{address}> wrote:\n\n"
            "> Here it is.\n")


def apple_mixed(raw: bytes, text: str, number: int, source: Source) -> bytes:
    """Apple Mail's ``multipart/mixed`` as in ``raw`` (a picture pasted into the mail), with the text
    written above the picture and the text below it in parts of their own (format=flowed; delsp=yes)."""
    from email import message_from_bytes
    from email.policy import compat32
    msg = message_from_bytes(raw, policy=compat32)
    parts = msg.get_payload()
    assert isinstance(parts, list)
    picture = parts[0]
    lines = text.split("\n")
    above, below = "\n".join(lines[:source.split]), "\n".join(lines[source.split:])

    def part(body: str) -> object:
        piece = message_from_bytes(("Content-Type: text/plain;\n\tcharset=US-ASCII;\n\tformat=flowed;\n\tdelsp=yes\n"
                                    "Content-Transfer-Encoding: 7bit\n\n" + flowed_delsp(body) + "\n").encode(),
                                   policy=compat32)
        return piece
    msg.set_payload([part(above), picture, part(below)])
    del msg["To"]
    msg["To"] = f"Germany <judge+tok{number:02d}germany@judge.test>" if source.token else "judge@judge.test"
    del msg["Message-Id"]
    msg["Message-Id"] = f"<corpus-{number:02d}@players.example>"
    return msg.as_bytes(policy=compat32)


PROFILES: dict[str, Callable[[str, int, Source], str]] = {
    "outlook": outlook,
    "outlook_mobile": outlook_mobile,
    "gmail": gmail,
    "yahoo": yahoo,
    "gmx": gmx,
    "proton": proton,
    "apple": _plain("X-Mailer: Apple Mail (2.3731.500.231)\n", "utf-8", "quoted-printable"),
    "iphone": _plain("X-Mailer: iPhone Mail (20B101)\n", "utf-8", "quoted-printable"),
    "thunderbird": _plain("User-Agent: Mozilla Thunderbird\n", "UTF-8", "7bit", "; format=flowed", flowed),
    "wlm": _plain("X-Mailer: {version}\nX-MimeOLE: Produced By Microsoft MimeOLE V16.4.3528.331\n", "iso-8859-1",
                  "quoted-printable", ";\n\tformat=flowed;\n\treply-type=original", flowed),
    "emclient": _plain("User-Agent: eM_Client/9.2.2157.0\n", "utf-8", "quoted-printable", "; format=flowed", flowed),
    "zimbra": _plain("X-Mailer: Zimbra 8.8.15_GA_4581 (ZimbraWebClient - FF120 (Linux)/8.8.15_GA_4581)\n"
                     "Thread-Topic: Diplomacy orders\n", "utf-8", "quoted-printable"),
    "mutt": _plain("User-Agent: Mutt/2.2.12 (2023-09-09)\nContent-Disposition: inline\n", "us-ascii", "7bit"),
    "android": _plain("X-Mailer: {version}\n", "UTF-8", "base64"),
    "apple_flowed": _plain("X-Mailer: Apple Mail (2.1085)\n", "utf-8", "quoted-printable", "; format=flowed; delsp=yes",
                           flowed_delsp),
    "roundcube": _plain("User-Agent: Roundcube Webmail/1.2.2\n", "UTF-8", "7bit", "; format=flowed", flowed),
    "thebat": _plain("X-Mailer: The Bat! (v3.99.3) Professional\n", "koi8-r", "8bit"),
    "generic": _plain("X-Mailer: {version}\n", "utf-8", "8bit"),
}
