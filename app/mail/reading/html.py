"""Step 3 of the reading: an HTML part to the lines a client shows (stdlib only).

Blocks (Outlook's ``MsoNormal`` paragraphs, ``<div>``s) and ``<br>`` each end a line; text a
mail server put after ``</body></html>`` (an ISP's or webmail's footer) is a line of its own.
The clients' reply markers are honoured:

- where Outlook (desktop, Outlook.com, Outlook for iOS/Android, AOL) begins the message it
  quotes without any quote marks -- ``divRplyFwdMsg``, the ``border-top`` header ``div``,
  ``#appendonsend``, ``OutlookMessageHeader``, Hotmail's ``stopSpelling`` rule -- reading stops:
  everything below is the quoted message (``Html.quoted`` keeps it, for the count);
- a quote the client wraps in an element of its own -- Gmail's ``gmail_quote``, Yahoo's
  ``yahoo_quoted``, Thunderbird's ``moz-cite-prefix`` attribution, Apple's and Thunderbird's
  ``<blockquote type="cite">``, GMX's and Web.de's ``<div name="quote">`` -- is left out, and
  reading goes on after it (a bottom-posted or inline answer).  Any other ``<blockquote>`` becomes
  ``> `` lines, which are not run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

__all__ = ["Html", "html_lines", "html_to_text"]

_BLOCK_NAMES = ("address article aside blockquote body center div dl dt dd fieldset figure footer form h1 h2 h3 h4 h5 "
                "h6 header hr html li main nav ol p pre section table tbody thead tfoot tr ul")
_BLOCKS = frozenset(_BLOCK_NAMES.split())
_SKIPPED = frozenset({"script", "style", "head", "title", "template", "noscript", "xml"})
_SPACES = re.compile(r"[ \t\r\n\f\v]+")
_OUTLOOK_IDS = re.compile(r"(^|_)(divRplyFwdMsg|appendonsend|stopSpelling|zwchr|"
                          r"mail-editor-reference-message-container)$", re.IGNORECASE)
_OUTLOOK_CLASSES = re.compile(r"(^|\s)(OutlookMessageHeader|divRplyFwdMsg|ms-outlook-mobile-reference-message)(\s|$)",
                              re.IGNORECASE)
_OUTLOOK_NAMES = re.compile(r"^messageReplySection$", re.IGNORECASE)
_BORDER_TOP = re.compile(r"border-top(-style)?:\s*solid", re.IGNORECASE)
# a class name may carry a prefix of the client's (Yahoo's ``ydp9b1f0a55yahoo_quoted``, Outlook's ``x_``)
_QUOTE_CLASSES = re.compile(r"(^|\s)[\w-]*?(gmail_quote|gmail_attr|yahoo_quoted|moz-cite-prefix|protonmail_quote|"
                            r"zmail_extra)(\s|$)", re.IGNORECASE)
_QUOTE_NAMES = re.compile(r"^quote$", re.IGNORECASE)  # GMX's and Web.de's ``<div name="quote">``


@dataclass
class Html:
    """The lines of an HTML part: ``lines`` read, ``quoted`` those below a reply marker, ``marker``
    the marker that started the quoted message (None: no such marker)."""

    lines: list[str] = field(default_factory=list)
    quoted: list[str] = field(default_factory=list)
    marker: str | None = None


class _Lines(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out = Html()
        self.current: list[str] = []
        self.skip_depth = 0
        self.quote_depth = 0
        self.pre_depth = 0
        self.hidden: str | None = None  # the tag name of the quote element being left out
        self.hidden_depth = 0

    @property
    def target(self) -> list[str]:
        return self.out.quoted if self.out.marker is not None else self.out.lines

    def _break(self, explicit: bool = False) -> None:
        """End the current line; an empty one is kept only for an explicit ``<br>``."""
        joined = "".join(self.current)
        line = joined.rstrip() if self.pre_depth else joined.strip()
        self.current = []
        if line or explicit:
            self.target.append(("> " * self.quote_depth) + line if line else "")

    def _marker(self, tag: str, attrs: dict[str, str]) -> str | None:
        """The name of the Outlook reply marker ``tag`` is, if it is one."""
        if (_OUTLOOK_IDS.search(attrs.get("id", "")) or _OUTLOOK_CLASSES.search(attrs.get("class", ""))
                or _OUTLOOK_NAMES.search(attrs.get("name", ""))):
            return f"Outlook's reply header ({attrs.get('id') or attrs.get('class')})"
        if tag == "div" and _BORDER_TOP.search(attrs.get("style", "")):
            return "Outlook's reply header (the rule above the quoted message)"
        return None

    def _hides(self, tag: str, attrs: dict[str, str]) -> bool:
        if _QUOTE_CLASSES.search(attrs.get("class", "")) or _QUOTE_NAMES.search(attrs.get("name", "")):
            return True
        return tag == "blockquote" and attrs.get("type", "").lower() == "cite"

    def handle_starttag(self, tag: str, attr_list: list[tuple[str, str | None]]) -> None:
        attrs = {k.lower(): (v or "") for k, v in attr_list}
        if self.hidden is not None:
            if tag == self.hidden:
                self.hidden_depth += 1
            return
        if tag in _SKIPPED:
            self.skip_depth += 1
            return
        if self.out.marker is None:
            marker = self._marker(tag, attrs)
            if marker is not None:
                self._break()
                self.out.marker = marker
            elif self._hides(tag, attrs):
                self._break()
                self.hidden, self.hidden_depth = tag, 1
                return
        if tag == "br":
            self._break(explicit=True)
        elif tag in _BLOCKS:
            self._break()
            if tag == "blockquote":
                self.quote_depth += 1
            elif tag == "pre":
                self.pre_depth += 1
            elif tag == "li":
                self.current.append("- ")
        elif tag in ("td", "th") and self.current:
            self.current.append(" ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.hidden is not None:
            return
        if tag == "br":
            self._break(explicit=True)
        elif tag in _BLOCKS:
            self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if self.hidden is not None:
            if tag == self.hidden:
                self.hidden_depth -= 1
                if self.hidden_depth <= 0:
                    self.hidden = None
            return
        if tag in _SKIPPED:
            self.skip_depth = max(0, self.skip_depth - 1)
        elif tag in _BLOCKS:
            self._break()
            if tag == "blockquote":
                self.quote_depth = max(0, self.quote_depth - 1)
            elif tag == "pre":
                self.pre_depth = max(0, self.pre_depth - 1)

    def handle_data(self, data: str) -> None:
        if self.skip_depth or self.hidden is not None:
            return
        if self.pre_depth:
            for i, part in enumerate(data.split("\n")):
                if i:
                    self._break(explicit=True)
                self.current.append(part)
            return
        text = _SPACES.sub(" ", data)
        if not self.current or "".join(self.current).endswith(" "):
            text = text.lstrip(" ")
        self.current.append(text)


def html_lines(html: str) -> Html:
    """The lines of ``html`` as a client shows them, split at the first Outlook reply marker."""
    parser = _Lines()
    parser.feed(html)
    parser.close()
    parser._break()
    for lines in (parser.out.lines, parser.out.quoted):
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1].strip():
            lines.pop()
    return parser.out


def html_to_text(html: str) -> str:
    """The visible text of ``html`` (above any Outlook reply marker), one line a block or ``<br>``."""
    return "\n".join(html_lines(html).lines) + "\n"
