"""The texts of the chat commands `stats` and `top`: a player's figures, a room's leaderboard.

Pure: the figures come from the store (`ChatStore.standing`, `ChatStore.leaderboard`); here they
are only put into words, in the room's language. Names are shown as typed (the replies are plain
text).
"""

from __future__ import annotations

from .i18n import Translator
from .inbound import Inbound
from .ports import ChatStore, Standing

TOP_LINES = 10
"""How many players `top` shows."""


def player_name(tr: Translator, standing: Standing) -> str:
    """A player's name on a board; a bot is named by its strategy."""
    if standing.kind == "bot":
        return tr.gettext("{strategy} (bot)").format(strategy=standing.player_id)
    return standing.name


def stats_text(tr: Translator, standing: Standing | None, whole_platform: bool) -> str:
    """`stats`: the player's games, wins, mean coins and rating in this room (or, asked
    privately, in all rooms of the platform)."""
    if standing is None:
        if whole_platform:
            return tr.gettext("You have not finished a game in any room yet.")
        return tr.gettext("You have not finished a game in this room yet.")
    games = tr.ngettext("{n} game", "{n} games", standing.games).format(n=standing.games)
    wins = tr.ngettext("{n} win", "{n} wins", standing.wins).format(n=standing.wins)
    if whole_platform:
        heading = tr.gettext("{name} in all rooms: {games}, {wins}, {coins} coins a game.")
    else:
        heading = tr.gettext("{name} in this room: {games}, {wins}, {coins} coins a game.")
    rating = tr.gettext("Rating {rating} (mu {mu}, sigma {sigma}): place {place} of {players}.")
    return "\n".join(
        [
            heading.format(
                name=player_name(tr, standing),
                games=games,
                wins=wins,
                coins=f"{standing.mean_coins:.1f}",
            ),
            rating.format(
                rating=f"{standing.ordinal:.1f}",
                mu=f"{standing.mu:.1f}",
                sigma=f"{standing.sigma:.1f}",
                place=standing.place,
                players=standing.players,
            ),
        ]
    )


def top_text(tr: Translator, board: list[Standing]) -> str:
    """`top`: the room's best players, one line each."""
    if not board:
        return tr.gettext("Nobody has finished a game in this room yet.")
    lines = [tr.gettext("Best players of this room (rating = mu - 3 sigma):")]
    for standing in board[:TOP_LINES]:
        games = tr.ngettext("{n} game", "{n} games", standing.games).format(n=standing.games)
        wins = tr.ngettext("{n} win", "{n} wins", standing.wins).format(n=standing.wins)
        lines.append(
            tr.gettext("{place}. {name}: {rating} ({games}, {wins})").format(
                place=standing.place,
                name=player_name(tr, standing),
                rating=f"{standing.ordinal:.1f}",
                games=games,
                wins=wins,
            )
        )
    return "\n".join(lines)


def standings_answer(
    tr: Translator, store: ChatStore, platform: str, inbound: Inbound, verb: str
) -> str:
    """The answer to `stats` or `top` (`commands.Family.STANDINGS`). Asked privately, `stats` covers
    every room of the platform, and `top` points to a room (a room's names stay in it)."""
    if verb == "top":
        if inbound.private:
            return tr.gettext("Send top in a group room to see its leaderboard.")
        return top_text(tr, store.leaderboard(platform, inbound.room, TOP_LINES))
    room = "" if inbound.private else inbound.room
    return stats_text(tr, store.standing(platform, room, inbound.user_id), inbound.private)
