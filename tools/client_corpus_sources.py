"""The sources of the client corpus (``tools/client_corpus.py``): each a mail or mail body a real
client wrote, from a public test suite (repository, path, licence: tests/mail/clients/README.md),
and where in it the player's text and the judge's quoted acknowledgement go.

``own``: the writer's text replaced by the player's -- ``top`` (its first paragraph), ``lines:N``,
``before:TEXT`` (up to the line holding TEXT), ``none`` (put above everything), ``tail:N`` (its last
N non-blank lines: a bottom-posted answer).  ``ack_after``: the line of the quote's header after
which the judge's acknowledgement is quoted (with the quote marks of the lines below it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

ORDER_SETS: list[tuple[tuple[str, ...], tuple[str, ...]]] = [
    (("A Ber-Pru", "A Mun-Bur", "F Kie-Hol"), ("A BER - PRU", "A MUN - BUR", "F KIE - HOL")),
    (("A Berlin-Kiel", "F Kiel-Denmark", "A Munich-Ruhr"), ("A BER - KIE", "F KIE - DEN", "A MUN - RUH")),
    (("Army Berlin - Kiel, Army Munich - Silesia, Fleet Kiel - Baltic Sea, and that is all from Germany "
      "this spring",), ()),  # replaced below: a line too long for one screen line (flowed clients wrap it)
    (("A Mun-Boh", "A Ber-Mun", "F Kie-Ber"), ("A MUN - BOH", "A BER - MUN", "F KIE - BER")),
]
ORDER_SETS[2] = (("Army Berlin - Kiel, Army Munich - Silesia, Fleet Kiel - Baltic Sea; Army Berlin - Kiel",),
                 ("A BER - KIE", "A MUN - SIL", "F KIE - BAL"))

TALON = ("mailgun/talon", "Apache-2.0")
CRISP = ("crisp-oss/email-reply-parser", "MIT")
GITHUB = ("github/email_reply_parser", "MIT")
ZAPIER = ("zapier/email-reply-parser", "MIT")
DURAND = ("willdurand/EmailReplyParser", "MIT")
DISCOURSE = ("discourse/email_reply_trimmer", "MIT")


@dataclass(frozen=True)
class Source:
    name: str
    client: str
    origin: tuple[str, str]
    path: str
    file: str
    profile: str  # "eml" (a whole mail), "html" (an HTML body), or a client profile (client_corpus_profiles)
    own: str = "top"
    ack_after: str | None = None
    ack_prefix: str | None = None
    orders: int = 0
    token: bool = False
    layout: str = "judge"
    version: str = ""
    sender: str = ""
    html_own: str = ""
    html_ack_after: str = ""
    html_break: str = "<br>"
    html_ack_prefix: str = ""
    # the held-out set (tools/client_corpus_heldout.py) also uses:
    play: tuple[tuple[str, ...], tuple[str, ...]] | None = None  # (the player's order lines, the orders current)
    press: tuple[str, ...] = ()  # a press to England (PRESS TO England ... ENDPRESS) above the orders
    mode: str = "per_unit"  # the game's order mode (whole_set: one refused line voids the mail's orders)
    quote: str = "ack"  # the judge's mail quoted: its acknowledgement ("ack") or its results ("results")
    html_insert_after: str = ""  # the player's lines go in after this (an answer below the quote)
    charset: str = ""  # the charset of a bare HTML body or a profile's text
    split: int = 0  # apple_mixed: how many of the player's lines are in the text part above the picture
    html_drop: tuple[str, ...] = ()  # more of the writer's own HTML text, taken out (its first occurrence each)

    @property
    def repo(self) -> str:
        return self.origin[0]

    @property
    def licence(self) -> str:
        return self.origin[1]


def _t(name: str, client: str, **kw: object) -> Source:
    return Source(name, client, TALON, f"tests/fixtures/standard_replies/{name}.eml", f"talon_{name}.eml", "eml",
                  **kw)  # type: ignore[arg-type]


def _b(origin: tuple[str, str], path: str, client: str, profile: str, **kw: object) -> Source:
    prefix = {CRISP: "crisp_", GITHUB: "github_", ZAPIER: "zapier_", DURAND: "willdurand_",
              DISCOURSE: "discourse_"}[origin]
    name = path.rsplit("/", 1)[1].removesuffix(".txt")
    return Source(name.removeprefix("email_"), client, origin, path, prefix + name + ".txt", profile,
                  **kw)  # type: ignore[arg-type]


_C, _G, _Z, _W, _D = "test/fixtures/", "test/emails/", "test/emails/", "tests/Fixtures/", "test/emails/"
MSO = "<o:p></o:p></span></p><p class=MsoNormal><span>"

_SOURCES = [
    _t("outlook", "Outlook 2010", ack_after="Subject: The manager has", html_own="Allo! Follow up MIME!",
       html_ack_after="Subject:</b> The manager has commented on your Loop", html_break=MSO),
    _t("hotmail", "Hotmail / Outlook.com", ack_after="> Date: Mon, 2 Apr 2012", html_own="Hello",
       html_ack_after="17:44:22 +0400<br>", html_ack_prefix="&gt; "),
    _t("aol", "AOL Mail", ack_after="Subject: Test", html_own="Hello", html_ack_after="Subject: Test<br>"),
    _t("yahoo", "Yahoo Mail", ack_after="Subject: Test"),
    _t("comcast", "Zimbra 6 (Comcast webmail)", ack_after="Subject: Test", html_own="Hello",
       html_ack_after="<b>Subject: </b>Test<br><br>"),
    _t("apple_mail", "Apple Mail (Mac OS X Lion)", ack_after="at 4:19 PM, bob wrote:"),
    _t("apple_mail_2", "Apple Mail 8.2", own="lines:1", ack_after="> Hi there!", ack_prefix="> "),
    _t("iphone", "iPhone Mail", ack_after="wrote:"),
    _t("thunderbird", "Thunderbird 3.1", own="tail:1", ack_after="Megan One wrote:"),
    _t("sparrow", "Sparrow (Mac)", ack_after="at 4:55 PM, xxx wrote:", html_own="Hello",
       html_ack_after='padding-left:10px;">'),
    Source("html_hotmail", "Outlook.com (HTML only)", TALON, "tests/fixtures/html_replies/hotmail.html",
           "talon_html_hotmail.html", "html", html_own="Hi. I am fine.<div><br></div><div>Thanks,</div><div>Alex",
           html_ack_after="To: alex.l@example.com<br><br>", html_break="</div><div>", version="Outlook.com"),
    Source("html_mail_ru", "Mail.Ru webmail (HTML only)", TALON, "tests/fixtures/html_replies/mail_ru.html",
           "talon_html_mail_ru.html", "html", html_own="<p>Hi. I am fine.</p><p>Thanks,<br>Alex</p>",
           html_ack_after='<div id="">', html_break="<br>", version="Mail.Ru Mailer 1.0"),
    Source("html_windows_mail", "Windows Mail 8.1 (HTML only)", TALON,
           "tests/fixtures/html_replies/windows_mail.html", "talon_html_windows_mail.html", "html",
           html_own="<div>Hi. I am fine.</div><div><br></div><div>Thanks,</div><div>Alex<br></div>",
           html_ack_after="<div><br></div><div dir=\"\">", html_break="</div><div>",
           version="Windows Mail 17.5.9600.20498"),
    _b(CRISP, _C + "email_ios_outlook.txt", "Outlook for iOS", "outlook_mobile", ack_after="Subject: Chauffeur"),
    _b(CRISP, _C + "email_ios_outlook_fr.txt", "Outlook for iOS (French)", "outlook_mobile",
       ack_after="Subject: Chauffeur"),
    _b(CRISP, _C + "email_german_outlook.txt", "Outlook 2016 (German)", "outlook", ack_after="Datum: 25.11.2025",
       version="Microsoft Outlook 16.0"),
    _b(CRISP, _C + "email_msn.txt", "Outlook.com (MSN)", "outlook_mobile", ack_after="Subject: Your application"),
    _b(CRISP, _C + "email_zoho.txt", "Zoho Mail", "generic", ack_after="---- On Wed", version="Zoho Mail"),
    _b(CRISP, _C + "email_gmail_split_line_from.txt", "Gmail", "gmail", ack_after="> wrote:"),
    _b(CRISP, _C + "email_outlook_split_line_from.txt", "Outlook 2016", "outlook",
       ack_after="Subject: A new message", version="Microsoft Outlook 16.0"),
    _b(CRISP, _C + "email_original_message.txt", "Outlook 2007", "outlook", ack_after="-----original message-----",
       version="Microsoft Office Outlook 12.0"),
    _b(CRISP, _C + "email_original_message_2.txt", "Outlook Express 6", "wlm",
       ack_after="----- Original Message -----", version="Microsoft Outlook Express 6.00.2900.5512"),
    _b(CRISP, _C + "email_danish_dash_separator.txt", "Samsung Email (Danish)", "android", ack_after="Emne: Abc",
       version="Samsung Email"),
    _b(CRISP, _C + "email_french_dash_separator.txt", "Samsung Email (French)", "android",
       ack_after="Objet : Abc", version="Samsung Email"),
    _b(CRISP, _C + "email_finnish.txt", "Gmail (Finnish)", "gmail", ack_after="kirjoitti:"),
    _b(CRISP, _C + "email_french_2.txt", "Apple Mail (French)", "apple", ack_after="a écrit :",
       ack_prefix="> "),
    _b(CRISP, _C + "email_german.txt", "Gmail for Android (German)", "android", ack_after="schrieb",
       version="Gmail for Android"),
    _b(CRISP, _C + "email_german_2.txt", "Outlook 365 (German)", "outlook", ack_after="Betreff: AW:",
       version="Microsoft Outlook 16.0"),
    _b(CRISP, _C + "email_german_3.txt", "Outlook for Android (German)", "outlook_mobile",
       ack_after="Gesendet von Outlook"),
    _b(CRISP, _C + "email_italian.txt", "Aqua Mail for Android (Italian)", "android", ack_after="ha scritto:",
       version="AquaMail/1.10.0"),
    _b(CRISP, _C + "email_norwegian_gmail.txt", "Gmail (Norwegian)", "gmail", ack_after=">:", ack_prefix="> "),
    _b(CRISP, _C + "email_portuguese.txt", "Airmail (Portuguese)", "apple", ack_after="escreveu:"),
    _b(CRISP, _C + "email_russian.txt", "Gmail (Russian)", "gmail", ack_after="<doe@example.com>:"),
    _b(CRISP, _C + "email_sent_from.txt", "TypeApp for Android", "android", ack_after="mailto:test@gmail.com>> wrote:",
       version="TypeApp for Android"),
    _b(CRISP, _C + "email_iphone.txt", "iPhone Mail", "iphone"),
    _b(CRISP, _C + "email_blackberry.txt", "BlackBerry", "generic", version="BlackBerry Email (10.3.3.2205)"),
    _b(CRISP, _C + "email_en_multiline_2.txt", "Gmail for Android", "android", ack_after="wrote:",
       version="Gmail for Android"),
    _b(CRISP, _C + "email_fr_multiline.txt", "Gmail (French)", "gmail", ack_after="a écrit :"),
    _b(CRISP, _C + "email_thread.txt", "Apple Mail (a thread)", "apple", ack_after="John Doe <john@doe123.com> wrote:"),
    _b(CRISP, _C + "email_tricky_12_no_space_after_header.txt", "Apple Mail (no blank line)", "apple",
       own="lines:5", ack_after="John Smith <john@example.com> wrote:"),
    _b(CRISP, _C + "email_tricky_15_original_message_variations.txt", "Outlook 2013", "outlook",
       ack_after="Subject: RE: Test", version="Microsoft Outlook 15.0"),
    _b(CRISP, _C + "email_tricky_17_forward_header.txt", "Gmail (a forward)", "gmail"),
    _b(CRISP, _C + "email_tricky_18_inline_reply.txt", "mutt (answers between the quoted lines)", "mutt",
       own="inline", ack_after="jane@example.com> wrote:"),
    _b(GITHUB, _G + "email_iPhone.txt", "iPhone Mail", "iphone"),
    _b(GITHUB, _G + "correct_sig.txt", "mutt (a signature)", "mutt"),
    _b(GITHUB, _G + "greedy_on.txt", "MailMate", "thunderbird", own="before:On 9 Jan 2014",
       ack_after="George Plymale wrote:"),
    _b(GITHUB, _G + "email_1_6.txt", "Android (custom 'Sent from')", "android", ack_after="wrote:",
       version="Android Mail"),
    _b(GITHUB, _G + "email_1_7.txt", "Gmail (2012)", "gmail", ack_after="wrote:"),
    _b(GITHUB, _G + "email_1_8.txt", "Gmail (answer under the quote)", "gmail",
       own="span:I will reply under this one|and under this.", ack_after="wrote:"),
    _b(GITHUB, _G + "email_2_1.txt", "Outlook 2010 (via Gmail)", "outlook", ack_after="*Subject:* Google Apps",
       version="Microsoft Outlook 14.0"),
    _b(GITHUB, _G + "email_2_2.txt", "Outlook Web App", "outlook_mobile", ack_after="Subject: [contact:106]"),
    _b(GITHUB, _G + "email_multi_word_sent_from_my_mobile_device.txt", "BlackBerry (Verizon)", "generic",
       version="BlackBerry Email (10.3.3.2205)"),
    _b(ZAPIER, _Z + "email_gmail.txt", "Inbox by Gmail", "gmail", ack_after="wrote:"),
    _b(ZAPIER, _Z + "email_headers_no_delimiter.txt", "Outlook 2010 (no separator)", "outlook",
       ack_after="Subject: Re: New Issue", version="Microsoft Outlook 14.0"),
    _b(DURAND, _W + "email_zimbra_free_en.txt", "Zimbra (Free webmail, English)", "zimbra",
       own="before:- On 2021", ack_after="a wrote:"),
    _b(DURAND, _W + "email_zimbra_free_fr.txt", "Zimbra (Free webmail, French)", "zimbra",
       own="before:- Le 2021", ack_after="a écrit :"),
    _b(DURAND, _W + "email_w10_mail.txt", "Mail for Windows 10", "generic", own="lines:2",
       ack_after="Subject: Re: [#000]", version="Microsoft Windows Mail 16005"),
    _b(DURAND, _W + "email_customer_quote_header_3.txt", "Yahoo Mail (French)", "yahoo", own="lines:3",
       ack_after="Re: Vous avez"),
    _b(DISCOURSE, _D + "email_headers_1.txt", "Outlook 2013 (bold header)", "outlook", ack_after="*Subject:* Are you",
       version="Microsoft Outlook 15.0"),
    _b(DISCOURSE, _D + "email_headers_2.txt", "Outlook Web App 2010", "outlook_mobile", own="lines:1",
       ack_after="Subject: (no subject)"),
    _b(DISCOURSE, _D + "email_headers_3.txt", "Outlook for Mac 2011", "outlook", ack_after="Subject: VIS",
       version="Microsoft-MacOutlook/14.6.1.160122"),
    _b(DISCOURSE, _D + "email_headers_4.txt", "Outlook for Mac (Italian)", "outlook", ack_after="Oggetto: Test",
       version="Microsoft-MacOutlook/16.45.21011103"),
    _b(DISCOURSE, _D + "email_headers_5.txt", "Outlook for Mac 2016", "outlook", own="before:From: Erlend",
       ack_after="Subject: [Discourse Meta]", version="Microsoft-MacOutlook/15.32.0.170309"),
    _b(DISCOURSE, _D + "embedded_email_dutch_1.txt", "iPhone Mail (Dutch)", "iphone",
       ack_after="het volgende geschreven:", ack_prefix="> "),
    _b(DISCOURSE, _D + "embedded_email_swedish.txt", "Outlook 2016 (Swedish)", "outlook", own="before:Från:",
       ack_after="Ämne: [WAT]", version="Microsoft Outlook 16.0"),
    _b(DISCOURSE, _D + "embedded_email_polish_1.txt", "iPhone Mail (Polish)", "iphone", ack_after="napisał(a):"),
    _b(DISCOURSE, _D + "embedded_email_spanish_1.txt", "Gmail (Spanish)", "gmail", own="before:El jueves",
       ack_after="escribió:"),
    _b(DISCOURSE, _D + "embedded_email_norwegian.txt", "iPad Mail (Norwegian)", "iphone",
       ack_after="Jeff Atwood <info@discourse.org<mailto:info@discourse.org>>:"),
    _b(DISCOURSE, _D + "forwarded_apple.txt", "Apple Mail (a forward)", "apple"),
    _b(DISCOURSE, _D + "forwarded_gmail.txt", "Gmail (a forward)", "gmail"),
    _b(DISCOURSE, _D + "usenet.txt", "Thunderbird (a signature)", "thunderbird"),
    _b(DISCOURSE, _D + "embedded_email_german_1.txt", "K-9 Mail for Android (German)", "generic",
       ack_after="schrieb:", version="K-9 Mail for Android"),
    _b(DISCOURSE, _D + "embedded_email_french_1.txt", "Gmail for Android (French)", "android", own="lines:1",
       ack_after="a écrit :", version="Gmail for Android"),
]


def _rotated(number: int, source: Source) -> Source:
    """Every third mail replies to the personal reply address, every fifth quotes the zine layout;
    the four order sets take turns."""
    return replace(source, orders=number % 4, token=number % 3 == 0, layout="zine" if number % 5 == 0 else "judge")


SOURCES = [_rotated(number, source) for number, source in enumerate(_SOURCES, start=1)]
