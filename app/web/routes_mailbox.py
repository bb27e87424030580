"""The embedded mailbox (embedded mail mode only): read what the judge sent to an address, and
write a mail to the judge, so a whole game can be tried in a browser.  A GM writes only from their
own address; the judgekeeper from any (a player's mail, for a game tried alone).

The web door never touches the mail door: the composition root hands ``create_app`` an inbox
writer (raw message bytes in), and what the judge sent is read from the outbox table."""

from __future__ import annotations

from collections.abc import Callable
from email.message import EmailMessage
from email.utils import make_msgid

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import RedirectResponse, Response

from app.services.games.gm_accounts import GmPrincipal, linked_game_ids
from app.services.games.gm_admin import SentMail, mail_sent_to
from app.services.kernel.actor import Actor, Role
from app.web.deps import JudgeDep, PageGm, PostedForm, Uow
from app.web.templating import pages

__all__ = ["InboxWriter", "router"]

InboxWriter = Callable[[bytes], object]

router = APIRouter(include_in_schema=False)


def _writer(request: Request) -> InboxWriter:
    judge = request.app.state.judge
    writer: InboxWriter | None = getattr(request.app.state, "inbox_writer", None)
    if judge.settings.mail_mode != "embedded" or writer is None:
        raise HTTPException(status_code=404, detail="The mailbox exists only in embedded mail mode.")
    return writer


def _actor(principal: GmPrincipal) -> Actor:
    return Actor(principal.email, Role.KEEPER if principal.keeper else Role.GM)


@router.get("/mailbox")
def mailbox(request: Request, judge: JudgeDep, uow: Uow, principal: PageGm, address: str = "") -> Response:
    _writer(request)
    found: tuple[SentMail, ...] = ()
    if address.strip():
        found = mail_sent_to(judge, uow, _actor(principal), address, linked_game_ids(uow, principal.account_id))
    return pages(request).render(request, "mailbox.html.j2", title="Mailbox", address=address.strip(), mails=found,
                                 judge_address=judge.settings.judge_address, sent=request.query_params.get("sent"))


@router.post("/mailbox/send")
def send(request: Request, judge: JudgeDep, principal: PageGm, form: PostedForm) -> Response:
    writer = _writer(request)

    def text(key: str) -> str:
        value = form.get(key, "")
        return value if isinstance(value, str) else ""

    sender = text("from").strip()
    if "@" not in sender or any(c in sender for c in "\r\n<>"):
        raise HTTPException(status_code=400, detail="Write the sender's address, like france@example.com.")
    if not principal.keeper and sender.lower() != principal.email:
        raise HTTPException(status_code=403, detail=f"A GM writes here only as {principal.email}: only the "
                                                    "judgekeeper may write as another address.")
    message = EmailMessage()
    message["From"] = sender
    message["To"] = judge.settings.judge_address
    message["Subject"] = text("subject").replace("\r", " ").replace("\n", " ").strip() or "Diplomacy"
    message["Message-ID"] = make_msgid(domain="dashboard.local")
    message.set_content(text("body").replace("\r\n", "\n"))
    writer(message.as_bytes())
    return RedirectResponse(f"/mailbox?address={sender}&sent=1", status_code=303)
