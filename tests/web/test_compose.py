"""The production compose file (issue 19.10): the dashboard is reached only through the TLS
proxy, and the judge believes forwarded headers from that proxy alone."""

from __future__ import annotations

import re
from pathlib import Path

COMPOSE = (Path(__file__).resolve().parents[2] / "docker-compose.yml").read_text()


def _service(name: str) -> str:
    found = re.search(rf"^  {name}:\n((?:    .*\n|\n)+)", COMPOSE, re.MULTILINE)
    assert found, f"no service {name}"
    return found.group(1)


def test_the_judge_trusts_forwarded_headers_only_from_the_proxy() -> None:
    proxy, judge = _service("proxy"), _service("judge")
    assert "image: caddy:2" in proxy and "reverse-proxy" in proxy and "judge:8000" in proxy
    assert '"443:443"' in proxy
    address = re.search(r"ipv4_address: (\S+)", proxy)
    trusted = re.search(r"JUDGE_WEB_TRUSTED_PROXIES: (\S+)", judge)
    assert address and trusted and trusted.group(1) == address.group(1)
    assert "8000:8000" not in judge  # no way around the proxy
    assert 'JUDGE_WEB_SECURE_COOKIES: "true"' in judge
    subnet = re.search(r"subnet: (\S+)", COMPOSE)
    assert subnet and address.group(1).rsplit(".", 1)[0] == subnet.group(1).rsplit(".", 1)[0]  # a /24


def test_the_judge_reads_the_mail_servers_own_authentication_results() -> None:
    """Issue 29 item 2: the guard is on in the shipped set-up, with the mail server's authserv-id
    (its hostname: OpenDMARC's ``AuthservID HOSTNAME`` in docker-mailserver)."""
    mail, judge = _service("mail"), _service("judge")
    hostname = re.search(r"hostname: (\S+)", mail)
    authserv = re.search(r"JUDGE_AUTHSERV_ID: (\S+)", judge)
    assert hostname and authserv and authserv.group(1) == hostname.group(1)
    assert 'ENABLE_OPENDMARC: "1"' in mail and 'ENABLE_POLICYD_SPF: "1"' in mail
