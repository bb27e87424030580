"""The maps that mails carry: drawn once per set of inputs and kept in ``map_images``.

A map is keyed by a digest of what it is drawn from (variant, position, results, title and
the renderer's version), so every mail of a phase shares one picture and a new renderer
draws afresh.  A turn only records what its map is drawn from (``phase_map``); the drain's
painter draws it afterwards, once (``draw_due_map``: a map another painter is drawing is
skipped), so drawing never lengthens a turn or a deadline storm, and a mail is sent once its own
map is drawn.  A map that fails to draw is logged and kept empty: its mails go without it
(``without_inline_map``).
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.dialects import postgresql, sqlite

from app.db import queries
from app.db.base import utcnow
from app.db.models import Game, MapImage
from app.maps import RENDERER_VERSION, has_drawing, phase_map_png
from app.services.errors import DomainError
from app.services.kernel.access import find_game
from app.services.kernel.actor import Actor
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.outbox import release_map

__all__ = ["CurrentMap", "RecordedMap", "content_id", "current_map", "draw_due_map", "inline_map_html", "map_filename", "phase_map",
           "without_inline_map"]

log = logging.getLogger(__name__)


def _digest(variant: str, state: dict[str, Any], result: dict[str, Any] | None, title: str) -> str:
    key = json.dumps([RENDERER_VERSION, variant, title, state, result], sort_keys=True, default=str)
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class RecordedMap:
    """A map recorded in ``map_images``: what a mail refers to it by."""

    id: int
    digest: str


def phase_map(uow: UnitOfWork, game: Game, phase: str, state: dict[str, Any], result: dict[str, Any] | None,
              *, kind: str) -> RecordedMap | None:
    """The map of ``state`` (with ``result``: the orders and outcomes of the phase it started),
    from the cache or recorded now, to be drawn when first sent; ``None`` when the variant has no map.
    Core statements (no ``MapImage`` object for the session to keep): a turn records one map."""
    db = uow.session
    if not has_drawing(game.variant):
        return None
    digest = _digest(game.variant, state, result, game.name)
    values = {"digest": digest, "game_id": game.id, "phase": phase[:12], "kind": kind,
              "renderer_version": RENDERER_VERSION, "variant": game.variant, "title": game.name[:80],
              "state": state, "result": result, "created_at": utcnow()}
    # One statement for a new map (after the flush the ORM would make: a turn's rows go with it); a
    # map recorded already (by this or another transaction) is left as it is and read back.
    insert = _INSERT[db.get_bind().dialect.name == "postgresql"]
    added: Any = queries.core(db, insert, values).first()
    if added is not None:
        uow.new_maps.add(added.id)
    else:
        added = db.connection().execute(_RECORDED, {"digest": digest}).first()
    return None if added is None else RecordedMap(added.id, added.digest)


def _insert(dialect: Any) -> Any:
    """The INSERT of a map for this database, with its ON CONFLICT clause; what it gives back is the
    row's id and digest (the position it was drawn from is not read back)."""
    table = MapImage.__table__
    return dialect.insert(table).on_conflict_do_nothing(index_elements=["digest"]).returning(table.c.id, table.c.digest)


_INSERT = {True: _insert(postgresql), False: _insert(sqlite)}  # built once: by whether PostgreSQL
_RECORDED = select(MapImage.id, MapImage.digest).where(MapImage.digest == bindparam("digest"))


_MAPS = cast(Table, MapImage.__table__)
# The painter's statements, built once and run on the table (no ORM object for a row read once).
_UNDRAWN = (select(_MAPS.c.id, _MAPS.c.variant, _MAPS.c.state, _MAPS.c.result, _MAPS.c.title, _MAPS.c.phase,
                   _MAPS.c.kind)
            .where(_MAPS.c.png.is_(None)).order_by(_MAPS.c.id).limit(1).with_for_update(skip_locked=True))
_DRAWN = update(_MAPS).where(_MAPS.c.id == bindparam("drawn_id")).values(png=bindparam("drawn_png"))


def draw_due_map(uow: UnitOfWork) -> int | None:
    """Draw the oldest map not drawn yet, in the caller's transaction, which holds it meanwhile
    (another painter takes the next one: ``SKIP LOCKED``); its id, ``None`` when none is waiting.  A
    map that cannot be drawn is kept empty (``b""``): the mails carrying it go without it."""
    db = uow.session.connection()
    image = db.execute(_UNDRAWN).first()
    if image is None:
        return None
    try:
        png = phase_map_png(image.variant, image.state, image.result, title=image.title)
    except Exception:  # a picture must never stop a mail: it goes without it
        log.exception("the map of %s %s (%s) could not be drawn", image.title, image.phase, image.kind)
        png = b""
    db.execute(_DRAWN, {"drawn_id": image.id, "drawn_png": png})
    release_map(uow, image.id)  # its mails, into the drain's queue
    return int(image.id)


def content_id(digest: str, domain: str) -> str:
    """The Content-ID (without angle brackets) of the map (by its ``digest``) inline in a zine's HTML."""
    return f"map-{digest[:24]}@{domain}"


def map_filename(game_name: str, phase: str) -> str:
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in f"{game_name}-{phase}")
    return f"{safe}.png"


def inline_map_html(html: str, cid: str, alt: str) -> str:
    """``html`` with the map shown under its headings (``cid:`` refers to the mail's inline part)."""
    tag = (f'<p class="map"><img src="cid:{cid}" alt="{_escape(alt)}" width="1000" '
           'style="max-width: 100%; height: auto"></p>')
    for anchor in ("</h2>", "</h1>", "<body>"):
        at = html.find(anchor)
        if at >= 0:
            cut = at + len(anchor)
            return f"{html[:cut]}\n{tag}{html[cut:]}"
    end = html.rfind("</body>")
    return f"{html[:end]}{tag}\n{html[end:]}" if end >= 0 else f"{tag}\n{html}"


def without_inline_map(html: str) -> str:
    """``html`` without the map ``inline_map_html`` put in (its picture could not be drawn)."""
    start = html.find('<p class="map"><img src="cid:')
    if start < 0:
        return html
    end = html.find("</p>", start)
    return html[:start] + html[end + len("</p>"):].lstrip("\n") if end >= 0 else html


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


@dataclass(frozen=True)
class CurrentMap:
    game_id: int
    game_name: str
    phase: str
    map_id: int | None  # None: the variant has no map, or it could not be drawn


def current_map(judge: Judge, uow: UnitOfWork, actor: Actor, name: str) -> CurrentMap:
    """The map of a game's current position (``MAP game``): anyone may see it (what is secret
    is never drawn)."""
    db = uow.session
    game = find_game(uow, name)
    phase = queries.open_phase(db, game.id)
    if phase is not None:
        code, state = phase.code, phase.state_before
    else:
        done = [p for p in queries.phases_of(db, game.id) if p.state_after]
        if not done:
            raise DomainError("not_started", f"game '{game.name}' has not started: there is no position yet")
        code, state = done[-1].code, done[-1].state_after or {}
    image = phase_map(uow, game, code, state, None, kind="position")
    db.flush()
    return CurrentMap(game.id, game.name, code, image.id if image else None)
