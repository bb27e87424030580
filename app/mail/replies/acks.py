"""The lines an acknowledgement adds under a power's orders: its retreats and its advance orders."""

from __future__ import annotations

from app.services.orders.acknowledge import AdvanceOrders, RetreatChoice

__all__ = ["advance_view", "retreat_line"]


def retreat_line(choice: RetreatChoice) -> str:
    """``F ANK may retreat to ARM, SMY, or disband.``"""
    if not choice.options:
        return f"{choice.unit} has nowhere to retreat: it will be disbanded."
    return f"{choice.unit} may retreat to {', '.join(choice.options)}, or disband."


def advance_view(advance: AdvanceOrders) -> dict[str, object]:
    return {"phase": advance.phase, "orders": list(advance.orders)}
