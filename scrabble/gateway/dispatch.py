"""Handing a validated request's work to the compute processes and its answer
back: the one place a busy or lost compute process becomes a 503."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import JSONResponse, Response

from scrabble.gateway.compute import Work
from scrabble.gateway.lanes import LaneBusy, WorkFailed
from scrabble.http_errors import field_error


async def run_work(request: Request, task: Work) -> Response:
    """The task's (status, JSON) from ``app.state.runner``; 503 with
    ``Retry-After`` when no compute process could take or finish it."""
    try:
        status, content = await request.app.state.runner.run(task)
    except (LaneBusy, WorkFailed) as exc:
        return JSONResponse(
            status_code=503,
            content=field_error("request", str(exc), error="busy: retry the request shortly"),
            headers={"retry-after": "1"},
        )
    return Response(content=content, status_code=status, media_type="application/json")
