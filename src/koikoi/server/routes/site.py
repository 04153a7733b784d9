"""The site around the API: the page, card pictures, languages and the health check."""

from __future__ import annotations

from importlib import resources
from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.responses import FileResponse, JSONResponse
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from koikoi import __version__
from koikoi.cards import UnknownCardError, card_from_slug
from koikoi.server.cardart import card_back_svg, card_svg
from koikoi.server.context import Parts
from koikoi.server.i18n import LOCALES, best_locale, client_catalog, languages

WEB = resources.files("koikoi") / "web"

router = APIRouter()


@router.get("/healthz", include_in_schema=False)
def healthz(parts: Parts) -> JSONResponse:
    """Whether the server and its database answer (for load balancers and monitors)."""
    try:
        with parts.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except SQLAlchemyError as error:
        return JSONResponse(
            {"status": "error", "database": type(error).__name__, "version": __version__},
            status_code=503,
        )
    return JSONResponse({"status": "ok", "database": "ok", "version": __version__})


@router.get("/api/i18n", tags=["languages"])
def i18n_index(request: Request) -> dict[str, Any]:
    """The languages, and the one that best fits the browser's Accept-Language."""
    return {
        "languages": languages(),
        "preferred": best_locale(request.headers.get("accept-language")),
    }


@router.get("/api/i18n/{code}", tags=["languages"])
def i18n_catalog(code: str) -> dict[str, Any]:
    """One language's messages for the browser, with its plural categories and direction."""
    if code not in LOCALES:
        raise HTTPException(404, f"no language {code!r}; languages: {', '.join(LOCALES)}")
    return client_catalog(code)


@router.get("/cards/{name}.svg", include_in_schema=False)
def card_image(name: str) -> Response:
    """A card's picture by slug, or ``back``; made by the project (cardart)."""
    if name == "back":
        svg = card_back_svg()
    else:
        try:
            svg = card_svg(card_from_slug(name))
        except UnknownCardError as error:
            raise HTTPException(404, str(error)) from None
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})


@router.get("/", include_in_schema=False)
def index() -> FileResponse:
    return FileResponse(str(WEB / "index.html"))
