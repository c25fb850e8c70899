"""The `bohnanza` command: one place wires the typer application."""

from __future__ import annotations

import typer

from . import analyse, audit, db, play, replay, serve, simulate, stats, transfer
from .errors import GuardedGroup


def build_app() -> typer.Typer:
    """The typer application with every command registered; an expected error of any of them
    ends in one line (GuardedGroup), never a traceback."""
    app = typer.Typer(
        cls=GuardedGroup,
        name="bohnanza",
        help="Bohnanza, the bean trading card game: play, serve, simulate, replay and audit games.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    app.command("play")(play.play)
    app.command("serve", cls=serve.ServeCommand)(serve.serve)
    app.command("health")(serve.health)
    app.add_typer(db.app, name="db")
    app.command("simulate")(simulate.simulate)
    app.command("replay")(replay.replay)
    app.command("audit")(audit.audit)
    app.command("analyse")(analyse.analyse)
    app.command("stats")(stats.stats)
    app.command("export")(transfer.export)
    app.command("import")(transfer.import_)
    return app


def main() -> None:
    """Console entry point."""
    build_app()()
