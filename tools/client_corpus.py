"""Build ``tests/mail/clients/``: real client mails with a player's sign-on and orders spliced in.

    python -m tools.client_corpus SOURCES_DIR
    python -m tools.client_corpus SOURCES_DIR --heldout   # tests/mail/clients_heldout/

The held-out set's sources are in ``tools/client_corpus_heldout.py`` (its README names them); it
may quote the judge's results instead of its acknowledgement, hold a press, and be played in a
``whole_set`` game (``.expect``: ``quotes``, ``press``, ``mode``).

``SOURCES_DIR`` holds the fixtures named in ``tools/client_corpus_sources.py`` (each copied from
its public test suite, see ``tests/mail/clients/README.md``).  For each source the player's own
text (a sign-on, or a reply to the personal reply address, and Germany's orders) replaces the
writer's text, and the judge's acknowledgement is put into the quote, both the way that client
writes: a full mail keeps its headers, MIME structure, charsets and transfer encodings (each text
part is decoded, spliced and encoded again as it was); a bare body is put into the structure,
headers, charset and transfer encoding of its client's profile.  Writes ``NN-name.eml`` and
``NN-name.expect`` (the game, how the player signs on, the orders that must be current).
"""

from __future__ import annotations

import re
import sys
from email import message_from_bytes
from email.message import Message
from email.policy import compat32
from html import escape
from pathlib import Path

from tools.client_corpus_sources import ORDER_SETS, SOURCES, Source

OUT = Path(__file__).resolve().parents[1] / "tests" / "mail" / "clients"
HELDOUT_OUT = OUT.parent / "clients_heldout"
TOKEN = "tok{n:02d}germany"


def acknowledgement(game: str, layout: str) -> list[str]:
    """The judge's last answer to Germany, as its templates write it (docs/samples/)."""
    echo = ["> A Ber-Sil", "> A Mun H", "> F Kie H"]
    orders = ["A BER - SIL", "A MUN H", "F KIE H"]
    if layout == "zine":
        return [f"{game} (standard) -- S1901M, deadline Thu Dec 03 2026 18:00 UTC", "-" * 72, *echo, "",
                "GERMANY: YOUR ORDERS FOR S1901M", *[f"  {o}" for o in orders],
                "Deadline: Thu Dec 03 2026 18:00 UTC"]
    return [f":: Judge: PJDG  Game: {game}  Variant: standard", ":: Deadline: S1901M Thu Dec 03 2026 18:00 UTC", "",
            *echo, "", "Current orders for Germany:", "", *[f"  {o}" for o in orders], "End of orders.",
            "All units have orders.", "The deadline for S1901M orders is Thu Dec 03 2026 18:00 UTC."]


RESULTS = [("Austria", ["Army Budapest -> Serbia", "Fleet Trieste -> Albania", "Army Vienna -> Galicia"]),
           ("England", ["Fleet Edinburgh -> Norwegian Sea", "Fleet London -> North Sea", "Army Liverpool -> Yorkshire"]),
           ("Germany", ["Army Berlin -> Kiel", "Fleet Kiel -> Denmark", "Army Munich -> Ruhr"]),
           ("Russia", ["Army Moscow -> Ukraine", "Fleet Sevastopol -> Black Sea (*bounce*)", "Army Warsaw HOLD"])]


def results(game: str, layout: str) -> list[str]:
    """The judge's results of a phase (as docs/samples/ shows them), which a player answers."""
    if layout == "zine":
        lines = ["=" * 72, f"THE {game.upper()} GAZETTE".center(72).rstrip(),
                 "Standard Diplomacy  *  Spring 1901 Movement".center(72).rstrip(), "=" * 72, ""]
        for power, moves in RESULTS:
            lines += [power.upper(), *[f"  {move}" for move in moves], ""]
        return lines + ["NMR: Italy"]
    lines = [f":: Judge: PJDG  Game: {game}  Variant: standard", ":: Deadline: F1901M Thu Dec 10 2026 18:00 UTC", "",
             f"Movement results for Spring of 1901.  ({game}.S1901M)", ""]
    for power, moves in RESULTS:
        lines += [f"{power}: {move.replace(' (*bounce*)', '.  (*bounce*)')}"
                  + ("" if "(*bounce*)" in move else ".") for move in moves] + [""]
    return lines + [f"The next phase of '{game}' will be Movement for Fall of 1901.",
                    "The deadline for orders will be Thu Dec 10 2026 18:00 UTC."]


def quoted(number: int, source: Source) -> list[str]:
    """The judge's mail the player answers: its acknowledgement or its results."""
    game = f"cl{number:02d}"
    return results(game, source.layout) if source.quote == "results" else acknowledgement(game, source.layout)


def play(source: Source) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return source.play if source.play is not None else ORDER_SETS[source.orders]


def own_lines(number: int, source: Source) -> list[str]:
    game = f"cl{number:02d}"
    lines = [] if source.token else [f"SIGNON G{game} pwgermany"]
    if source.press:
        lines += ["PRESS TO England", *source.press, "ENDPRESS"]
    return lines + list(play(source)[0])


def _find(lines: list[str], needle: str, start: int = 0) -> int:
    for i in range(start, len(lines)):
        if needle in lines[i]:
            return i
    raise LookupError(f"{needle!r} not found")


def splice_text(text: str, number: int, source: Source, *, flowed: bool = False) -> str:
    """The writer's text replaced by the player's, the acknowledgement put into the quote."""
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.split(newline)
    own = own_lines(number, source)
    if flowed:
        from tools.client_corpus_profiles import flowed as flow
        own = flow("\n".join(own)).split("\n")
    ack = quoted(number, source)
    if source.ack_after is not None:
        at = _find(lines, source.ack_after)
        prefix = source.ack_prefix if source.ack_prefix is not None else _quote_prefix(lines, at)
        lines[at + 1:at + 1] = [(prefix + line).rstrip() if line else prefix.rstrip() for line in ack] + [""]
    if source.own.startswith("inline"):  # an answer between the quoted lines: one of the player's lines for each
        first = 0 if source.own == "inline:0" else 1  # of the writer's ("inline": from its second line)
        mine = [i for i, line in enumerate(lines) if line.strip() and not line.startswith(">") and i >= first]
        for k, i in enumerate(mine):
            lines[i] = own[k] if k < len(mine) - 1 else "\n".join(own[k:])
        return newline.join("\n".join(lines).split("\n"))
    if source.own == "none":
        lines = own + [""] + lines
    elif source.own.startswith("tail:"):
        count = int(source.own[5:])
        nonblank = [i for i, line in enumerate(lines) if line.strip()]
        start, end = nonblank[-count], nonblank[-1] + 1
        lines[start:end] = own
    else:
        start, end = _own_range(lines, source.own)
        lines[start:end] = own
    return newline.join(lines)


def _quote_prefix(lines: list[str], at: int) -> str:
    for line in lines[at + 1:]:
        if line.strip():
            match = re.match(r"^((?:>\s?)+)", line)
            return match.group(1) if match else ""
    return ""


def _own_range(lines: list[str], how: str) -> tuple[int, int]:
    first = next((i for i, line in enumerate(lines) if line.strip()), 0)
    if how.startswith("before:"):
        return first, _find(lines, how[7:])
    if how.startswith("span:"):
        first_text, _, last_text = how[5:].partition("|")
        start = _find(lines, first_text)
        return start, _find(lines, last_text, start) + 1
    if how.startswith("lines:"):
        count = int(how[6:])
        return first, first + count
    end = next((i for i in range(first, len(lines)) if not lines[i].strip()), len(lines))
    return first, end


# ---------------------------------------------------------------------------------- full mails


def splice_mail(raw: bytes, number: int, source: Source) -> bytes:
    msg = message_from_bytes(raw, policy=compat32)
    for part in msg.walk():
        if part.is_multipart() or part.get_content_maintype() != "text":
            continue
        html = part.get_content_subtype() == "html"
        text = _decoded(part)
        if html:
            text = _splice_html(text, number, source)
        else:
            text = splice_text(text, number, source, flowed=str(part.get_param("format") or "").lower() == "flowed")
        _encode(part, text)
    _headers(msg, number, source)
    return msg.as_bytes(policy=compat32)


def _decoded(part: Message) -> str:
    data = part.get_payload(decode=True)
    assert isinstance(data, bytes)
    return data.decode(part.get_content_charset() or "us-ascii", "replace")


def _encode(part: Message, text: str) -> None:
    """The part's text again, in its own charset and transfer encoding."""
    charset = part.get_content_charset() or "us-ascii"
    cte = str(part.get("Content-Transfer-Encoding", "7bit")).lower().strip()
    data = text.encode(charset, "xmlcharrefreplace")
    del part["Content-Transfer-Encoding"]
    if cte == "base64":
        import base64
        encoded = base64.encodebytes(data).decode("ascii")
    elif cte == "quoted-printable":
        import quopri
        encoded = quopri.encodestring(data).decode("ascii")
    else:
        encoded = data.decode(charset)
    part["Content-Transfer-Encoding"] = cte if cte in ("base64", "quoted-printable", "8bit") else "7bit"
    part.set_payload(encoded)


def _splice_html(html: str, number: int, source: Source) -> str:
    own = own_lines(number, source)
    ack = quoted(number, source)
    brk = source.html_break
    for text in source.html_drop:
        assert text in html, text
        html = html.replace(text, "", 1)
    if source.html_ack_after:
        at = html.index(source.html_ack_after) + len(source.html_ack_after)
        html = html[:at] + brk.join(source.html_ack_prefix + escape(line) for line in ack) + brk + html[at:]
    mine = brk.join(escape(line) for line in own)
    if source.html_insert_after:  # an answer below the quote
        at = html.index(source.html_insert_after) + len(source.html_insert_after)
        html = html[:at] + mine + html[at:]
    if source.html_own:
        assert source.html_own in html, source.html_own
        html = html.replace(source.html_own, "" if source.html_insert_after else mine, 1)
    return html


def _headers(msg: Message, number: int, source: Source) -> None:
    del msg["To"]
    msg["To"] = f"Germany <judge+{TOKEN.format(n=number)}@judge.test>" if source.token else "judge@judge.test"
    if msg["Message-ID"] is None and msg["Message-Id"] is None:
        msg["Message-ID"] = f"<corpus-{number:02d}@players.example>"
    else:
        del msg["Message-ID"]
        msg["Message-ID"] = f"<corpus-{number:02d}@players.example>"
    if source.sender:
        del msg["From"]
        msg["From"] = source.sender


# ---------------------------------------------------------------------------------- bare bodies


def build_body(body: str, number: int, source: Source) -> bytes:
    from tools.client_corpus_profiles import PROFILES

    if source.profile == "html":
        html = _splice_html(body, number, source)
        return (_html_head(number, source) + _qp(html, source.charset or "utf-8")).encode("ascii")
    text = splice_text(body.replace("\r\n", "\n"), number, source)
    return PROFILES[source.profile](text, number, source).encode("utf-8", "surrogateescape")


def _html_head(number: int, source: Source) -> str:
    to = f"Germany <judge+{TOKEN.format(n=number)}@judge.test>" if source.token else "judge@judge.test"
    return (f"From: Hans Beispiel <hans@players.example>\nTo: {to}\nSubject: RE: Diplomacy orders cl{number:02d} "
            f"S1901M\nDate: Thu, 3 Dec 2026 18:{number:02d}:00 +0100\nMessage-ID: <corpus-{number:02d}@players.example>\n"
            f"X-Mailer: {source.version}\nMIME-Version: 1.0\nContent-Type: text/html; charset=\"{source.charset or 'utf-8'}\"\n"
            f"Content-Transfer-Encoding: quoted-printable\n\n")


def _qp(text: str, charset: str = "utf-8") -> str:
    import quopri
    return quopri.encodestring(text.encode(charset, "xmlcharrefreplace")).decode("ascii")


def expect(number: int, source: Source) -> str:
    orders = play(source)[1]
    extra = "" if source.quote == "ack" else f"quotes: {source.quote}\n"
    extra += "" if source.mode == "per_unit" else f"mode: {source.mode}\n"
    extra += f"press: {' | '.join(source.press)}\n" if source.press else ""
    return (f"client: {source.client}\nsource: {source.repo} {source.path}\ngame: cl{number:02d}\n"
            f"signon: {'token ' + TOKEN.format(n=number) if source.token else 'password'}\n"
            f"layout: {source.layout}\norders: {' | '.join(orders)}\n{extra}")


def main(argv: list[str]) -> None:
    """``SOURCES_DIR`` builds tests/mail/clients/; ``SOURCES_DIR --heldout`` the held-out set,
    tests/mail/clients_heldout/ (numbered on from the first)."""
    sources = Path(argv[0])
    if "--heldout" in argv[1:]:
        from tools.client_corpus_heldout import FIRST, HELDOUT
        chosen, first, out = HELDOUT, FIRST, HELDOUT_OUT
    else:
        chosen, first, out = SOURCES, 1, OUT
    out.mkdir(parents=True, exist_ok=True)
    for number, source in enumerate(chosen, start=first):
        raw = (sources / source.file).read_bytes()
        if source.profile == "eml":
            data = splice_mail(raw, number, source)
        elif source.profile == "apple_mixed":
            from tools.client_corpus_profiles import apple_mixed, apple_reply
            data = apple_mixed(raw, splice_text(apple_reply(raw), number, source), number, source)
        else:
            data = build_body(raw.decode("utf-8"), number, source)
        data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")  # CRLF, as on the wire
        name = f"{number:02d}-{source.name}"
        (out / f"{name}.eml").write_bytes(data)
        (out / f"{name}.expect").write_text(expect(number, source))
    print(f"{len(chosen)} mails written to {out}")


__all__ = ["acknowledgement", "main", "results"]

if __name__ == "__main__":
    main(sys.argv[1:])
