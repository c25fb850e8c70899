"""`bohnanza play`: you against bots, in the terminal.

A stand-in until the chat application layer drives the terminal too: it talks to the engine
directly, through the same legal actions and text commands the chat adapters use.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from bohnanza.core.actions import AcceptTrade, Action
from bohnanza.core.bots import STRATEGIES, Bot, make_bot
from bohnanza.core.errors import IllegalActionError
from bohnanza.core.events import Event
from bohnanza.core.game import Game
from bohnanza.core.notation import COMMANDS, NotationError, action_text, parse_action
from bohnanza.core.record import GameRecord, SeatRecord
from bohnanza.core.state import Step
from bohnanza.core.table_setup import MAX_PLAYERS, MIN_PLAYERS

from .errors import fail
from .narrate import describe, render_view

HUMAN = 0


class _Table:
    """One terminal game: the human at seat 0, bots elsewhere."""

    def __init__(self, game: Game, bots: dict[int, Bot], names: list[str]) -> None:
        self.game = game
        self.bots = bots
        self.names = names
        self.passed_turn = 0

    def say(self, events: Sequence[Event]) -> None:
        for event in events:
            line = describe(event, self.names, viewer=HUMAN)
            if line is not None:
                typer.echo(line)

    def human_should_act(self) -> bool:
        game = self.game
        if HUMAN in game.waiting_for():
            return True
        state = game.state
        if any(o.receiver == HUMAN for o in state.offers.values()):
            return True
        return state.step is Step.TRADE and self.passed_turn != state.turn

    def bot_turn(self) -> bool:
        """Let one bot act; False when none wants to."""
        game = self.game
        state = game.state
        asked = [o.receiver for o in state.offers.values() if o.receiver in self.bots]
        if state.step is Step.TRADE:
            asked += [s for s in self.bots if s != state.active]
        asked += [s for s in game.waiting_for() if s in self.bots]
        for seat in dict.fromkeys(asked):
            action = self.bots[seat].choose(game.view(seat), game.legal_actions(seat))
            if action is not None:
                self.say(game.apply(action))
                return True
        return False

    def prompt(self) -> bool:
        """Ask the human for one command; False when he quits."""
        game = self.game
        legal = game.legal_actions(HUMAN)
        typer.echo("")
        typer.echo(render_view(game.view(HUMAN), self.names))
        choices = list(legal.actions)
        typer.echo(
            "you may: " + "; ".join(f"[{i}] {action_text(a)}" for i, a in enumerate(choices, 1))
        )
        if legal.trade is not None:
            typer.echo("or trade: offer S CARDS [for BEANS] (S = player number, CARDS = 3 or f1)")
        waiting = HUMAN in game.waiting_for()
        text = typer.prompt(
            "> " if waiting else "> (enter to pass)", default="", show_default=False
        )
        text = text.strip()
        if text in ("quit", "q", "exit"):
            return False
        if text in ("help", "?"):
            for command, meaning in COMMANDS.items():
                typer.echo(f"  {command:<28} {meaning}")
            return True
        if not text:
            if waiting:
                typer.echo("The game waits for you; 'help' lists the commands.")
            else:
                self.passed_turn = game.state.turn
            return True
        try:
            action = _choice(text, choices)
            self.say(game.apply(action))
        except (NotationError, IllegalActionError) as error:
            typer.echo(f"✗ {error}")
        return True


def _choice(text: str, choices: list[Action]) -> Action:
    if text.isdigit():
        number = int(text)
        if not 1 <= number <= len(choices):
            raise NotationError(f"Choose 1 to {len(choices)}.")
        return choices[number - 1]
    action = parse_action(text, HUMAN)
    if isinstance(action, AcceptTrade) and not action.hand and not action.face_up:
        # "accept 3" alone gives the first fitting cards, as the listed choice does.
        for choice in choices:
            if isinstance(choice, AcceptTrade) and choice.offer == action.offer:
                return choice
    return action


def play(
    players: Annotated[int, typer.Option(help="Players at the table, you included (2-7).")] = 4,
    bots: Annotated[str, typer.Option(help="Strategy of the bots.")] = "heuristic",
    seed: Annotated[int | None, typer.Option(help="Seed, to play the same deal again.")] = None,
    name: Annotated[str, typer.Option(help="Your name at the table.")] = "You",
    record: Annotated[
        Path | None, typer.Option(help="Write the game record here when the game stops.")
    ] = None,
) -> None:
    """Play a game in the terminal against bots."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        fail(f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}")
    if bots not in STRATEGIES:
        fail(f"--bots takes one of {', '.join(STRATEGIES)}")
    rng = random.Random(seed)
    game = Game.new(players, rng)
    table = _Table(
        game,
        {seat: make_bot(bots, random.Random(rng.random())) for seat in range(1, players)},
        [name[:30] or "You"] + [f"{bots}-{seat + 1}" for seat in range(1, players)],
    )
    typer.echo(f"Bohnanza for {players}: you are player 1. Type 'help' for the commands.")
    table.say(game.opening_events)
    try:
        while not game.is_over:
            if table.human_should_act():
                if not table.prompt():
                    break
            elif not table.bot_turn():
                table.passed_turn = 0
                if not table.prompt():
                    break
    except (EOFError, KeyboardInterrupt, typer.Abort):
        typer.echo("")
    if record is not None:
        seats = tuple(
            SeatRecord(n, "human" if i == HUMAN else "bot", None if i == HUMAN else bots)
            for i, n in enumerate(table.names)
        )
        text = GameRecord.of(game, seats, {"seed": seed} if seed is not None else {}).dumps()
        try:
            record.write_text(text, encoding="utf-8")
        except OSError as error:
            fail(f"{record}: {error.strerror}")
        typer.echo(f"record written to {record} (bohnanza replay {record})")
