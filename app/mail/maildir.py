"""Maildir primitives shared by the maildir inbox, the maildir mailer and the test SMTP server.

A maildir is a folder with ``tmp/``, ``new/`` and ``cur/``.  A message is written to
``tmp/`` under a unique name, flushed, then renamed into ``new/``: readers never see
half a message.  Flags live after ``:2,`` in the names of files in ``cur/``.
"""

from __future__ import annotations

import itertools
import os
import socket
import time
from pathlib import Path

__all__ = [
    "deliver",
    "ensure_maildir",
    "flags_of",
    "mailbox_for",
    "unique_name",
]

_SUBDIRS = ("tmp", "new", "cur")
_counter = itertools.count()


def unique_name() -> str:
    """A file name unique on this host: time, process, counter and host name."""
    host = socket.gethostname().replace("/", "\\057").replace(":", "\\072") or "localhost"
    return f"{time.time_ns()}.P{os.getpid()}Q{next(_counter)}.{host}"


def ensure_maildir(path: Path, owner: tuple[int, int] | None = None) -> Path:
    """Create ``path`` and its ``tmp/ new/ cur/`` if missing (owned by ``owner`` when given)."""
    for folder in (path, *(path / sub for sub in _SUBDIRS)):
        if not folder.is_dir():
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            if owner is not None:
                os.chown(folder, *owner)
    return path


def deliver(maildir: Path, data: bytes, owner: tuple[int, int] | None = None) -> Path:
    """Write one message into ``maildir/new`` atomically and return its path."""
    ensure_maildir(maildir, owner)
    name = unique_name()
    tmp = maildir / "tmp" / name
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if owner is not None:
            os.chown(tmp, *owner)
        final = maildir / "new" / name
        os.rename(tmp, final)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return final


def mailbox_for(root: Path, address: str) -> Path:
    """The maildir of ``address`` under ``root``: ``root/<address lower-cased>``.

    Raises ValueError for an address that could escape ``root`` or is not an address.
    """
    name = address.strip().lower()
    if (
        not name
        or len(name) > 254
        or "@" not in name
        or name.startswith(".")
        or any(ch in name for ch in "/\\\0")
        or any(ord(ch) < 33 or ord(ch) == 127 for ch in name)
    ):
        raise ValueError(f"not a deliverable address: {address!r}")
    return root / name


def flags_of(name: str) -> str:
    """The maildir flags in a file name (``"S"`` for ``"123.abc:2,S"``)."""
    _, sep, info = name.partition(":2,")
    return info if sep else ""
