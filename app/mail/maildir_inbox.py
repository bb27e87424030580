"""The embedded mode's inbox: a local maildir folder.

Waiting mail is every file in ``new/`` and every file in ``cur/`` without the ``S``
(seen) flag.  ``mark_done`` renames the file into ``cur/`` with the ``S`` flag;
``quarantine`` moves it into the Maildir++ subfolder ``.Quarantine/cur/``.
The uid is the file's unique name (the part before ``:2,``).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from app.mail.maildir import ensure_maildir, flags_of
from app.mail.rawmail import RawMail

__all__ = ["MaildirInbox"]

DONE_FLAG = "S"


class MaildirInbox:
    def __init__(
        self,
        path: Path,
        *,
        quarantine_folder: str = "Quarantine",
        poll_interval: float = 0.5,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = Path(path)
        self.quarantine_path = self.path / f".{quarantine_folder}"
        self.poll_interval = poll_interval
        self._sleep = sleep
        self._clock = clock
        self._returned: set[str] = set()

    def _waiting(self) -> dict[str, Path]:
        """uid -> current path of every waiting message, oldest first."""
        ensure_maildir(self.path)
        found: list[tuple[int, str, Path]] = []
        for sub in ("new", "cur"):
            with os.scandir(self.path / sub) as entries:
                for entry in entries:
                    if entry.name.startswith(".") or not entry.is_file():
                        continue
                    if sub == "cur" and DONE_FLAG in flags_of(entry.name):
                        continue
                    try:
                        mtime = entry.stat().st_mtime_ns
                    except FileNotFoundError:  # taken away meanwhile
                        continue
                    found.append((mtime, entry.name, Path(entry.path)))
        found.sort(key=lambda item: (item[0], item[1]))
        return {name.partition(":")[0]: path for _, name, path in found}

    def fetch_new(self) -> list[RawMail]:
        mails = []
        for uid, path in self._waiting().items():
            try:
                raw = path.read_bytes()
            except FileNotFoundError:
                continue
            mails.append(RawMail(uid, raw))
        self._returned = {mail.uid for mail in mails}
        return mails

    def _move(self, uid: str, target_dir: Path, flags: str) -> None:
        path = self._waiting().get(uid)
        if path is None:
            return
        old_flags = flags_of(path.name)
        merged = "".join(sorted(set(old_flags + flags)))
        os.rename(path, target_dir / f"{uid}:2,{merged}")

    def mark_done(self, uid: str) -> None:
        self._move(uid, self.path / "cur", DONE_FLAG)

    def quarantine(self, uid: str) -> None:
        ensure_maildir(self.quarantine_path)
        self._move(uid, self.quarantine_path / "cur", "")

    def wait_for_mail(self, timeout: float) -> None:
        deadline = self._clock() + timeout
        while True:
            if set(self._waiting()) - self._returned:
                return
            left = deadline - self._clock()
            if left <= 0:
                return
            self._sleep(min(self.poll_interval, left))

    def close(self) -> None:
        pass
