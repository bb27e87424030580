"""HTML mail to plain text, good enough to read commands from (stdlib only)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

__all__ = ["html_to_text"]

_BLOCKS = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "div",
        "dl",
        "dt",
        "dd",
        "fieldset",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hr",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "table",
        "tbody",
        "thead",
        "tfoot",
        "tr",
        "ul",
    ]
)
_SKIPPED = frozenset({"script", "style", "head", "title", "template", "noscript"})
_SPACES = re.compile(r"[ \t\r\n\f\v]+")


class _TextExtractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.current: list[str] = []
        self.skip_depth = 0
        self.quote_depth = 0
        self.pre_depth = 0

    def _break(self, explicit: bool = False) -> None:
        """End the current line; an empty one is kept only for an explicit ``<br>``."""
        joined = "".join(self.current)
        line = joined.rstrip() if self.pre_depth else joined.strip()
        self.current = []
        if line or explicit:
            self.lines.append(("> " * self.quote_depth) + line if line else "")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED:
            self.skip_depth += 1
        elif tag == "br":
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
        if tag == "br":
            self._break(explicit=True)
        elif tag in _BLOCKS:
            self._break()

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self.skip_depth = max(0, self.skip_depth - 1)
        elif tag in _BLOCKS:
            self._break()
            if tag == "blockquote":
                self.quote_depth = max(0, self.quote_depth - 1)
            elif tag == "pre":
                self.pre_depth = max(0, self.pre_depth - 1)

    def handle_data(self, data: str) -> None:
        if self.skip_depth:
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


def html_to_text(html: str) -> str:
    """The visible text of ``html``: blocks and ``<br>`` become line breaks, quotes get ``> ``."""
    extractor = _TextExtractor()
    extractor.feed(html)
    extractor.close()
    extractor._break()
    return "\n".join(extractor.lines).strip("\n") + "\n"
