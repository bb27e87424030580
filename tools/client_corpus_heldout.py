"""The held-out client corpus (``tools/client_corpus.py SOURCES_DIR --heldout``): real client mails
from public test suites that the reading was not written against, numbered on from the first
corpus (``tests/mail/clients_heldout/``; sources, paths and licences in its README).

Besides the first corpus's shapes it has answers written below the quote (Thunderbird, Gmail,
Roundcube) and between quoted blocks, a press to England above the orders (with the client's
signature below), games in ``whole_set`` order mode with client furniture in the mail, replies
to the judge's results (not only to its acknowledgement), HTML-only mails of webmails in several
languages, and charsets and encodings of their own (ISO-2022-JP, KOI8-R, GBK, Big5,
windows-1252, format=flowed with DelSp=yes, a picture between two text parts).
"""

from __future__ import annotations

from dataclasses import replace

from tools.client_corpus_sources import DISCOURSE, TALON, Source

FIRST = 74

MPR = ("alfonsrv/mail-parser-reply", "MIT")
QUOTEQUAIL = ("closeio/quotequail", "MIT")
ORIGIN = ("felixfw1990/email-origin", "MIT")
MAILGEM = ("mikel/mail", "MIT")
CRISP = ("crisp-oss/email-reply-parser", "MIT")
IRRD = ("irrdnet/irrd", "BSD-2-Clause")

PLAYS: list[tuple[tuple[str, ...], tuple[str, ...]]] = [
    (("A Ber-Sil", "A Mun S A Ber-Sil", "F Kie-Den"), ("A BER - SIL", "A MUN S BER - SIL", "F KIE - DEN")),
    (("army berlin - prussia", "army munich - bohemia", "fleet kiel - holland"),
     ("A BER - PRU", "A MUN - BOH", "F KIE - HOL")),
    (("F Kie-Den; A Ber-Kie; A Mun-Ruh",), ("F KIE - DEN", "A BER - KIE", "A MUN - RUH")),
    (("A Ber H", "A Mun-Tyr", "F Kie-Bal"), ("A BER H", "A MUN - TYR", "F KIE - BAL")),
]
LONG = (("Fleet Kiel - Heligoland Bight, Army Berlin - Kiel, Army Munich - Burgundy",),
        ("F KIE - HEL", "A BER - KIE", "A MUN - BUR"))  # longer than a flowed client's 72 columns
PRESS = ("Shall we keep the North Sea quiet this year?", "Berlin will not move on Holland.")


def _html(origin: tuple[str, str], path: str, name: str, client: str, **kw: object) -> Source:
    return Source(name, client, origin, path, f"{name}.html", "html", **kw)  # type: ignore[arg-type]


def _text(origin: tuple[str, str], path: str, name: str, client: str, profile: str, **kw: object) -> Source:
    return Source(name, client, origin, path, kw.pop("file", f"{name}.txt"), profile,  # type: ignore[arg-type]
                  **kw)  # type: ignore[arg-type]


def _eo(provider: str, client: str, **kw: object) -> Source:
    return _html(ORIGIN, f"test/Providers/{provider}Test.php (testGetMa)", f"eo_{provider.lower()}", client,
                 version=client, **kw)


def _mpr(name: str, client: str, profile: str, **kw: object) -> Source:
    return _text(MPR, f"test/emails/{name}.txt", f"mpr_{name}", client, profile, **kw)


def _disc(name: str, client: str, profile: str, **kw: object) -> Source:
    return _text(DISCOURSE, f"test/emails/{name}.txt", f"disc_{name}", client, profile, **kw)


def _talon(path: str, name: str, client: str, **kw: object) -> Source:
    return _html(TALON, f"tests/fixtures/{path}", f"talon_{name}", client, version=client, **kw)


_SOURCES = [
    # webmails, HTML only (felixfw1990/email-origin)
    _eo("Hotmail", "Outlook.com (Chinese)", html_own="回复内容", html_ack_after="<div>&nbsp;</div>"),
    _eo("Gmx", "GMX Mail", html_own="&#22238;&#22797;&#20869;&#23481;<br />\n        content1<br />\n        content2<br>",
        html_ack_after='<div name="quoted-content">'),
    _eo("Aol", "AOL Mail (Chinese)", html_own="我的爱人", html_drop=("我爱你",), html_ack_after="Subject: gmail to aol<br>"),
    _eo("Icloud", "iCloud Mail (Chinese)", html_own="回复内容", html_ack_after='<div class="msg-quote">'),
    _eo("Netease", "NetEase 163 Mail", html_own="回复内容<br>content1<br>content2",
        html_ack_after='BORDER-LEFT: #ccc 1px solid">'),
    _eo("Proton", "ProtonMail (Chinese)", html_own="回复内容", mode="whole_set",
        html_ack_after='<blockquote class="protonmail_quote" type="cite">'),
    _eo("Sina", "Sina Mail", html_own="回复内容<br />content1<br />content2<br />", html_ack_after="11点27分<br /></div>"),
    _eo("Tencent", "QQ Mail", html_own="回复内容", html_drop=("content1", "contnet2"),
        html_ack_after="<b>主题:</b> gmail to tencent</div>", html_break="</div><div>"),
    _eo("Yahoo", "Yahoo Mail (Traditional Chinese, Big5)", html_own="回复内容", html_drop=("content1", "content2"),
        html_ack_after='<div id="yiv3306508764">', charset="big5"),
    _eo("Yandex", "Yandex Mail", html_own="回复内容", html_drop=("content1", "content2"),
        html_ack_after="<blockquote>", html_break="</div><div>"),
    _eo("Zoho", "Zoho Mail (Chinese)", html_own="回复内容", mode="whole_set", html_ack_after=" 撰写 ----<br>"),
    _eo("Gmail", "Gmail (Chinese)", html_own="回复内容", html_drop=("this is content 1", "this is content 2"),
        html_ack_after='padding-left:1ex">'),
    # quotequail's HTML replies
    _html(QUOTEQUAIL, "tests/files/apple_reply.html", "qq_apple_reply", "Apple Mail (HTML)",
          html_own='Foo<div class=""><br class=""></div><div class="">Bar</div>', html_break='<br class="">',
          html_ack_after="<br class=\"Apple-interchange-newline\"><div class=\"\">", version="Apple Mail (2.3124)"),
    _html(QUOTEQUAIL, "tests/files/gmail_reply.html", "qq_gmail_reply", "Gmail (HTML, a signature below the quote)",
          html_own="foo<div><br></div><div>bar</div>", html_ack_after='padding-left:1ex">Hi,<br>', press=PRESS,
          version="Gmail"),
    _html(QUOTEQUAIL, "tests/files/ios_mail_reply_unescaped_address.html", "qq_ios_mail_reply", "iPhone Mail (HTML)",
          html_own="Sounds good, I'll be there at 2.", html_break='</div><div dir="ltr">', mode="whole_set",
          html_ack_after='<div dir="ltr">Hey - can we reschedule our 1pm to 2pm tomorrow?</div>', version="iPhone Mail"),
    _html(QUOTEQUAIL, "tests/files/yahoo_reply_unescaped_address.html", "qq_yahoo_reply", "Yahoo Mail (HTML)",
          html_own="Thanks Jane, that looks great. One question on item 2 - can we ship it before Friday?<br><br>Dan",
          html_ack_after="Here's the updated quote with three line items:<br>", version="YMailNorrin"),
    # talon's HTML replies not in the first corpus
    _talon("html_replies/ms_outlook_2003.html", "ms_outlook_2003", "Outlook 2003 (HTML only)",
           html_own="Hi. I am fine.", html_drop=("Thanks,", "Alex<o:p>"), html_break="<br>",
           html_ack_after="Subject:</span></b> Test message</span></font>"),
    _talon("html_replies/ms_outlook_2007.html", "ms_outlook_2007", "Outlook 2007 (HTML only)",
           html_own="Hi. I am fine.", html_drop=("Thanks,", "Alex<o:p>"),
           html_ack_after="<b>Subject:</b> Test message"),
    _talon("html_replies/ms_outlook_2010.html", "ms_outlook_2010", "Outlook 2010 (HTML only, no rule)",
           html_own="Hi. I am fine.", html_drop=("Thanks,", "Alex<o:p>"), html_ack_after="<b>Subject:</b> Conversation"),
    _talon("html_replies/thunderbird.html", "thunderbird", "Thunderbird (HTML, answer below the quote)",
           html_own="Hi. I am fine.<br>\n    <br>\n    Thanks,<br>\n    Alex<br>", html_insert_after="</blockquote>",
           html_ack_after='style="font-family:arial,sans-serif">Hello! How are you?</div>'),
    _talon("html_replies/gmail.html", "gmail", "Gmail (HTML, gmail_default)", html_own="Hi. I am fine.",
           html_drop=("Thanks,", "Alex"), html_ack_after='padding-left:1ex">'),
    _talon("OLK_SRC_BODY_SECTION.html", "outlook_mac", "Outlook for Mac 2011 (HTML only)", html_own="Reply",
           html_ack_after="<span>Subject: </span>Test<br>"),
    _talon("reply-separated-by-hr.html", "zimbra_hr", "Zimbra (HTML only, a rule)", html_own="Hi",
           html_drop=("there", "Bob"), html_ack_after="<b>Subject: </b>Hello<br><br>"),
    Source("android", "Gmail for Android (Russian)", TALON, "tests/fixtures/standard_replies/android.eml",
           "talon_android.eml", "eml", own="lines:1", ack_after="написал:", html_own="Hello",
           html_ack_after='padding-left:1ex">'),
    Source("gmail_2012", "Gmail (2012)", TALON, "tests/fixtures/standard_replies/gmail.eml", "talon_gmail.eml", "eml",
           ack_after="wrote:", html_own="Hello", html_ack_after='padding-left:1ex">'),
    # mail-parser-reply's bodies, in their clients' mails
    _mpr("email_de_wrap", "Gmail (German)", "gmail", own="before:Am Mo.", ack_after="schrieb:", press=PRESS),
    _mpr("email_fr_wrap", "Gmail (French)", "gmail", own="before:Le lun.", ack_after="a écrit:"),
    _mpr("email_es_wrap", "Gmail for Android (Spanish)", "android", own="before:El lun", ack_after="escribió:",
         version="Gmail for Android"),
    _mpr("email_it_wrap", "Gmail (Italian)", "gmail", own="before:Il lun", ack_after="ha scritto:"),
    _mpr("email_nl_wrap", "Gmail (Dutch)", "gmail", own="before:Op ma 15", ack_after="schreef:"),
    _mpr("email_cs_wrap", "Gmail (Czech)", "gmail", own="before:Dne po", ack_after="napsal(a):"),
    _mpr("email_de_wrap_inside", "Gmail for Android (German)", "android", own="before:Am Mo.",
         ack_after="anna.andersson@example.com>:", version="Gmail for Android"),
    _mpr("email_danish_2", "Outlook 365 (Danish)", "outlook", own="before:Fra:", ack_after="Emne: Filerne",
         version="Microsoft Outlook 16.0"),
    _mpr("email_danish_4", "Outlook 2010 (Danish, windows-1252)", "outlook", own="before:-----Oprindelig",
         ack_after="Emne: Hej", charset="windows-1252", version="Microsoft Outlook 14.0"),
    _mpr("email_hu_1", "Gmail (Hungarian)", "gmail", own="before:2026. jan.", ack_after="ezt írta:"),
    _mpr("email_hu_2", "Gmail (Hungarian, an attribution with the date last)", "gmail", own="before:Ügyfélszolgálat",
         ack_after="12:27):"),
    _mpr("email_hu_4", "Thunderbird (Hungarian)", "thunderbird", own="before:2026. 01. 05.",
         ack_after="a következőt írta:", play=LONG),
    _mpr("email_ja_1_2", "Gmail (Japanese, ISO-2022-JP)", "gmail", own="before:2022年1月1日",
         ack_after="<taro.tanaka@example.com>:", charset="iso-2022-jp"),
    _mpr("email_zh_2", "Gmail (Chinese, sent as GBK)", "generic", own="before:2026年2月29日", ack_after="写道：",
         charset="gbk", version="Gmail"),
    _mpr("email_sv_anon_1", "Gmail (Swedish)", "gmail", own="before:ons 4 dec.",
         ack_after="skrev Person B <person.b@email.com>:"),
    _mpr("email_swedish_2", "Gmail for Android (Swedish)", "android", own="before:Den fre", ack_after="skrev:",
         version="Gmail for Android"),
    _mpr("email_nl_1_2", "Outlook 2010 (Dutch, bold headers)", "outlook", own="lines:1",
         ack_after="*Onderwerp:* Google Apps Sync", version="Microsoft Outlook 14.0"),
    _text(MPR, "test/emails/begins_with_signature.txt (its quoted-printable decoded)", "mpr_begins_with_signature",
          "Gmail (a long thread)", "gmail", file="mpr_begins_with_signature.decoded.txt",
          own="before:On Mon, Jun 3, 2024", ack_after="Cody Hart <omerritt@example.com> wrote:"),
    # discourse's bodies not in the first corpus
    _disc("embedded_email_german_3", "Outlook 2016 (German)", "outlook", ack_after="Betreff: Some Subject",
          charset="windows-1252", version="Microsoft Outlook 16.0"),
    _disc("embedded_email_german_4", "Inbox by Gmail (German)", "gmail", ack_after="um 11:53 Uhr:"),
    _disc("embedded_email_german_5", "Gmail (German, a '--' signature)", "gmail", ack_after="um 12:52 Uhr:",
          mode="whole_set"),
    _disc("embedded_email_italian", "Open-Xchange webmail (a quoted attribution, a signature)", "generic",
          ack_after="ha scritto:", ack_prefix="> ", press=PRESS, version="Open-Xchange Mailer v7.8.0"),
    _disc("embedded_email_russian_1", "Gmail for Android (Russian, sent as KOI8-R)", "thebat",
          ack_after="lidel написал:"),
    _disc("embedded_email_ukrainian", "Gmail for Android (Ukrainian)", "android", ack_after="пише:",
          version="Gmail for Android"),
    _disc("embedded_email_portuguese", "Gmail (Portuguese)", "gmail", own="before:Em 2 de", ack_after="escreveu:"),
    _text(DISCOURSE, "test/emails/embedded_email_spanish_2.txt (its quoted-printable decoded)",
          "disc_embedded_email_spanish_2", "Windows Phone Mail (Spanish)", "outlook_mobile",
          file="disc_embedded_email_spanish_2.decoded.txt", ack_after="Asunto: [MP]Parser del email"),
    _disc("embedded_email_french_2", "Roundcube (French, answer below the quote)", "roundcube", own="tail:1",
          ack_after="Heggen a écrit", ack_prefix="> ", play=LONG),
    _disc("embedded_email_dutch_2", "Android Mail (Dutch)", "android", own="lines:2",
          ack_after="volgende geschreven:", version="Android Mail"),
    _disc("embedded_email_polish_2", "Android Mail (Polish)", "android", ack_after="napisał(a):",
          version="Android Mail"),
    _disc("embedded_email_chinese", "Apple Mail (Chinese, format=flowed; delsp=yes)", "apple_flowed",
          ack_after="写道：", ack_prefix="> ", play=LONG, mode="whole_set"),
    _disc("embedded_email_quote_text", "Gmail (answer below the quote)", "gmail", own="tail:2",
          ack_after="info@discourse.org> wrote:"),
    _text(CRISP, "test/fixtures/email_tricky_19_quote_without_header.txt", "crisp_tricky_19_inline",
          "mutt (answers between quoted blocks)", "mutt", file="crisp_email_tricky_19_quote_without_header.txt",
          own="inline:0", ack_after="> without a proper quote header"),
    # the text GMX and ProtonMail send with the HTML of email-origin's samples (their own plain-text forms)
    _text(ORIGIN, "test/Providers/GmxTest.php (its text alternative)", "eo_gmx_text", "GMX Mail (text and HTML)", "gmx",
          own="lines:3", ack_after="Subject: gmail to gmx"),
    _text(ORIGIN, "test/Providers/ProtonTest.php (its text alternative)", "eo_proton_text",
          "ProtonMail (text and HTML, Unicode hyphens)", "proton", own="lines:1", ack_after="来信：", ack_prefix="> "),
    # a mailing list's footer below a Thunderbird reply
    _mpr("email_1_3", "Thunderbird 3 (a mailing list's footer)", "thunderbird", own="before:On 01/03/11",
         ack_after="Russell Brown wrote:"),
    # Apple Mail: a picture pasted between two lines of orders
    Source("apple_picture", "Apple Mail (a picture between two text parts)", MAILGEM,
           "spec/fixtures/emails/attachment_emails/attachment_with_quoted_filename.eml", "mail_apple_picture.eml",
           "apple_mixed", ack_after="wrote:", split=2, play=PLAYS[0]),
    # signed with OpenPGP (GPG Suite in Apple Mail): inline, the armour around the text; and PGP/MIME
    Source("pgp_inline", "Apple Mail with GPG Suite (an inline OpenPGP signature)", IRRD,
           "irrd/utils/tests/test_email.py (test_parse_valid_inline_signed_ascii)", "irrd_inline_signed.eml", "eml",
           own="span:test 1 2 3|test 1 2 3"),
    Source("pgp_mime", "Apple Mail with GPG Suite (PGP/MIME, multipart/signed)", IRRD,
           "irrd/utils/tests/test_email.py (test_parse_valid_multipart_signed_ascii)", "irrd_multipart_signed.eml",
           "eml", own="span:test 1 2 3|test 1 2 3"),
]


def _rotated(number: int, source: Source) -> Source:
    """As in the first corpus, every third mail replies to the personal reply address and every fifth
    quotes the zine layout; every fourth answers the judge's results; the plays take turns."""
    return replace(source, play=source.play or PLAYS[number % 4], token=number % 3 == 0,
                   layout="zine" if number % 5 == 0 else "judge",
                   quote="results" if number % 4 == 1 else "ack")


HELDOUT = [_rotated(number, source) for number, source in enumerate(_SOURCES, start=FIRST)]
