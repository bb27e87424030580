"""Who is the client: the peer's address, or behind a trusted reverse proxy the address the proxy
saw (``X-Forwarded-For``).  Only proxies named in ``JUDGE_WEB_TRUSTED_PROXIES`` are believed: from
any other peer the header is a client's own word and is ignored."""

from __future__ import annotations

import ipaddress
from functools import cache

from fastapi import Request

__all__ = ["client_address", "is_trusted"]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@cache
def _networks(trusted: tuple[str, ...]) -> tuple[Network, ...]:
    networks = []
    for item in trusted:
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            continue  # "*" or a name: matched as written
    return tuple(networks)


def is_trusted(host: str, trusted: tuple[str, ...]) -> bool:
    if "*" in trusted:
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host in trusted
    return any(address in network for network in _networks(trusted))


def client_address(request: Request, trusted: tuple[str, ...]) -> str:
    """The client's address: the right-most hop of ``X-Forwarded-For`` not itself a trusted proxy,
    when the peer is one (as uvicorn's ``forwarded_allow_ips`` does)."""
    peer = request.client.host if request.client else "unknown"
    if not trusted or not is_trusted(peer, trusted):
        return peer
    hops = [hop.strip() for hop in ",".join(request.headers.getlist("x-forwarded-for")).split(",") if hop.strip()]
    for hop in reversed(hops):
        if not is_trusted(hop, trusted):
            return hop[:100]
    return hops[0][:100] if hops else peer
