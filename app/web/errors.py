"""A use case's refusal (``DomainError``) as the web door answers it, for every route at once.

The status comes from the refusal's code and the request's method:

- 429 when the judge holds an address or a client back (too many attempts or codes);
- on a read (GET, HEAD), 404 for a thing the URL names that is not there (a game, a phase, a
  mail, a map) and 403 for another GM's game: the URL is what is wrong;
- 400 for everything else, a change the judge refuses among them (the request is what is wrong:
  "game 'alpha' has no processed phase S1901M" for an override, as docs/api.md says).

Pages get the error page with the refusal's message, ``/api/`` routes ``{"detail", "code"}``.
A route that answers a refusal some other way catches it itself, on purpose: the sign-in forms
(the failed attempt must be committed, and the form comes back filled in), the new-game form
(filled in again), the override form (the GM's edits kept), and the optional parts of a page.
"""

from __future__ import annotations

__all__ = ["LIMITED", "NOT_FOUND", "NOT_YOURS", "refusal_status"]

LIMITED = frozenset({"too_many_attempts", "too_many_codes", "address_locked"})
NOT_FOUND = frozenset({"no_game", "no_phase", "no_mail", "no_map"})
NOT_YOURS = frozenset({"not_gm"})  # kernel/access.py: the one refusal of "not this game's GM"
_READS = frozenset({"GET", "HEAD"})


def refusal_status(method: str, code: str) -> int:
    """The HTTP status of a refusal ``code`` answering a ``method`` request."""
    if code in LIMITED:
        return 429
    if method.upper() in _READS:
        if code in NOT_FOUND:
            return 404
        if code in NOT_YOURS:
            return 403
    return 400
