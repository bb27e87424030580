"""A standard game of 7 players played by mail for two game years, over real IMAP, SMTP and
PostgreSQL, with `judge serve` as a separate process."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable

from tests.e2e.conftest import Mailbox, ServerProcess, send_mail, server_env, subject_has, text_of, unique

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]

S1901 = {
    "AUSTRIA": "A Vie-Gal\nA Bud-Ser\nF Tri-Alb",
    "ENGLAND": "F Lon-Nth, F Edi-Nwg, A Lvp-Yor",
    "FRANCE": "A Par-Bur; A Mar-Spa; F Bre-Mao",
    "GERMANY": "F Kie-Den\nA Mun-Ruh\nA Ber-Kie",
    "RUSSIA": "A Mos-Ukr\nA War H\nF Sev-Bla\nF Stp/sc-Bot",
    "TURKEY": "A Con-Bul\nA Smy-Arm\nF Ank-Bla",
}
F1901 = {
    "AUSTRIA": "A Gal H\nA Ser H\nF Alb-Gre",
    "ENGLAND": "F Nwg-Nwy\nF Nth H\nA Yor H",
    "FRANCE": "A Bur H\nA Spa H\nF Mao-Por",
    "GERMANY": "F Den H\nA Ruh-Hol\nA Kie H",
    "ITALY": "A Ven H\nA Rom-Apu\nF Nap-Ion",
    "RUSSIA": "A War-Gal\nA Ukr S A War-Gal\nF Sev-Rum\nF Bot-Swe",
    "TURKEY": "A Bul H\nA Arm H\nF Ank H",
}
W1901 = {
    "AUSTRIA": "BUILD A BUD\nBUILD F TRI",
    "ENGLAND": "BUILD F LON",
    "FRANCE": "BUILD A PAR\nBUILD F BRE",
    "GERMANY": "BUILD A BER\nBUILD A MUN",
    "RUSSIA": "BUILD A MOS\nBUILD A WAR",
    "TURKEY": "BUILD A SMY",
}


def test_two_game_years_by_mail(pg_url: str, mail_services: None,
                                server_factory: Callable[..., ServerProcess]) -> None:
    game = f"e2e{secrets.token_hex(3)}"
    judge = unique("judge")
    gm = Mailbox(unique("gm"))
    boxes = {p: Mailbox(unique(p.lower())) for p in POWERS}
    server_factory(server_env(pg_url, judge)).start()

    def signon(power: str) -> str:
        return f"SIGNON {power[0]}{game} pw{power.lower()}\n"

    def confirm(box: Mailbox, what: str) -> None:
        """Issue 29: a CREATE or JOIN by mail waits for its address to answer the confirmation mail."""
        asked = box.wait_for(lambda m: "+c-" in str(m["Reply-To"] or ""), what=f"{what} confirmation")
        assert "Waiting for your confirmation" in text_of(asked)
        send_mail(box.address, str(asked["Reply-To"]), "Yes, that was me.\n", subject="Re: confirm", envelope=judge)

    send_mail(gm.address, judge, f"CREATE {game} masterpw\nSET NMR hold\nSET REMINDER 0\nSET EARLY 0\nSIGNOFF\n")
    confirm(gm, "CREATE")
    created = text_of(gm.wait_for(lambda m: True, what="CREATE reply"))
    assert f"Game '{game}' (standard) created" in created

    for power in POWERS:
        send_mail(boxes[power].address, judge, f"JOIN {game} pw{power.lower()} {power}\n")
    for power in POWERS:
        confirm(boxes[power], "JOIN")
    for power in POWERS:
        box = boxes[power]
        start = text_of(box.wait_for(subject_has("has started"), what="start notice"))
        assert f"You are {power.title()}" in start
        box.wait_for(lambda m: "Diplomacy" in str(m["Subject"]) or "Re:" in str(m["Subject"]), what="JOIN reply")
    # ---- S1901M: six powers order, Italy sends nothing (the NMR); France and England exchange press.
    for power, orders in S1901.items():
        extra = ""
        if power == "FRANCE":
            extra = "PRESS TO ENGLAND\nShall we split the Channel?\nENDPRESS\n"
        if power == "ENGLAND":
            extra = "BROADCAST\nEngland wishes everyone a pleasant war.\nENDPRESS\n"
        send_mail(boxes[power].address, judge, signon(power) + orders + "\n" + extra + "SIGNOFF\n-- \nsent from a phone",
                  subject="")  # no subject: the answer is titled by the judge (Diplomacy orders <game> <phase>)
    for power in S1901:
        ack = text_of(boxes[power].wait_for(subject_has("Diplomacy orders"), what="S1901M acknowledgement"))
        assert f"Current orders for {power.title()}:" in ack, ack
        assert "All units have orders." in ack, ack
        assert "Error" not in ack, ack
    press = text_of(boxes["ENGLAND"].wait_for(subject_has("press"), what="France's press"))
    assert "Shall we split the Channel?" in press and "from France" in press
    for power in POWERS:
        if power != "ENGLAND":
            text = text_of(boxes[power].wait_for(subject_has("press"), what="England's broadcast"))
            assert "pleasant war" in text
    send_mail(gm.address, judge, f"SIGNON master@{game} masterpw\nPROCESS S1901M\n")
    results = {}
    for power in POWERS:
        results[power] = text_of(boxes[power].wait_for(subject_has("results"), what="S1901M results"))
    text = results["ITALY"]
    assert "Movement results for Spring of 1901." in text
    assert "France: Army Paris -> Burgundy." in text
    assert "Russia: Fleet Sevastopol -> Black Sea.  (*bounce*)" in text
    assert "No orders received from: Italy." in text
    assert "The next phase of" in text and "Movement for Fall of 1901" in text
    # Reply-To of every judge mail is the player's personal address.
    reply_to = {p: str(boxes[p].fetch_all()[-1][1]["Reply-To"]) for p in POWERS}
    assert all("+" in address for address in reply_to.values())

    # ---- F1901M: everybody orders; England uses the personal reply address (no password).
    for power, orders in F1901.items():
        if power == "ENGLAND":
            send_mail(boxes[power].address, reply_to[power], orders + "\n", subject=f"Re: Diplomacy results {game} S1901M",
                      envelope=judge)
            continue
        send_mail(boxes[power].address, judge, signon(power) + orders + "\n", subject="")
    for power in F1901:  # England's answer is Re: its subject, threaded with the results it answered
        wanted = f"Re: Diplomacy results {game} S1901M" if power == "ENGLAND" else "Diplomacy orders"
        ack = text_of(boxes[power].wait_for(subject_has(wanted), what="F1901M acknowledgement"))
        assert "All units have orders." in ack, ack
    for power in POWERS:
        results[power] = text_of(boxes[power].wait_for(subject_has("results"), what="F1901M results", timeout=90))
    text = results["AUSTRIA"]
    assert "Movement results for Fall of 1901." in text
    assert "Austria: Army Galicia HOLD.  (*dislodged*)" in text
    assert "The following units were dislodged:" in text
    assert "Retreats for Fall of 1901" in text

    # ---- F1901R: Austria retreats; nobody else has anything to order, so it goes early.
    send_mail(boxes["AUSTRIA"].address, judge, signon("AUSTRIA") + "A Gal-Boh\n")
    for power in POWERS:
        results[power] = text_of(boxes[power].wait_for(subject_has("results"), what="F1901R results", timeout=90))
    text = results["RUSSIA"]
    assert "Retreat orders for Fall of 1901." in text
    assert "Bohemia" in text
    assert "Ownership of supply centers:" in text
    assert re.search(r"Austria: +5 Supply centers, +3 Units: +Builds +2 units\.", text), text

    # ---- W1901A: builds.
    for power, orders in W1901.items():
        send_mail(boxes[power].address, judge, signon(power) + orders + "\n")
    for power in POWERS:
        results[power] = text_of(boxes[power].wait_for(subject_has("results"), what="W1901A results", timeout=90))
    text = results["FRANCE"]
    assert "Adjustment orders for Winter of 1901." in text
    assert "France:     Builds an army in Paris." in text

    # ---- 1902: each power asks for its status, then orders every unit listed as missing: HOLD.
    for phase in ("S1902M", "F1902M"):
        for power in POWERS:
            send_mail(boxes[power].address, judge, signon(power) + "STATUS\n", subject="")
        for power in POWERS:
            ack = text_of(boxes[power].wait_for(subject_has(f"orders {game} {phase}"), what=f"{phase} status"))
            match = re.search(r"Units still without orders: (.*)\.", ack)
            assert match, ack
            holds = "\n".join(f"{unit} H" for unit in match.group(1).split(", "))
            send_mail(boxes[power].address, judge, signon(power) + holds + "\n", subject="")
        for power in POWERS:
            boxes[power].wait_for(subject_has(f"orders {game} {phase}"), what=f"{phase} acknowledgement")
        for power in POWERS:
            results[power] = text_of(boxes[power].wait_for(subject_has(f"results {game} {phase}"),
                                                            what=f"{phase} results", timeout=90))
    assert "Movement results for Fall of 1902." in results["TURKEY"]
    # ---- Every mailbox: six results, no duplicates.
    for power in POWERS:
        subjects = [str(m["Subject"]) for _, m in boxes[power].fetch_all()]
        result_subjects = [s for s in subjects if s.startswith("Diplomacy results")]
        assert len(result_subjects) == 6, subjects
        assert len(set(result_subjects)) == 6, subjects
    # The GM's copy of the last results may be sent after the players' (the drain's order): wait for it.
    gm.wait_for(subject_has(f"results {game} F1902M"), what="the GM's F1902M results", timeout=90)
    gm_subjects = [str(m["Subject"]) for _, m in gm.fetch_all()]
    assert len([s for s in gm_subjects if "results" in s]) == 6, gm_subjects
