"""`bohnanza serve PLATFORM...`: run chat platforms, several in one process, until stopped."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from typing import Annotated

import typer

from bohnanza.adapters.i18n import load_translators
from bohnanza.adapters.platforms import Platform, ServeContext, UnknownPlatform, platform_named

from .errors import fail
from .play import default_db
from .stores import DB_HELP, opened_store


def serve(
    platforms: Annotated[
        list[str], typer.Argument(help="Platforms to serve, e.g. telegram matrix.")
    ],
    db: Annotated[
        str | None,
        typer.Option(help=DB_HELP + " [default: $BOHNANZA_DB, else your data folder]"),
    ] = None,
) -> None:
    """Run the bot on one or more chat platforms, sharing one process and one store."""
    try:
        chosen = [platform_named(name) for name in dict.fromkeys(platforms)]
    except UnknownPlatform as error:
        fail(str(error))
    target = db or os.environ.get("BOHNANZA_DB") or str(default_db())
    if db is None and "BOHNANZA_DB" not in os.environ:
        default_db().parent.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(
        level=os.environ.get("BOHNANZA_LOG_LEVEL", "INFO").upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    with opened_store(target, create=True) as store:
        context = ServeContext(store, load_translators(), dict(os.environ))
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(_serve_all(chosen, context))


async def _serve_all(chosen: list[Platform], context: ServeContext) -> None:
    await asyncio.gather(*(platform.serve(context) for platform in chosen))
