"""`bohnanza serve PLATFORM...`: run chat platforms, several in one process, until stopped.

Settings come from the environment over an optional TOML file (`--config`, `BOHNANZA_CONFIG`),
checked before anything starts; `bohnanza health` asks a running bot's health endpoint.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from typer.core import TyperCommand

from bohnanza.adapters.health import PATH, probe
from bohnanza.adapters.i18n import load_translators
from bohnanza.adapters.logs import configure_logging
from bohnanza.adapters.runtime import tune_collector
from bohnanza.core.ports import StoreError

from .errors import fail
from .play import default_db
from .stores import DB_HELP, opened_store

if TYPE_CHECKING:
    from bohnanza.adapters.platforms import Platform, ServeContext
    from bohnanza.adapters.settings import Settings
    from bohnanza.adapters.store import SqlGameStore

log = logging.getLogger("bohnanza.serve")
DEFAULT_HEALTH_PORT = 8080


class PlatformFailed(Exception):
    """A platform could not start (its settings are wrong); the message is one line."""


class ServeCommand(TyperCommand):
    """`serve`, whose help lists the installed platforms, and what those missing their extra
    need, when it is shown (not when the command line is read)."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        from bohnanza.adapters.platforms import platform_names

        names = platform_names()
        listed = [
            name if needed is None else f"{name} (needs {needed})" for name, needed in names.items()
        ]
        text = "Platforms: " + ", ".join(listed) + "."
        # Rich markup would take an extra's `[name]` for a style.
        rich = getattr(self, "rich_markup_mode", None) == "rich"
        self.epilog = (escape(text) if rich else text) if listed else None
        super().format_help(ctx, formatter)


def serve(
    platforms: Annotated[
        list[str],
        typer.Argument(help="Platforms to serve, e.g. telegram matrix (all of them below)."),
    ],
    db: Annotated[
        str | None,
        typer.Option(help=DB_HELP + " \\[default: $BOHNANZA_DB, else your data folder]"),
    ] = None,
    config: Annotated[
        str | None, typer.Option(help="A TOML settings file. \\[default: $BOHNANZA_CONFIG]")
    ] = None,
) -> None:
    """Run the bot on one or more chat platforms, sharing one process and one store."""
    from bohnanza.adapters.platforms import ServeContext, UnknownPlatform, platform_named
    from bohnanza.adapters.settings import SettingsError, load_settings
    from bohnanza.adapters.store import display_name

    try:
        settings = load_settings(os.environ, config)
        chosen = [platform_named(name) for name in dict.fromkeys(platforms)]
    except (SettingsError, UnknownPlatform) as error:
        fail(str(error))
    for platform in chosen:
        # Each platform checks its settings before any store is opened.
        try:
            if platform.check is not None:
                platform.check(settings.values)
        except ValueError as error:
            fail(f"{platform.name}: {error}")
    target = db or settings.db or str(default_db())
    if target == str(default_db()):
        default_db().parent.mkdir(parents=True, exist_ok=True)
    configure_logging(settings.log_level, settings.log_format, settings.secrets())
    tune_collector()
    with opened_store(target, create=True) as store:
        log.info(
            "serving %s on the store %s", ", ".join(p.name for p in chosen), display_name(target)
        )
        context = ServeContext(store, load_translators(), settings.values, settings.stop_timeout)
        signal_name: str | None = None
        try:
            with contextlib.suppress(KeyboardInterrupt):
                signal_name = asyncio.run(_serve_all(chosen, context, settings, store))
        except PlatformFailed as error:
            fail(str(error))
        log.info("stopped on %s", signal_name or "a keyboard interrupt")


def _first(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """The first exception of a group, however deep the groups nest."""
    first = group.exceptions[0]
    return _first(first) if isinstance(first, BaseExceptionGroup) else first


async def _serve_all(
    chosen: list[Platform], context: ServeContext, settings: Settings, store: SqlGameStore
) -> str | None:
    from bohnanza.adapters.health import HealthServer

    health = None
    if settings.health_port is not None:
        health = HealthServer(store.ping, settings.health_listen, settings.health_port)
        try:
            await health.start()
        except OSError as error:
            raise PlatformFailed(
                f"health check: cannot listen on {settings.health_listen}:{settings.health_port}: "
                f"{error.strerror or error}"
            ) from None
        log.info("health check on port %d at %s", settings.health_port, PATH)
    try:
        return await _until_signal(chosen, context)
    except BaseExceptionGroup as group:
        # A platform failed, or the store went away (or refused): one line, as for every
        # expected error. Not `except*`: before Python 3.11.4 (Debian 12 has 3.11.2) an
        # exception raised in it comes out wrapped in a group, and the line in a traceback.
        expected = group.subgroup(PlatformFailed) or group.subgroup(StoreError)
        if expected is None:
            raise
        raise _first(expected) from None
    finally:
        if health is not None:
            await health.stop()


async def _until_signal(chosen: list[Platform], context: ServeContext) -> str | None:
    """Serve until SIGTERM or SIGINT; then stop every platform (each finishes the input in
    hand and delivers what is queued, within the stop timeout). The signal's name."""
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    received: list[str] = []

    def stop(signal_number: signal.Signals) -> None:
        if not received:
            log.info("%s received: stopping", signal_number.name)
        received.append(signal_number.name)
        stopping.set()

    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop, number)
    try:
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(_serve_one(p, context)) for p in chosen]
            waiter = group.create_task(stopping.wait())
            await asyncio.wait([*tasks, waiter], return_when=asyncio.FIRST_COMPLETED)
            for task in tasks:
                task.cancel()
            waiter.cancel()
            # A platform that does not stop in time is not waited for any longer.
            _, late = await asyncio.wait(tasks, timeout=context.stop_timeout + 2.0)
            if late:
                log.warning("stopped without waiting for %d platform(s) any longer", len(late))
                for task in late:
                    task.cancel()  # a second cancel interrupts a stop that hangs
    finally:
        for number in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(number)
    return received[0] if received else None


async def _serve_one(platform: Platform, context: ServeContext) -> None:
    try:
        await platform.serve(context)
    except ValueError as error:
        # Platforms check their settings first and say what is wrong in a ValueError.
        raise PlatformFailed(f"{platform.name}: {error}") from None


def health(
    url: Annotated[
        str | None,
        typer.Option(
            help=f"The health endpoint. \\[default: http://127.0.0.1:$BOHNANZA_HEALTH_PORT{PATH}]"
        ),
    ] = None,
) -> None:
    """Ask a running bot whether it is healthy (its store answers): exit 0 if so, else 1."""
    if url is None:
        port = os.environ.get("BOHNANZA_HEALTH_PORT", "").strip() or str(DEFAULT_HEALTH_PORT)
        url = f"http://127.0.0.1:{port}{PATH}"
    healthy, said = probe(url)
    if not healthy:
        fail(f"unhealthy: {said}")
    typer.echo("healthy")
