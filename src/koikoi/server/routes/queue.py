"""The quick-match queue: wait for a player of about one's rating under a preset."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import Field

from koikoi.server.context import Browser, Checked, Parts, Strict

router = APIRouter(prefix="/api", tags=["queue"])


class QueueJoin(Strict):
    preset: str = Field(default="classic", description="The preset to play a quick match under.")


@router.post("/queue")
def join_queue(body: QueueJoin, parts: Parts, info: Checked) -> dict[str, Any]:
    """Wait for a quick match against a player of about one's rating under a preset
    (ranked when signed in; guests play guests, friendly). Ask ``GET /api/queue``
    until it answers ``paired``; the range widens as one waits."""
    return parts.queue.join(info, body.preset)


@router.get("/queue")
def queue_status(parts: Parts, info: Browser) -> dict[str, Any]:
    return parts.queue.status(info)


@router.delete("/queue")
def leave_queue(parts: Parts, info: Checked) -> dict[str, Any]:
    parts.queue.leave(info)
    return {"status": "none"}
