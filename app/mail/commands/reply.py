"""The answer to a mail: each input line echoed with its errors, then the orders status."""

from __future__ import annotations

from typing import Any

from app.mail.commands.session import MailSession

__all__ = ["reply_context", "reply_template"]


def reply_context(ctx: MailSession, *, copy_note: str = "") -> dict[str, Any]:
    return {
        "header": ctx.reply_header(),
        "copy_note": copy_note,
        "echo": ctx.echoes,
        "unprocessed": ctx.unprocessed,
        "sections": ctx.sections,
        "statuses": ctx.status_views(),
    }


def reply_template(layout: str) -> str:
    return "mail/zine/reply.txt.j2" if layout == "zine" else "mail/judge/reply.txt.j2"
