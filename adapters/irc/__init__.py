"""The IRC adapter: `!` commands in channels, private messages for hands, on asyncio streams.

`bohnanza serve irc` connects to `BOHNANZA_IRC_SERVER` (TLS by default, SASL PLAIN when an
account is set), joins `BOHNANZA_IRC_CHANNELS` and the channels it is invited to, and serves
the game there. A player is his nick, folded by IRC's case rules; when he changes his nick,
his seats follow him. Nothing is kept but the store: IRC never sends a line twice.
"""

from __future__ import annotations

from bohnanza.adapters.kit import Inbound, Platform, Runner, ServeContext, command_text, serve_chat

from .client import IrcClient
from .port import IrcPort
from .protocol import Line, casefold, is_channel
from .settings import read_settings


def inbound_of(line: Line, bot_nick: str, prefix: str) -> Inbound | None:
    """The command in a PRIVMSG: in a channel after the prefix or `botnick:`, in private any
    text (the prefix allowed); None when it holds none, or is a CTCP request."""
    target, text = [*line.params, "", ""][:2]
    private = not is_channel(target)
    command = command_text(text, [prefix], [bot_nick]) or (private and text.strip())
    if line.command != "PRIVMSG" or not command or text.startswith("\x01") or not line.nick:
        return None
    user, room = casefold(line.nick), casefold(target)
    return Inbound("irc", user, line.nick, user if private else room, command, private=private)


async def listen(client: IrcClient, runner: Runner) -> None:
    """Feed the runner the commands said to the bot, nick changes and nicks found gone; join
    the channels with a game or a lobby besides the configured ones."""

    async def handle(line: Line) -> None:
        (command, params), nick = line[:2], casefold(line.nick)
        inbound = inbound_of(line, client.nick, client.settings["PREFIX"])
        if inbound is not None:
            await runner.submit(inbound, wait=False)
        elif command == "NICK" and params and nick != casefold(params[0]):
            await runner.rename(nick, casefold(params[0]), params[0])
        elif command == "401" and len(params) > 1 and not is_channel(params[1]):
            await runner.unreachable(casefold(params[1]))
        elif command == "QUIT":
            await runner.unreachable(nick, tell=False)

    client.channels.update(dict.fromkeys(await runner.read(lambda service: service.rooms())))
    await client.run(handle)


async def _serve(context: ServeContext) -> None:
    client = IrcClient(read_settings(context.settings))
    await serve_chat(context, IrcPort(client), lambda r: listen(client, r), user_id_of=casefold)


platform = Platform("irc", "IRC channels, over TLS with SASL", _serve, check=read_settings)
