"""``koikoi serve``: the browser game on this machine."""

from __future__ import annotations

import click


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
def serve_command(host: str, port: int) -> None:
    """Play koikoi against the computer in the browser (no network needed)."""
    import uvicorn

    from koikoi.server.app import create_app

    click.echo(f"koikoi: open http://{host}:{port}/ in a browser (Ctrl+C stops)")
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
