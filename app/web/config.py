"""The web door's own configuration, kept on ``app.state.web``."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SESSION_COOKIE", "ANON_CSRF_COOKIE", "WebConfig"]

SESSION_COOKIE = "pj_session"
ANON_CSRF_COOKIE = "pj_csrf"


@dataclass(frozen=True)
class WebConfig:
    keeper_address: str  # the judgekeeper: sees every game once signed in
    secure_cookies: bool = False  # set behind https: cookies get the Secure flag
    trusted_proxies: tuple[str, ...] = ()  # whose X-Forwarded-For names the client (JUDGE_WEB_TRUSTED_PROXIES)
