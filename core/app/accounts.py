"""The accounts a `move` names, the way people on its platform name each other.

Each platform resolves what it can into the input (`Inbound.named`): on Telegram the author of
the message a command answers, and a mention of someone without a username; on Matrix a
display name of someone in the room. What it cannot resolve it reads from the typed word alone
(`user_id_of`): a Matrix user id, a Telegram @username (a claim for it is the account's that
bears it: `Inbound.handle`), an IRC nick. A word that names no account there gives '' (and the
player is told how to name one).
"""

from __future__ import annotations

from collections.abc import Callable

from .inbound import Inbound, Named
from .names import name_key

Account = tuple[str, str]
"""A user id (or handle) and the name it is shown under."""


class SeveralAccounts(ValueError):
    """The words name several people in the room (two with one display name)."""


def accounts_named(
    inbound: Inbound, args: tuple[str, ...], user_id_of: Callable[[str], str]
) -> list[Account]:
    """The accounts `args` name in order: all of them one person the platform resolved (a name
    may have spaces), else each word one account; with no words, the author of the message the
    input answers. SeveralAccounts when the words fit more than one person."""
    if not args:
        return [(n.user_id, n.name) for n in inbound.named if not n.said][:1]
    whole = _resolved(inbound.named, " ".join(args))
    if whole is not None:
        return [whole]
    accounts = []
    for word in args:
        account = _resolved(inbound.named, word)
        accounts.append(account if account is not None else (user_id_of(word), word))
    return accounts


def _resolved(named: tuple[Named, ...], words: str) -> Account | None:
    key = name_key(words)
    fits = {n.user_id: n for n in named if n.said and name_key(n.said) == key}
    if len(fits) > 1:
        raise SeveralAccounts(words)
    return next(((n.user_id, n.name) for n in fits.values()), None)
