"""One clear line on stderr and a non-zero exit, never a traceback.

Commands end with `fail` where they know what went wrong; `GuardedGroup` is the safety net
around every command, turning any expected error that got past them (a store, record, file or
settings error) into the same one line. An unexpected error (a bug) keeps its traceback.
"""

from __future__ import annotations

import sys
from typing import Any, NoReturn

import typer
from typer.core import TyperGroup

from bohnanza.core.ports import StoreError

from .narrate import printable

EXPECTED_ERRORS: tuple[type[Exception], ...] = (
    StoreError,
    ValueError,  # RecordError, SettingsError, LobbyError and unreadable stored values among them
    OSError,
)
"""What bad input, a damaged store or the machine can cause: each shown as its one line; and
any error of SQLAlchemy's (`expected`)."""


def expected(error: Exception) -> bool:
    """An error of `EXPECTED_ERRORS`, or of SQLAlchemy's: one comes only from a store, once
    opened, so SQLAlchemy is looked for among the modules imported already (a command that
    opens no store does not import it)."""
    sqlalchemy = sys.modules.get("sqlalchemy.exc")
    return isinstance(error, EXPECTED_ERRORS) or (
        sqlalchemy is not None and isinstance(error, sqlalchemy.SQLAlchemyError)
    )


def fail(message: str, code: int = 1) -> NoReturn:
    """Print `error: message` on stderr (hidden characters shown escaped) and exit with `code`."""
    typer.echo(f"error: {printable(message)}", err=True)
    raise typer.Exit(code)


class CommandLineError(typer.BadParameter):
    """A usage error a command finds itself, told in its own words."""

    def format_message(self) -> str:
        return self.message


def usage(message: str, option: str | None = None) -> NoReturn:
    """A usage error found by the command itself (a value out of range, options that do not go
    together): one line naming the command's help, exit 2, as the parser's own errors."""
    if option is not None:
        raise typer.BadParameter(message, param_hint=f"'{option}'")
    raise CommandLineError(message)


def plain_help(command: Any) -> None:
    """Help that names each option's value by what it is (`--players PLAYERS`), not by its
    type (`<int>`), and shows nothing after a flag; the same for every subcommand."""
    for param in command.params:
        if param.metavar is not None:
            continue
        if getattr(param, "param_type_name", "") == "argument":
            param.display_type_rich = lambda ctx: None  # its name says what it is
        elif getattr(param, "is_flag", False) or getattr(param, "count", False):
            param.metavar = ""
        elif not getattr(getattr(param, "type_descriptor", None), "is_choice", False):
            param.metavar = (param.name or "value").upper()
    original = command.get_help_option

    def help_option(ctx: Any) -> Any:
        option = original(ctx)
        if option is not None and option.metavar is None:
            option.metavar = ""
        return option

    command.get_help_option = help_option
    for sub in getattr(command, "commands", {}).values():
        plain_help(sub)


def one_line(error: BaseException) -> str:
    """An error's message as one line: the first line of its text, a file error with its file."""
    if isinstance(error, OSError) and error.strerror:
        where = f"{error.filename}: " if error.filename is not None else ""
        return f"{where}{error.strerror}"
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


class GuardedGroup(TyperGroup):
    """The command group whose every command ends an expected error in one line, exit 1, and
    whose usage errors (an unknown option, a value of the wrong kind) are one line, exit 2."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except Exception as error:
            if expected(error):
                fail(one_line(error))
            if _is_usage_error(error) and getattr(error, "ctx", None) is None:
                # Raised by a command's own checks (`usage`): its help is the command's.
                error.command_path = f"{ctx.command_path} {ctx.invoked_subcommand}"  # type: ignore[attr-defined]
            raise

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        plain_help(self)
        try:
            code = super().main(*args, **kwargs)
        except Exception as error:
            if _is_usage_error(error):
                _show_usage_error(error)
            raise
        sys.exit(code if isinstance(code, int) else 0)


def _is_usage_error(error: Exception) -> bool:
    """A command-line parsing error (the parser's own exception classes, by their shape)."""
    return callable(getattr(error, "format_message", None)) and isinstance(
        getattr(error, "exit_code", None), int
    )


def _show_usage_error(error: Any) -> NoReturn:
    if type(error).__name__ == "NoArgsIsHelpError":
        # A bare command shows its help, as before (the rich help is printed already).
        help_text = str(error.format_message()).strip()
        if help_text:
            typer.echo(help_text)
        sys.exit(int(error.exit_code))
    command = getattr(error, "command_path", "bohnanza")
    if getattr(error, "ctx", None) is not None:
        command = error.ctx.command_path
    message = " ".join(str(error.format_message()).split())
    typer.echo(f"error: {printable(message)} (see '{command} --help')", err=True)
    sys.exit(int(error.exit_code))
