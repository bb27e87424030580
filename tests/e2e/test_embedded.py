"""The newcomer's path: `judge serve --demo-game` on SQLite with maildir mail, `judge mail send`
to drop orders in, `judge mail read` to see the answer."""

from __future__ import annotations

import re
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

import httpx

from tests.e2e.conftest import ROOT, ServerProcess, server_env, wait_until

_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def _judge(env: dict[str, str], *args: str, stdin: bytes = b"") -> str:
    result = subprocess.run([sys.executable, "-m", "app.cli", *args], input=stdin, capture_output=True,
                            env=env, cwd=str(ROOT), timeout=60, check=True)
    return result.stdout.decode()


def _get(url: str) -> int:
    request = urllib.request.Request(url)
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except OSError:
        return 0


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def test_embedded_serve_and_mail_send(tmp_path: Path, server_factory: Callable[..., ServerProcess]) -> None:
    env = server_env(f"sqlite:///{tmp_path / 'judge.sqlite3'}", "judge@judge.test", mode="embedded", tmp=tmp_path)
    server = server_factory(env)
    server.env = env
    assert server.process is None
    server.process = subprocess.Popen([sys.executable, "-m", "app.cli", "serve", "--demo-game", "demo"],
                                      cwd=str(ROOT), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_until(lambda: "has started" in _judge(env, "mail", "read", "france@example.com"), timeout=60,
               what="the demo game")
    dashboard = f"http://127.0.0.1:{env['JUDGE_WEB_PORT']}"
    wait_until(lambda: _get(f"{dashboard}/healthz") == 200, timeout=30, what="the dashboard beside the mail")
    assert _get(f"{dashboard}/") == 303  # a GM page sends the newcomer to the sign-in page
    _dashboard_accounts(env, dashboard)
    for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
        _judge(env, "mail", "send", "--from", f"{power.lower()}@example.com",
               stdin=f"SIGNON {power[0]}demo secret\nSTATUS\n".encode())
    wait_until(lambda: "Current orders for France" in _judge(env, "mail", "read", "france@example.com"),
               timeout=60, what="the acknowledgement")
    _judge(env, "mail", "send", "--from", "gm@example.com", stdin=b"SIGNON master@demo secret\nPROCESS S1901M\n")
    wait_until(lambda: "Movement results for Spring of 1901." in _judge(env, "mail", "read", "italy@example.com"),
               timeout=60, what="the results")


def _csrf(web: httpx.Client) -> str:
    found = _CSRF.search(web.get("/signin").text)
    assert found
    return found.group(1)


def _dashboard_accounts(env: dict[str, str], dashboard: str) -> None:
    """The README's way in: the demo GM's account (gm@example.com / secret), made by the demo's set-up;
    a new GM signs up with a code the judge mails, read here with `judge mail read`."""
    with httpx.Client(base_url=dashboard, follow_redirects=False, timeout=10) as web:
        response = web.post("/signin", data={"address": "gm@example.com", "password": "secret", "csrf_token": _csrf(web)})
        assert response.status_code == 303
        assert web.get("/games/demo").status_code == 200
    with httpx.Client(base_url=dashboard, follow_redirects=False, timeout=10) as web:
        web.post("/signin/code/send", data={"address": "newgm@example.com", "csrf_token": _csrf(web)})
        wait_until(lambda: "Your code:" in _judge(env, "mail", "read", "newgm@example.com"), timeout=60,
                   what="the sign-in code")
        code = re.search(r"Your code: (\S+)", _judge(env, "mail", "read", "newgm@example.com"))
        assert code
        response = web.post("/signin/code", data={"address": "newgm@example.com", "code": code.group(1),
                                                  "password": "newgm-password", "csrf_token": _csrf(web)})
        assert response.status_code == 303
        assert web.get("/").status_code == 200
