"""Reply wording of a power's order status (the acknowledgement's closing lines)."""

from __future__ import annotations

from app.services.orders.submit import OrderStatus

__all__ = ["too_many_warning"]


def too_many_warning(status: OrderStatus) -> str | None:
    """``Warning: 2 builds ordered, 1 allowed: the builds after the first will fail.``"""
    if status.extra <= 0:
        return None
    word = "removal" if status.removing else "build"
    given = status.allowed + status.extra
    allowed = f"{status.allowed} allowed" if status.allowed else "none allowed"
    if status.allowed == 0:
        fate = f"every {word} will fail"
    elif status.allowed == 1:
        fate = f"the {word}s after the first will fail"
    else:
        fate = f"the {word}s after the first {status.allowed} will fail"
    plural = "s" if given != 1 else ""
    return f"Warning: {given} {word}{plural} ordered, {allowed}: {fate}."
