"""Step 2 of the reading: undo ``format=flowed`` (RFC 3676), as Thunderbird, Apple Mail, mutt,
Windows Live Mail and eM Client send long lines.

A line that ends in a space is soft-broken: the next line of the same quote depth continues it
(with ``DelSp=yes`` that space was added by the client and is dropped).  A line starting with a
space was space-stuffed: that space goes.  ``-- `` (the signature separator) is never soft.
Quoted lines stay quoted: a flowed paragraph of depth 2 comes back as one line starting ``> > ``.
"""

from __future__ import annotations

__all__ = ["unflow"]


def _depth(line: str) -> tuple[int, str]:
    depth = 0
    while depth < len(line) and line[depth] == ">":
        depth += 1
    return depth, line[depth:]


def unflow(text: str, delsp: bool = False) -> str:
    """``text`` with its soft line breaks joined (RFC 3676 section 4.2)."""
    out: list[str] = []
    paragraph: list[str] = []
    para_depth = -1

    def flush() -> None:
        nonlocal paragraph, para_depth
        if para_depth >= 0:
            out.append(("> " * para_depth) + "".join(paragraph))
        paragraph, para_depth = [], -1

    ends_in_newline = text.endswith("\n")
    for raw in text.split("\n")[:-1] if ends_in_newline else text.split("\n"):
        line = raw.rstrip("\r")
        depth, content = _depth(line)
        if content.startswith(" "):
            content = content[1:]  # space-stuffing (or the space after the quote marks)
        if para_depth >= 0 and depth != para_depth:
            flush()  # a quote depth change ends a paragraph, even after a soft break (4.5)
        soft = content.endswith(" ") and content != "-- "
        if soft and delsp:
            content = content[:-1]
        paragraph.append(content)
        para_depth = depth
        if not soft:
            flush()
    flush()
    return "\n".join(out) + ("\n" if ends_in_newline else "")
