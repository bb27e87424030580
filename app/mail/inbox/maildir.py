"""The embedded mode's inbox: a local maildir folder.

Waiting mail is every file in ``new/`` and every file in ``cur/`` without the ``S``
(seen) flag.  ``fetch_new`` first *claims* each waiting file by renaming it into this
worker's own folder ``.Processing/<host>.<pid>.<nonce>/``: a rename is atomic, so when two
workers share the maildir exactly one of them gets each file (the other's rename fails, and
it moves on).  ``mark_done`` renames a claimed file into ``cur/`` with the ``S`` flag;
``quarantine`` moves it into ``.Quarantine/cur/``.  The claims of a worker that died are put
back into ``new/``: at once when it ran on this host (its process is gone), else once they are
older than ``claim_timeout`` seconds.  A file that cannot be read (permissions, an I/O error) is
moved to the quarantine at once and listed by ``take_unreadable``; the rest keeps flowing.
The uid is the file's unique name (the part before ``:2,``).
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import time
from collections.abc import Callable
from pathlib import Path

from app.mail.inbox.rawmail import RawMail
from app.mail.maildir import ensure_maildir, flags_of

__all__ = ["MaildirInbox"]

log = logging.getLogger(__name__)

DONE_FLAG = "S"
CLAIM_FOLDER = "Processing"


class MaildirInbox:
    def __init__(
        self,
        path: Path,
        *,
        quarantine_folder: str = "Quarantine",
        poll_interval: float = 0.5,
        claim_timeout: float = 300.0,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = Path(path)
        self.quarantine_path = self.path / f".{quarantine_folder}"
        self.claim_path = self.path / f".{CLAIM_FOLDER}"
        self.poll_interval = poll_interval
        self.claim_timeout = claim_timeout
        self._sleep = sleep
        self._clock = clock
        self._returned: set[str] = set()
        self._claimed: dict[str, Path] = {}  # uid -> its path in .Processing/cur, claimed by this worker
        self._unreadable: list[tuple[str, str]] = []
        self._stuck: set[str] = set()  # unreadable files that could not even be moved aside
        self._host = socket.gethostname().replace("/", "_").replace(".", "_") or "localhost"
        self._owner = f"{self._host}.{os.getpid()}.{secrets.token_hex(4)}"
        self._claim_dir = self.claim_path / self._owner

    def _waiting(self) -> dict[str, Path]:
        """uid -> current path of every waiting message, oldest first."""
        ensure_maildir(self.path)
        found: list[tuple[int, str, Path]] = []
        for sub in ("new", "cur"):
            with os.scandir(self.path / sub) as entries:
                for entry in entries:
                    try:
                        if entry.name.startswith(".") or not entry.is_file():
                            continue
                        if sub == "cur" and DONE_FLAG in flags_of(entry.name):
                            continue
                        mtime = entry.stat().st_mtime_ns
                    except OSError:  # taken away meanwhile
                        continue
                    found.append((mtime, entry.name, Path(entry.path)))
        found.sort(key=lambda item: (item[0], item[1]))
        return {name.partition(":")[0]: path for _, name, path in found}

    def _dead(self, owner: str) -> bool:
        """Whether the worker ``owner`` (``host.pid.nonce``) is known to be gone: same host, no such process."""
        host, _, rest = owner.partition(".")
        pid = rest.partition(".")[0]
        if host != self._host or not pid.isdigit() or int(pid) == os.getpid():
            return False
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            return True
        except OSError:  # it exists (another user's process)
            return False
        return False

    def _release_stale_claims(self) -> None:
        """Claims of a worker that died go back to ``new/`` (see the module's text)."""
        if not self.claim_path.is_dir():
            return
        now = time.time()
        with os.scandir(self.claim_path) as owners:
            folders = [(entry.name, Path(entry.path)) for entry in owners
                       if entry.name != self._owner and entry.name not in ("new", "cur", "tmp") and entry.is_dir()]
        for owner, folder in folders:
            dead = self._dead(owner)
            try:
                with os.scandir(folder) as entries:
                    for entry in entries:
                        try:
                            if dead or now - entry.stat().st_ctime >= self.claim_timeout:
                                os.rename(entry.path, self.path / "new" / entry.name.partition(":")[0])
                        except OSError:
                            continue
                if dead:
                    folder.rmdir()
            except OSError:
                continue

    def _claim(self, uid: str, path: Path) -> Path | None:
        target = self._claim_dir / path.name
        try:
            os.rename(path, target)
        except FileNotFoundError:
            return None  # another worker claimed it first
        except OSError as error:
            log.warning("cannot claim %s: %s", path, error)
            return None
        self._claimed[uid] = target
        return target

    def fetch_new(self) -> list[RawMail]:
        self._claim_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._release_stale_claims()
        for uid, path in self._waiting().items():
            if uid not in self._claimed and uid not in self._stuck:
                self._claim(uid, path)
        mails = []
        for uid, path in list(self._claimed.items()):
            try:
                raw = path.read_bytes()
            except FileNotFoundError:
                self._claimed.pop(uid, None)
                continue
            except OSError as error:  # unreadable: aside at once, so that the rest keeps flowing
                self._set_aside(uid, error)
                continue
            mails.append(RawMail(uid, raw))
        self._returned = {mail.uid for mail in mails}
        return mails

    def _set_aside(self, uid: str, error: OSError) -> None:
        log.error("unreadable message %s: %s", uid, error)
        self._unreadable.append((uid, f"{type(error).__name__}: {error}"))
        try:
            self.quarantine(uid)
        except OSError:
            log.exception("cannot move the unreadable message %s to the quarantine", uid)
            self._claimed.pop(uid, None)
            self._stuck.add(uid)

    def take_unreadable(self) -> list[tuple[str, str]]:
        """The (uid, error) of the files moved to the quarantine unread since the last call."""
        taken, self._unreadable = self._unreadable, []
        return taken

    def _move(self, uid: str, target_dir: Path, flags: str) -> None:
        path = self._claimed.pop(uid, None) or self._waiting().get(uid)
        if path is None:
            return
        old_flags = flags_of(path.name)
        merged = "".join(sorted(set(old_flags + flags)))
        try:
            os.rename(path, target_dir / f"{uid}:2,{merged}")
        except FileNotFoundError:  # another worker moved it meanwhile
            return

    def mark_done(self, uid: str) -> None:
        self._move(uid, self.path / "cur", DONE_FLAG)

    def quarantine(self, uid: str) -> None:
        ensure_maildir(self.quarantine_path)
        self._move(uid, self.quarantine_path / "cur", "")

    def wait_for_mail(self, timeout: float) -> None:
        deadline = self._clock() + timeout
        while True:
            if set(self._waiting()) - self._returned - self._stuck:
                return
            left = deadline - self._clock()
            if left <= 0:
                return
            self._sleep(min(self.poll_interval, left))

    def close(self) -> None:
        pass
