"""The chat application's service: every input in, the messages to show out.

`ChatService` is sans-I/O: an adapter's runner hands it `Inbound` input and the time, and
delivers the `Outbound` messages it returns. It keeps one lobby or game per room, applies each
action durably before answering, lets bots answer at once, and plays defaults at deadlines.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from ..actions import AcceptTrade, Action
from ..audit import audit_game
from ..bots import SEARCHING
from ..errors import IllegalActionError
from ..notation import NotationError, action_text, parse_action
from ..ports import (
    FINISHED,
    IN_PROGRESS,
    Delivery,
    DuplicateDelivery,
    DuplicateGame,
    GameFinished,
    NewGame,
    SeatIdentity,
    StoreError,
    UnreadableGame,
)
from ..table_setup import setup_for
from . import reminders, turns
from .commands import GAME_VERBS, LOBBY_VERBS, STANDINGS_VERBS, help_text
from .i18n import English, Translator
from .inbound import MAX_TEXT, Inbound
from .lobby import DEFAULT_TRADE_WINDOW_SECONDS, Lobby, LobbyError, format_duration
from .messages import Button, Message, Outbound, Reply, ToPlayer, ToRoom
from .numbers import answered, message_choices
from .picker import PICK, SEND, ShortBeanNames, draft_commands
from .ports import Capabilities, ChatStore, GameProgress
from .refusals import refusal
from .render import hand_text
from .rules import rules_text
from .seat_claims import ask_claim, carry_out_claim, new_code, settle_claim
from .seat_moves import RENAME, apply_moves, move_error, move_request, move_seat
from .session import GameSession, new_controls, resume_game
from .standings import standings_answer
from .story import StoryKeeper
from .typed_names import seat_numbers
from .updates import (
    ASK,
    BACK,
    CHAIN,
    current_draft,
    hand_key,
    hand_slot,
    hand_updates,
    retired_text,
    screen_message,
    screen_moment,
    table_message,
    table_slot,
    table_update,
)

GAME_ID_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
GAME_ID_LENGTH = 6
DELIVERIES_KEPT = timedelta(days=2)
"""How long an input's delivery id is kept: platforms redeliver for a day at most."""
MAX_DELIVERY_ID = 255
EXPIRY_EVERY = timedelta(hours=1)
NOTIFY_MODES = ("off", "turn", "all")
MAX_NAME = 32
_ENGLISH = English()
"""The catalog when none is configured: one, so that what is rendered with it is kept."""


class ChatService:
    """Lobbies and games of one platform, each in its own room."""

    def __init__(
        self,
        platform: str,
        capabilities: Capabilities,
        store: ChatStore,
        translators: Mapping[str, Translator] | None = None,
        rng: random.Random | None = None,
        user_id_of: Callable[[str], str] | None = None,
        codes: random.Random | None = None,
    ) -> None:
        self.platform = platform
        self.user_id_of: Callable[[str], str] = user_id_of or str.strip
        """A platform's user id from a name as a player types it (`move NEW`); IRC folds a
        nick's case."""
        self.capabilities = capabilities
        self.store = store
        self.translators: Mapping[str, Translator] = translators or {"en": English()}
        self.rng = rng or random.Random()
        self.codes = codes or self.rng
        """Where the one-time codes of seat claims come from (a bot passes a system one)."""
        self.gone: set[str] = set()
        """Players the platform found gone or unreachable (the runner keeps it), whose seats
        the opener may move where ids are nicks."""
        self.lobbies: dict[str, Lobby] = {}
        self.games: dict[str, GameSession] = {}
        """Games in progress by room."""
        self._delivery: Delivery | None = None
        """The delivery of the input in hand, until a write stores it with what it changed."""
        self._progress_read: tuple[str, GameProgress | None] | None = None
        """A game's progress, read with the input's delivery id, for `_up_to_date` to take once
        (the game the input is most likely for: the room's, or its button's)."""
        self._deliveries_expired: datetime | None = None
        self.refused: dict[str, str] = {}
        """Stored games found altered or damaged, and why: they are not continued."""
        self._lobby_versions: dict[str, int] = {}
        """The stored version of each lobby in `lobbies`, which a change must name."""
        self._short_names: dict[int, tuple[Translator, ShortBeanNames]] = {}
        """Each catalog's short-names wrapper (compact platforms), made once: messages keep
        what they render by catalog (`markup`)."""

    # --- reading -------------------------------------------------------------------------

    def translator(self, language: str) -> Translator:
        tr = self.translators.get(language) or self.translators.get("en") or _ENGLISH
        if not self.capabilities.compact:
            return tr
        kept = self._short_names.get(id(tr))
        if kept is None or kept[0] is not tr:
            kept = self._short_names[id(tr)] = (tr, ShortBeanNames(tr))
        return kept[1]

    def room_language(self, room: str) -> str:
        if room in self.games:
            return self.games[room].language
        if room in self.lobbies:
            return self.lobbies[room].language
        return "en"

    def may_take_long(self, inbound: Inbound | None = None) -> bool:
        """Whether handling `inbound` may make searching bots think (a game or lobby with one
        in its room; for a private input, a game of its sender), or, without an input, whether
        playing what is due may (any game with one)."""
        if inbound is None:
            return any(session.searching for session in self.games.values())
        if inbound.private:
            return any(session.searching for session in self.sessions_of(inbound.user_id))
        session = self.games.get(inbound.room)
        if session is not None:
            return session.searching
        lobby = self.lobbies.get(inbound.room)
        return lobby is not None and any(seat.strategy in SEARCHING for seat in lobby.seats)

    def sessions_of(self, user_id: str) -> list[GameSession]:
        """The games a player of this platform is seated in."""
        return [s for s in self.games.values() if s.seat_of(user_id) is not None]

    def hand_of(self, user_id: str) -> list[Message]:
        """Each of the player's games as he alone may see it (for inline results)."""
        out = []
        for shown in self._player_sessions(user_id):
            session = self._up_to_date(shown)
            if session is None:
                continue
            seat = session.seat_of(user_id)
            assert seat is not None
            tr = self.translator(session.language)
            text = tr.gettext("Game {game}").format(game=session.game_id)
            out.append(Message(text + "\n" + hand_text(tr, session.view(seat), session.names)))
        return out

    # --- start and restart -----------------------------------------------------------------

    def resume(self, now: datetime) -> int:
        """Pick up every game of this platform the store holds in progress (and checks out:
        see `refused`); return how many."""
        count = 0
        for summary in self.store.list_games():
            if summary.status != IN_PROGRESS or summary.game_id in self._game_ids():
                continue
            if self._adopt(summary.game_id) is not None:
                count += 1
        return count

    def _adopt(self, game_id: str) -> GameSession | None:
        """Take up a stored game in progress of this platform (started here before a restart,
        or by another worker on the same store); None if it is not one, or if the store holds
        it altered or damaged (then `refused` says why: it is never continued)."""
        if game_id in self.refused:
            return None
        try:
            stored = self.store.load_stored(game_id)
        except UnreadableGame as error:
            self.refused[game_id] = str(error)
            return None
        options = stored.game.options
        if (
            stored.status != IN_PROGRESS
            or options.get("platform") != self.platform
            or "room" not in options
        ):
            return None
        failure = audit_game(stored)
        if failure is not None:
            self.refused[game_id] = str(failure)
            return None
        try:
            session = self._rebuild(game_id)
            since = self.store.last_action_at(game_id) or stored.game.created_at
        except UnreadableGame as error:
            self.refused[game_id] = str(error)
            return None
        except ValueError as error:  # RecordError included: options or actions unreadable
            self.refused[game_id] = f"game {game_id}: {error}"
            return None
        session.refresh_waiting(since)
        if session.trade_window_until is None:
            turns.resume_trade_window(session, since)
        self.games[session.room] = session
        return session

    def _up_to_date(self, session: GameSession) -> GameSession | None:
        """The session as far as the store is: another worker on the same store may have moved
        the game on (or ended it). One cheap read; a rebuild only when memory is behind."""
        read, self._progress_read = self._progress_read, None
        if read is not None and read[0] == session.game_id:
            progress = read[1]
        else:
            progress = self.store.game_progress(session.game_id)
        if progress == (IN_PROGRESS, len(session.game.actions)) and not session.unsaved:
            return session
        if progress is None or progress.status != IN_PROGRESS:
            if self.games.get(session.room) is session:
                del self.games[session.room]
            return None
        try:
            self._reload(session)
            since = self.store.last_action_at(session.game_id)
        except (UnreadableGame, ValueError) as error:
            # Damaged in the store meanwhile: not continued, as at a start.
            self.refused[session.game_id] = str(error)
            self.games = {r: s for r, s in self.games.items() if s.game_id != session.game_id}
            return None
        fresh = self.games.get(session.room)
        if fresh is None or fresh.game_id != session.game_id:
            return None
        if since is not None:
            fresh.refresh_waiting(since)
            if fresh.trade_window_until is None:
                turns.resume_trade_window(fresh, since)
        return fresh

    def _room_session(self, room: str) -> GameSession | None:
        """The game in progress in a room, wherever it was started, as far as the store is."""
        session = self.games.get(room)
        if session is not None:
            session = self._up_to_date(session)
        if session is None:
            game_id = self.store.active_game_in(self.platform, room)
            if game_id is not None:
                session = self._adopt(game_id)
        return session

    def _player_sessions(self, user_id: str) -> list[GameSession]:
        """The games in progress a player of this platform is seated in, as the store says."""
        out = []
        for game_id in self.store.active_games_of(self.platform, user_id):
            session = self._session_by_id(game_id) or self._adopt(game_id)
            if session is not None:
                out.append(session)
        return out

    def _game_ids(self) -> set[str]:
        return {s.game_id for s in self.games.values()}

    def _rebuild(self, game_id: str) -> GameSession:
        stored = self.store.load_stored(game_id)
        options = stored.game.options
        rng = random.Random(self.rng.random())
        story = StoryKeeper()
        game = resume_game(stored.record(), rng, story.seen)
        session = GameSession(
            game_id=game_id,
            platform=self.platform,
            room=str(options["room"]),
            language=str(options.get("language", "en")),
            turn_seconds=int(options.get("turn_seconds", 0)),
            trade_window_seconds=int(
                options.get("trade_window_seconds", DEFAULT_TRADE_WINDOW_SECONDS)
            ),
            game=game,
            seats=new_controls(stored.game.seats, rng),
            rng=rng,
            story=story,
            creator=str(options.get("creator", "")),
        )
        apply_moves(session, self.store)
        chat_state = self.store.load_chat_state(game_id)
        if chat_state is not None:
            session.restore(chat_state)
        self._load_notify(session)
        return session

    # --- input -----------------------------------------------------------------------------

    def handle(self, inbound: Inbound, now: datetime) -> list[Outbound]:
        """Everything one input causes, in the order it should be shown. An input delivered
        again (a platform retrying, another worker) is applied once: its delivery id is stored
        in the transaction of what it changed, or on its own when it changed nothing."""
        delivery_id = inbound.delivery_id[:MAX_DELIVERY_ID]
        if delivery_id and self._handled_before(inbound, delivery_id):
            self._progress_read = None
            return []
        self._delivery = Delivery(self.platform, delivery_id) if delivery_id else None
        try:
            out = self._handle(inbound, now)
        except DuplicateDelivery:
            return []  # another worker applied it a moment ago; memory was reloaded
        except StoreError:
            if not delivery_id or self._delivery is not None:
                raise  # nothing of it was stored: the platform is to deliver it again
            # Part of it was stored with its delivery id, so it will not come again: what was
            # stored stands, memory is taken from the store anew, and the views follow it.
            return self._recover(inbound, now)
        finally:
            unstored, self._delivery = self._delivery, None
            self._progress_read = None
        if unstored is not None:
            self.store.record_delivery(unstored.platform, unstored.delivery_id, now)
        return folded_answers(out) if self.capabilities.compact else out

    def _handled_before(self, inbound: Inbound, delivery_id: str) -> bool:
        """Whether the input was applied (or refused) already. The progress of the game in
        memory it is most likely for is read in the same look-up, for `_up_to_date`."""
        words = inbound.text.split()
        if inbound.button and len(words) >= 2 and words[0] in ("g", "h"):
            session = self._session_by_id(words[1])
        else:
            session = None if inbound.private else self.games.get(inbound.room)
        if session is None:
            return self.store.delivery_seen(self.platform, delivery_id)
        seen, progress = self.store.delivery_seen_and_progress(
            self.platform, delivery_id, session.game_id
        )
        self._progress_read = (session.game_id, progress)
        return seen

    def _recover(self, inbound: Inbound, now: datetime) -> list[Outbound]:
        """After a store failure halfway through an input: forget what memory holds of its
        room and its sender's games, and show them as stored (if the store answers again)."""
        tr = self.translator(self.room_language(inbound.room))
        mine = {s.game_id for s in self.sessions_of(inbound.user_id)}
        self.games = {
            room: s
            for room, s in self.games.items()
            if room != inbound.room and s.game_id not in mine
        }
        self.lobbies.pop(inbound.room, None)
        reply = Reply(
            inbound, tr.gettext("The game moved on meanwhile; look at it again and retry.")
        )
        try:
            session = None if inbound.private else self._room_session(inbound.room)
            self._player_sessions(inbound.user_id)
        except StoreError:
            return [reply]
        out = self.views(session.room, now) if session is not None else []
        return [*out, *self.views_of(inbound.user_id), reply]

    def _handle(self, inbound: Inbound, now: datetime) -> list[Outbound]:
        tr = self.translator(self.room_language(inbound.room))
        if len(inbound.text) > MAX_TEXT:
            return [Reply(inbound, tr.gettext("That is too long to be a command."))]
        words = inbound.text.split()
        if not words:
            return []
        if inbound.button:
            return self._button(inbound, words, now)
        verb = words[0].lower()
        if verb in ("help", "start") and inbound.private and inbound.room not in self.lobbies:
            return [Reply(inbound, help_text(tr))]
        if verb == "help":
            return [Reply(inbound, help_text(tr))]
        if verb == "rules":
            return [Reply(inbound, rules_text(tr, words[1] if len(words) > 1 else None))]
        if verb in STANDINGS_VERBS:
            return [Reply(inbound, standings_answer(tr, self.store, self.platform, inbound, verb))]
        if verb == "set" and len(words) >= 2 and words[1].lower() == "notify":
            return self._notify_setting(inbound, words[2:], now)
        if verb in LOBBY_VERBS:
            return self._lobby(inbound, verb, words[1:], now)
        if verb == "move":
            return self._move(inbound, words[1:], now)
        if verb == "claim":
            return self._claim(inbound, words[1:], now)
        if verb in GAME_VERBS or verb.startswith("#") or verb.isdigit():
            return self._game_command(inbound, words, now)
        return [Reply(inbound, tr.gettext("Unknown command. Send 'help' for the list."))]

    def _button(self, inbound: Inbound, words: list[str], now: datetime) -> list[Outbound]:
        tr = self.translator(self.room_language(inbound.room))
        kind = words[0]
        if kind == "l" and len(words) >= 2 and words[1] in LOBBY_VERBS:
            return self._lobby(inbound, words[1], words[2:], now)
        if kind not in ("g", "h"):
            return [Reply(inbound, tr.gettext("This button is not one of mine."))]
        session = self._button_session(words[1]) if len(words) >= 2 else None
        if session is None:
            return [Reply(inbound, tr.gettext("This button belongs to a game that is over."))]
        tr = self.translator(session.language)
        seat = session.seat_of(inbound.user_id)
        if seat is None:
            return [Reply(inbound, tr.gettext("You are not playing in this game."))]
        back = self._welcome_back(session, seat, now)
        if back:
            return back + self._button(inbound, words, now)
        if kind == "h" and len(words) == 2:
            if not self.capabilities.personal_answers:
                # Here an answer may be read by others: the hand goes to the private chat.
                return self._hand_privately(session, seat, inbound)
            return [Reply(inbound, hand_text(tr, session.view(seat), session.names))]
        if kind != "g" or len(words) < 4:
            return [Reply(inbound, tr.gettext("This button is not one of mine."))]
        if words[3] == PICK:
            # The draft is checked against the game as it is: others' offers may come and go
            # while a player ticks his cards.
            return self._pick(session, seat, inbound, " ".join(words[4:]), now)
        if words[2] != session.token(seat):
            # Never a dead end: the player gets the moment as it is now, with its buttons.
            return [
                *self._kept(session, now, self._private_view(session, seat, fresh=True)),
                Reply(
                    inbound,
                    tr.gettext(
                        "That button was from an earlier moment: here is the game as it stands now."
                    ),
                ),
            ]
        if words[3] == ASK and len(words) > 4:
            return self._confirm(session, seat, inbound, " ".join(words[4:]), now)
        if words[3] == BACK:
            session.seats[seat].screen = None
            return self._kept(session, now, self._private_view(session, seat))
        if words[3] == SEND:
            return self._send_offer(session, seat, inbound, " ".join(words[4:]), now)
        return self._act(session, seat, inbound, " ".join(words[3:]), now)

    def _show_screen(self, session: GameSession, seat: int, screen: str | None) -> None:
        control = session.seats[seat]
        control.screen = screen
        if screen is not None:
            control.screen_at = screen_moment(session, seat, screen)

    def _kept(self, session: GameSession, now: datetime, out: list[Outbound]) -> list[Outbound]:
        """`out`, once what the player's private message now shows (a question, a draft, the
        list a number answers) is stored with the game's chat state, in one transaction with
        the input: after a restart a number answers what it answered before. (Nothing but
        the chat state is unsaved here: no move was made.)"""
        if turns.save(session, self.store, now, self._delivery):
            self._delivery = None
        return out

    def _pick(
        self, session: GameSession, seat: int, inbound: Inbound, draft: str, now: datetime
    ) -> list[Outbound]:
        """The trade picker with the draft of the button pressed."""
        tr = self.translator(session.language)
        if current_draft(session, seat, draft) is None:
            self._show_screen(session, seat, None)
            return [
                *self._kept(session, now, self._private_view(session, seat)),
                Reply(inbound, tr.gettext("That offer cannot be made now.")),
            ]
        self._show_screen(session, seat, f"{PICK} {draft}")
        return self._kept(session, now, self._private_view(session, seat))

    def _send_offer(
        self, session: GameSession, seat: int, inbound: Inbound, words: str, now: datetime
    ) -> list[Outbound]:
        """Make the offer the player built: to one partner, to each possible partner, or as
        the counter of an offer made to him."""
        tr = self.translator(session.language)
        draft = current_draft(session, seat, words)
        options = session.legal(seat).trade
        if draft is None or options is None:
            self._show_screen(session, seat, None)
            return [
                *self._private_view(session, seat),
                Reply(inbound, tr.gettext("That offer cannot be made now.")),
            ]
        self._show_screen(session, seat, None)
        return self._act(
            session, seat, inbound, CHAIN.join(draft_commands(draft, options.partners)), now
        )

    def _confirm(
        self, session: GameSession, seat: int, inbound: Inbound, command: str, now: datetime
    ) -> list[Outbound]:
        """A move that cannot be undone and is not forced (selling a field) is asked again:
        the player's message shows what it does, with Yes and No."""
        tr = self.translator(session.language)
        try:
            action = self._parse(session, seat, command)
            session.game.check(action)
        except (NotationError, IllegalActionError):
            return [Reply(inbound, tr.gettext("This button is not one of mine."))]
        self._show_screen(session, seat, f"{ASK} {action_text(action)}")
        return self._kept(session, now, self._private_view(session, seat))

    def _session_by_id(self, game_id: str) -> GameSession | None:
        for session in self.games.values():
            if session.game_id == game_id:
                return session
        return None

    def _button_session(self, game_id: str) -> GameSession | None:
        session = self._session_by_id(game_id)
        if session is not None:
            return self._up_to_date(session)
        progress = self.store.game_progress(game_id)
        if progress is None or progress.status != IN_PROGRESS:
            return None
        return self._adopt(game_id)

    # --- a player's own settings -----------------------------------------------------------

    def _notify_setting(self, inbound: Inbound, args: list[str], now: datetime) -> list[Outbound]:
        """`set notify off|turn|all`: when the player is notified, in every game of his."""
        tr = self.translator(self.room_language(inbound.room))
        mode = args[0].lower() if len(args) == 1 else ""
        if mode not in NOTIFY_MODES:
            return [Reply(inbound, tr.gettext("Write: set notify off, turn or all."))]
        settings = self.store.load_player_settings(self.platform, inbound.user_id)
        settings["notify"] = mode
        self.store.save_player_settings(self.platform, inbound.user_id, settings, now)
        for session in self.sessions_of(inbound.user_id):
            seat = session.seat_of(inbound.user_id)
            if seat is not None:
                session.seats[seat].notify = mode
        texts = {
            "off": tr.gettext("I will not notify you; your private messages stay current."),
            "turn": tr.gettext("I will notify you when a decision is yours."),
            "all": tr.gettext("I will notify you whenever your game changes for you."),
        }
        return [Reply(inbound, texts[mode])]

    def _load_notify(self, session: GameSession) -> None:
        for control in session.seats:
            if control.is_human and control.identity.platform == self.platform:
                settings = self.store.load_player_settings(self.platform, control.identity.user_id)
                mode = settings.get("notify", "turn")
                control.notify = mode if mode in NOTIFY_MODES else "turn"

    # --- the lobby -------------------------------------------------------------------------

    def _lobby(self, inbound: Inbound, verb: str, args: list[str], now: datetime) -> list[Outbound]:
        """A lobby command on the lobby as stored; when another worker changed the lobby
        meanwhile, the command is decided again on the new one."""
        room = inbound.room
        for _ in range(3):
            if not inbound.private:
                self._fetch_lobby(room)
            before = self.lobbies.get(room)
            data = None if before is None else _lobby_data(before)
            out = self._lobby_command(inbound, verb, args, now)
            if self._store_lobby(room, data, now):
                return out
        tr = self.translator(self.room_language(room))
        return [
            Reply(inbound, tr.gettext("The game moved on meanwhile; look at it again and retry."))
        ]

    def _fetch_lobby(self, room: str) -> None:
        stored = self.store.load_lobby(self.platform, room)
        self.lobbies.pop(room, None)
        self._lobby_versions.pop(room, None)
        if stored is not None:
            self.lobbies[room] = _lobby_from(stored.data)
            self._lobby_versions[room] = stored.version

    def _store_lobby(self, room: str, before: dict[str, Any] | None, now: datetime) -> bool:
        """Store what a lobby command changed; False if another worker changed it first."""
        if room not in self._lobby_versions and before is not None:
            return True  # started: `_start` took the lobby from the store itself
        version = self._lobby_versions.get(room, 0)
        lobby = self.lobbies.get(room)
        if lobby is None:
            return before is None or self.store.drop_lobby(self.platform, room, version)
        data = _lobby_data(lobby)
        if data == before:
            return True
        try:
            saved = self.store.save_lobby(self.platform, room, data, version, now, self._delivery)
        except DuplicateDelivery:
            self._fetch_lobby(room)
            raise
        if not saved:
            return False
        self._delivery = None
        self._lobby_versions[room] = version + 1
        return True

    def _lobby_command(
        self, inbound: Inbound, verb: str, args: list[str], now: datetime
    ) -> list[Outbound]:
        room = inbound.room
        tr = self.translator(self.room_language(room))
        if inbound.private:
            return [Reply(inbound, tr.gettext("Games are opened and joined in a group."))]
        if self._room_session(room) is not None:
            return [Reply(inbound, tr.gettext("A game is already being played here."))]
        lobby = self.lobbies.get(room)
        name = _clean_name(inbound.name) or inbound.user_id[:MAX_NAME]
        try:
            if verb == "new":
                if lobby is not None:
                    raise LobbyError("A game is already being gathered here: send 'join'.")
                lobby = Lobby(room, self.platform, inbound.user_id)
                lobby.join(inbound.user_id, name)
                self.lobbies[room] = lobby
                tr = self.translator(lobby.language)
                # A new lobby is a new message, not an edit of an old game's far up the chat.
                return [replace(self._lobby_message(lobby, tr), fresh=True)]
            if lobby is None:
                raise LobbyError("No game is being gathered here: send 'new' to open one.")
            if verb == "join":
                lobby.join(inbound.user_id, name)
            elif verb == "leave":
                lobby.leave(inbound.user_id)
                if not any(s.kind == "human" for s in lobby.seats):
                    del self.lobbies[room]
                    return [
                        ToRoom(
                            room, Message(tr.gettext("The game was called off.")), f"lobby:{room}"
                        )
                    ]
            elif verb == "bot":
                self._bot_command(lobby, inbound.user_id, args)
            elif verb == "set":
                self._require_creator(lobby, inbound.user_id)
                if len(args) != 2:
                    raise LobbyError("Write: set lang it, or set deadline 10m.")
                lobby.set_option(args[0].lower(), args[1].lower())
            elif verb == "cancel":
                self._require_creator(lobby, inbound.user_id)
                del self.lobbies[room]
                return [
                    ToRoom(room, Message(tr.gettext("The game was called off.")), f"lobby:{room}")
                ]
            elif verb in ("start", "begin"):
                lobby.check_start(inbound.user_id)
                return self._start(lobby, now)
        except LobbyError as error:
            return [Reply(inbound, tr.gettext(str(error)).format(**error.params))]
        return [self._lobby_message(lobby, self.translator(lobby.language))]

    def _require_creator(self, lobby: Lobby, user_id: str) -> None:
        if user_id != lobby.creator:
            raise LobbyError("Only the player who opened the game can change it.")

    def _bot_command(self, lobby: Lobby, user_id: str, args: list[str]) -> None:
        if lobby.seat_of(user_id) is None:
            raise LobbyError("Join the game first.")
        if args and args[0].lower() == "remove":
            lobby.remove_bot()
            return
        words = [a.lower() for a in args if a.lower() != "add"]
        lobby.add_bot(words[0] if words else "heuristic")

    def _lobby_message(self, lobby: Lobby, tr: Translator) -> ToRoom:
        names = ", ".join(seat.name for seat in lobby.seats)
        text = "\n".join(
            [
                tr.gettext("A game of Bohnanza is being gathered ({count} of 2-7 players).").format(
                    count=len(lobby.seats)
                ),
                tr.gettext("Players: {names}").format(names=names),
                tr.gettext(
                    "Language: {language} · deadline per move: {deadline} · a bot trades for "
                    "{window}"
                ).format(
                    language=lobby.language,
                    deadline=format_duration(lobby.turn_seconds),
                    window=format_duration(lobby.trade_window_seconds),
                ),
                tr.gettext(
                    "join · leave · bot · bot remove · set lang L · set deadline 10m · "
                    "set trade-window 2m · start"
                ),
            ]
        )
        buttons: tuple[tuple[Button, ...], ...] = ()
        if self.capabilities.buttons:
            buttons = (
                (Button(tr.gettext("Join"), "l join"), Button(tr.gettext("Leave"), "l leave")),
                (Button(tr.gettext("Add a bot"), "l bot"), Button(tr.gettext("Start"), "l start")),
            )
        return ToRoom(lobby.room, Message(text, buttons), f"lobby:{lobby.room}")

    def _start(self, lobby: Lobby, now: datetime) -> list[Outbound]:
        players = len(lobby.seats)
        deck = setup_for(players).cards_in_play()
        self.rng.shuffle(deck)
        seats = tuple(_unique_names(lobby.seats))
        version = self._lobby_versions.pop(lobby.room, 0)
        game_id = self._new_game_id()
        options: dict[str, str | int] = {
            "platform": self.platform,
            "room": lobby.room,
            "language": lobby.language,
            "turn_seconds": lobby.turn_seconds,
            "trade_window_seconds": lobby.trade_window_seconds,
            "creator": lobby.creator,
        }
        tr = self.translator(lobby.language)
        try:
            for _ in range(5):
                try:
                    # The lobby is taken and its game stored in one transaction: a crash
                    # leaves one or the other, never neither.
                    game = NewGame(game_id, seats, tuple(deck), now, options)
                    started = self.store.start_game(game, version, self._delivery)
                    break
                except DuplicateGame:
                    game_id = self._new_game_id()
            else:
                raise StoreError("no free game id")
        except DuplicateDelivery:
            self.lobbies.pop(lobby.room, None)
            raise
        except StoreError:
            self._fetch_lobby(lobby.room)
            text = tr.gettext("The game could not be stored; try again.")
            return [ToRoom(lobby.room, Message(text))]
        if not started:
            self._fetch_lobby(lobby.room)
            text = tr.gettext("The game moved on meanwhile; look at it again and retry.")
            return [ToRoom(lobby.room, Message(text))]
        self._delivery = None
        del self.lobbies[lobby.room]
        session = self._rebuild(game_id)
        # The opener who started the game is acting already: his first move is no news.
        session.refresh_waiting(now, acted=session.seat_of(lobby.creator))
        self.games[lobby.room] = session
        tr = self.translator(session.language)
        begins = tr.gettext("Game {game} begins: {names}.").format(
            game=game_id, names=", ".join(session.names)
        )
        out: list[Outbound] = [ToRoom(lobby.room, Message(begins), f"lobby:{lobby.room}")]
        try:
            return out + self._after_move(session, now, fresh=True)
        except turns.StoreRefused:
            return [
                *out,
                ToRoom(
                    lobby.room,
                    Message(tr.gettext("The game moved on meanwhile; look at it again and retry.")),
                ),
            ]

    def _new_game_id(self) -> str:
        """A random id; the store refuses one that is taken (DuplicateGame), and `_start`
        draws again: no list of every stored game is read."""
        return "".join(self.rng.choice(GAME_ID_LETTERS) for _ in range(GAME_ID_LENGTH))

    # --- the game --------------------------------------------------------------------------

    def _game_command(self, inbound: Inbound, words: list[str], now: datetime) -> list[Outbound]:
        tr = self.translator(self.room_language(inbound.room))
        game_id = words[0][1:].upper() if words[0].startswith("#") else None
        if game_id is not None:
            words = words[1:]
            if not words:
                return [Reply(inbound, tr.gettext("Write the command after the game's id."))]
        if inbound.private or game_id is not None:
            sessions = self._player_sessions(inbound.user_id)
            if game_id is not None:
                sessions = [s for s in sessions if s.game_id == game_id]
            if len(sessions) > 1:
                return [
                    Reply(
                        inbound,
                        tr.gettext(
                            "You play in several games; start with the game's id: #{game} {command}"
                        ).format(game=sessions[0].game_id, command=" ".join(words)),
                    )
                ]
            session = self._up_to_date(sessions[0]) if sessions else None
        else:
            session = self._room_session(inbound.room)
        if session is None:
            return [Reply(inbound, tr.gettext("You are not playing in a game here."))]
        tr = self.translator(session.language)
        seat = session.seat_of(inbound.user_id)
        if seat is None:
            return [Reply(inbound, tr.gettext("You are not playing in this game."))]
        back = self._welcome_back(session, seat, now)
        if back:
            return back + self._game_command(inbound, words, now)
        verb = words[0].lower()
        if verb.isdigit() and len(words) == 1:
            return self._numbered_choice(session, seat, inbound, int(verb), now)
        if verb == "table":
            if inbound.private:
                # Asked in private: answered there, not posted to the whole room.
                return [Reply(inbound, table_message(session, tr, self.capabilities, now).text)]
            return table_update(session, tr, self.capabilities, fresh=True, now=now)
        if verb == "hand":
            if inbound.private:
                # Here, the private message itself, posted anew with its buttons.
                return self._private_view(session, seat, fresh=True)
            return self._hand_privately(session, seat, inbound)
        return self._act(session, seat, inbound, " ".join(words), now)

    def _numbered_choice(
        self, session: GameSession, seat: int, inbound: Inbound, number: int, now: datetime
    ) -> list[Outbound]:
        """A number answers the player's private message where buttons are numbered lines:
        it presses that button, and the message that follows is posted anew, below it. It is
        taken only if it means the choice the player saw (`bohnanza.core.app.numbers`)."""
        tr = self.translator(session.language)
        screen = screen_message(session, seat, tr)
        buttons = [b for row in screen.buttons for b in row]
        choices = session.seats[seat].choices
        if session.hand_tokens.get(seat) != hand_key(session, seat, self.capabilities) or (
            1 <= number <= len(buttons) and not answered(choices, message_choices(screen), number)
        ):
            # His list changed since the one he answers was sent (unseen where lines cost,
            # renumbered by another's move, or unknown after a restart): the number may mean
            # another choice now. Nothing is done; the list as it stands comes anew.
            moved_on = tr.gettext("Your choices changed meanwhile; here they are as they stand.")
            mine = self._private_view(session, seat, fresh=True)
            return [Reply(inbound, moved_on), *self._kept(session, now, mine)]
        if not 1 <= number <= len(buttons):
            return [
                Reply(
                    inbound,
                    tr.gettext("There is no choice {number} in your private message.").format(
                        number=number
                    ),
                )
            ]
        payload = buttons[number - 1].payload
        out = self._button(replace(inbound, text=payload), payload.split(), now)
        retired = Message(retired_text(session, tr))
        return [
            replace(o, fresh=True, retired=retired)
            if isinstance(o, ToPlayer) and o.user_id == inbound.user_id
            else o
            for o in out
        ]

    def _hand_privately(self, session: GameSession, seat: int, inbound: Inbound) -> list[Outbound]:
        """The player's private message sent again, and a word where he asked (not on one
        screen, where it shows up right there)."""
        tr = self.translator(session.language)
        mine = self._private_view(session, seat, fresh=True)
        if self.capabilities.one_screen:
            return mine
        return [*mine, Reply(inbound, tr.gettext("I sent you your hand privately."))]

    def _private_view(self, session: GameSession, seat: int, fresh: bool = False) -> list[Outbound]:
        """The seat's private message as the game stands (`fresh`: posted anew)."""
        tr = self.translator(session.language)
        out = hand_updates(session, tr, self.capabilities, force={seat}, only={seat})
        if not fresh:
            return out
        retired = Message(retired_text(session, tr))
        return [
            replace(o, fresh=True, retired=retired) if isinstance(o, ToPlayer) else o for o in out
        ]

    # --- seats moved to a new identity -------------------------------------------------------

    def _move(self, inbound: Inbound, args: list[str], now: datetime) -> list[Outbound]:
        """`move NEW` by a seated player: NEW plays his seat from now on (where ids are
        accounts, once NEW claims it: `seat_claims`); `move OLD NEW` by the game's opener,
        where ids are nicks, for a player gone (`seat_moves.move_request`)."""
        tr = self.translator(self.room_language(inbound.room))
        session = None if inbound.private else self._room_session(inbound.room)
        if session is None:
            return [Reply(inbound, tr.gettext("Say 'move NEW' in the room of your game."))]
        tr = self.translator(session.language)
        verified = self.capabilities.verified_ids
        ids = [self.user_id_of(a) for a in args]
        request = move_request(session, tr, inbound.user_id, ids, verified, self.gone)
        if isinstance(request, str):
            return [Reply(inbound, request)]
        seat, reason = request
        new_name, new_id = args[-1], ids[-1]
        error = move_error(session, tr, seat, new_id)
        if error is not None:
            return [Reply(inbound, error)]
        if verified:
            code = new_code(self.codes)
            return ask_claim(session, self.store, tr, inbound, seat, new_id, new_name, code, now)
        moved = move_seat(
            session,
            self.store,
            tr,
            seat,
            new_id,
            new_name,
            now,
            asked_by=inbound.user_id,
            reason=reason,
        )
        return moved + self.views(session.room, now)

    def _claim(self, inbound: Inbound, args: list[str], now: datetime) -> list[Outbound]:
        """`claim CODE`, in a room or privately: the identity a seat's player handed it to
        takes it (`seat_claims`)."""
        tr = self.translator(self.room_language(inbound.room))
        if len(args) != 1:
            return [Reply(inbound, tr.gettext("Say 'claim CODE' with the code you were given."))]
        claim = settle_claim(self.store, tr, inbound, args[0], now)
        if isinstance(claim, str):
            return [Reply(inbound, claim)]
        session = self._session_by_id(claim.game_id) or self._adopt(claim.game_id)
        session = None if session is None else self._up_to_date(session)
        if session is None:
            self.store.drop_seat_claim(claim.game_id, claim.seat)
            return [Reply(inbound, tr.gettext("That game is over."))]
        tr = self.translator(session.language)
        out = carry_out_claim(session, self.store, tr, inbound, claim, now)
        if any(isinstance(o, Reply) for o in out):
            return out
        return out + self.views(session.room, now)

    def rename(self, old_id: str, new_id: str, new_name: str, now: datetime) -> list[Outbound]:
        """A player's id changed on the platform (an IRC nick change): his seats follow."""
        out: list[Outbound] = []
        for session in self._player_sessions(old_id):
            seat = session.seat_of(old_id)
            if seat is None or session.seat_of(new_id) is not None:
                continue
            tr = self.translator(session.language)
            out += move_seat(
                session,
                self.store,
                tr,
                seat,
                new_id,
                new_name,
                now,
                asked_by=old_id,
                reason=RENAME,
            )
            out += self.views(session.room, now)
        return out

    def rooms(self) -> list[str]:
        """Every room of the platform with a game in progress (once `resume`d) or a lobby
        gathering: the rooms a platform that must join its rooms (IRC) joins on start."""
        return sorted(set(self.games) | set(self.store.lobby_rooms(self.platform)))

    def private_slots(self, session: GameSession) -> list[str]:
        """The slots of a player's private chat that a game shows."""
        return [hand_slot(session.game_id)]

    # --- what everyone should see now -------------------------------------------------------

    def views(self, room: str | None = None, now: datetime | None = None) -> list[Outbound]:
        """The table and every private message of each game in progress (or the one in
        `room`) as the game stands now; a runner shows only those that differ from what was
        delivered, so this heals views that a failed send or a crash left behind."""
        out: list[Outbound] = []
        for session in list(self.games.values()):
            if room is not None and session.room != room:
                continue
            tr = self.translator(session.language)
            out.append(
                ToRoom(
                    session.room,
                    table_message(session, tr, self.capabilities, now),
                    table_slot(session.game_id),
                )
            )
            out += hand_updates(session, tr, self.capabilities, force=set(session.humans()))
        return out

    def views_of(
        self, user_id: str, room: str | None = None, private: bool = True
    ) -> list[Outbound]:
        """The private messages of one player's games as they stand now (said in a group:
        of the game in that group only)."""
        out: list[Outbound] = []
        if private or room is None:
            sessions = self.sessions_of(user_id)
        else:
            session = self.games.get(room)
            sessions = [] if session is None else [session]
        for session in sessions:
            seat = session.seat_of(user_id)
            if seat is not None and not session.game.is_over:
                out += self._private_view(session, seat)
        return out

    def _act(
        self, session: GameSession, seat: int, inbound: Inbound, command: str, now: datetime
    ) -> list[Outbound]:
        """A player's command in his game: applied, answered by bots, shown to all."""
        tr = self.translator(session.language)
        out: list[Outbound] = []
        session.seats[seat].screen = None
        if command.strip().lower() == "pass":
            if session.state.step.value != "trade" or seat == session.state.active:
                return [*out, Reply(inbound, tr.gettext("There is no trading to pass on now."))]
            session.seats[seat].passed = session.moment(seat)
            try:
                out += self._after_move(session, now, acting=seat)
            except turns.StoreRefused:
                return [
                    *out,
                    Reply(
                        inbound,
                        tr.gettext("The game moved on meanwhile; look at it again and retry."),
                    ),
                ]
            return [*out, Reply(inbound, tr.gettext("You pass on trading this time."))]
        try:
            out += self._apply_command(session, seat, inbound, command, now)
        except NotationError:
            return [
                *out,
                Reply(
                    inbound, tr.gettext("I did not understand that. Send 'help' for the commands.")
                ),
            ]
        except IllegalActionError as error:
            return [*out, Reply(inbound, refusal(tr, error))]
        except turns.StoreRefused:  # the game was reloaded from the store
            return [
                *out,
                Reply(
                    inbound, tr.gettext("The game moved on meanwhile; look at it again and retry.")
                ),
            ]
        if inbound.button:
            out.append(Reply(inbound, "✓"))
        elif (
            not inbound.private
            and self.capabilities.edits
            and not (self.capabilities.personal_answers)
        ):
            # Said in the group where no answer is personal: a brief word that it was taken
            # (the table is edited in place, only when the turn or the step changes).
            out.append(Reply(inbound, f"✓ {command}"))
        return out

    def _welcome_back(self, session: GameSession, seat: int, now: datetime) -> list[Outbound]:
        """Any command from a player a stand-in was playing for gives him his seat back; a
        table that waited for him goes on."""
        if not turns.hand_back(session, seat):
            return []
        turns.close_trade_window(session)
        tr = self.translator(session.language)
        name = session.names[seat]
        back: list[Outbound] = [
            ToRoom(
                session.room,
                Message(tr.gettext("{name} is back and plays again.").format(name=name)),
            )
        ]
        try:
            return back + self._after_move(session, now)
        except turns.StoreRefused:
            return back

    def _apply_command(
        self, session: GameSession, seat: int, inbound: Inbound, command: str, now: datetime
    ) -> list[Outbound]:
        """Apply a command and what follows it; when another writer (another worker) stored
        an action first, decide once more on the game as stored, then give up."""
        first, *rest = command.split(CHAIN)
        for attempt in range(2):
            turns.apply_action(session, self._parse(session, seat, first), now)
            for following in rest:
                # A button may carry the steps that usually follow ("plant 2; done"): each is
                # taken while it is still legal, in the same transaction as the first.
                try:
                    turns.apply_action(session, self._parse(session, seat, following), now)
                except (NotationError, IllegalActionError):
                    break
            try:
                return self._after_move(session, now, acting=seat)
            except turns.StoreRefused:
                reloaded = self._session_by_id(session.game_id)
                stale = inbound.button and (
                    reloaded is None or inbound.text.split()[2] != reloaded.token(seat)
                )
                if attempt or reloaded is None or stale:
                    raise
                session = reloaded
        raise AssertionError("unreachable")

    def _parse(self, session: GameSession, seat: int, command: str) -> Action:
        action = parse_action(seat_numbers(command, session.names, seat), seat)
        if isinstance(action, AcceptTrade) and not action.hand and not action.face_up:
            # "accept 3" alone gives the first fitting cards, as the button does.
            for legal in session.legal(seat).actions:
                if isinstance(legal, AcceptTrade) and legal.offer == action.offer:
                    return legal
        return action

    def _reload(self, session: GameSession) -> None:
        """Rebuild a game from the store, dropping whatever memory holds beyond it."""
        fresh = self._rebuild(session.game_id)
        for old, new in zip(session.seats, fresh.seats, strict=True):
            if old.stand_in:
                new.bot = old.bot
            new.misses = old.misses
        self.games[session.room] = fresh
        if fresh.game.is_over:
            del self.games[session.room]

    def _after_move(
        self,
        session: GameSession,
        now: datetime,
        fresh: bool = False,
        acting: int | None = None,
    ) -> list[Outbound]:
        """Bots answer, everything is stored (or StoreRefused, with the game reloaded); then the
        table and the private messages that changed."""
        turns.run_bots(session, now, acting)
        turns.close_trade_window(session)
        tr = self.translator(session.language)
        # Worked out before the save: what each player is shown (the list a number answers)
        # is stored with the move; none of it is sent unless the save succeeds.
        out = table_update(session, tr, self.capabilities, fresh=fresh, now=now)
        out += hand_updates(session, tr, self.capabilities, acting=acting)
        try:
            if turns.save(session, self.store, now, self._delivery):
                self._delivery = None
        except (turns.StoreRefused, DuplicateDelivery):
            self._reload(session)
            raise
        except GameFinished as ended:  # by another worker, a moment ago
            self._reload(session)
            raise turns.StoreRefused(str(ended)) from None
        if session.game.is_over:
            self.games.pop(session.room, None)
        return out

    # --- time ------------------------------------------------------------------------------

    def next_wakeup(self) -> datetime | None:
        """When `tick` should next be called."""
        moments = [turns.next_wakeup(s) for s in self.games.values()]
        return min((m for m in moments if m is not None), default=None)

    def tick(self, now: datetime) -> list[Outbound]:
        """Reminders, deadlines and trading windows that are due by `now`."""
        out: list[Outbound] = []
        for session in list(self.games.values()):
            out += self._tick_game(session, now)
        if self._deliveries_expired is None or now - self._deliveries_expired > EXPIRY_EVERY:
            self._deliveries_expired = now
            self.store.forget_deliveries(now - DELIVERIES_KEPT)
        return out

    def _tick_game(self, session: GameSession, now: datetime) -> list[Outbound]:
        due = turns.next_wakeup(session)
        if due is not None and due <= now:
            # Another worker may have moved the game on: play deadlines on the stored game.
            fresh = self._up_to_date(session)
            if fresh is None:
                return []
            session = fresh
        tr = self.translator(session.language)
        # Claimed in the store before they are sent: of several workers, one reminds.
        out = reminders.seat_reminders(session, self.store, tr, now)
        out += reminders.trade_reminders(session, self.store, tr, now)
        told: list[Outbound] = []  # what the moves below cause, told once they are stored
        moved = False
        for seat in turns.due_defaults(session, now):
            if seat not in turns.due_defaults(session, now):
                continue  # an earlier default has already settled it
            try:
                played = turns.play_default(session, seat, now)
            except IllegalActionError:
                continue
            moved = moved or played
            control = session.seats[seat]
            if played and control.misses >= turns.MISSES_BEFORE_STAND_IN:
                turns.take_over(session, seat)
                told.append(
                    ToRoom(
                        session.room,
                        Message(
                            tr.gettext(
                                "{name} missed {count} deadlines in a row: a bot plays for "
                                "them until they send a command."
                            ).format(name=session.names[seat], count=control.misses)
                        ),
                    )
                )
        window = session.trade_window_until
        try:
            if moved or (window is not None and window <= now):
                told += self._after_move(session, now)
            else:
                turns.save(session, self.store, now)  # a reminder sent is kept as sent
        except turns.StoreRefused:
            # Another worker stored its moves first and told of them; the game was reloaded
            # from the store, and its clocks run on. The reminders claimed here are ours.
            return out
        return out + told


def folded_answers(out: list[Outbound]) -> list[Outbound]:
    """Where lines cost: an answer to a player who gets his private message in the same go
    becomes that message's first line."""
    answers: dict[str, list[str]] = {}
    for item in out:
        if isinstance(item, Reply) and any(
            isinstance(o, ToPlayer) and o.user_id == item.to.user_id for o in out
        ):
            answers.setdefault(item.to.user_id, []).append(item.text)
    folded: list[Outbound] = []
    told: set[str] = set()
    for item in out:
        if isinstance(item, Reply) and item.to.user_id in answers:
            continue
        if isinstance(item, ToPlayer) and item.user_id in answers and item.user_id not in told:
            told.add(item.user_id)
            message = item.message
            for text in reversed(answers[item.user_id]):
                message = message.with_line(text, at=0)
            item = replace(item, message=message)
        folded.append(item)
    return folded


def _lobby_data(lobby: Lobby) -> dict[str, Any]:
    """A lobby as plain data, to be stored."""
    return {
        "room": lobby.room,
        "platform": lobby.platform,
        "creator": lobby.creator,
        "language": lobby.language,
        "turn_seconds": lobby.turn_seconds,
        "trade_window_seconds": lobby.trade_window_seconds,
        "seats": [[s.platform, s.user_id, s.name, s.kind, s.strategy] for s in lobby.seats],
    }


def _lobby_from(data: dict[str, Any]) -> Lobby:
    return Lobby(
        room=str(data["room"]),
        platform=str(data["platform"]),
        creator=str(data["creator"]),
        seats=[SeatIdentity(*seat) for seat in data["seats"]],
        language=str(data["language"]),
        turn_seconds=int(data["turn_seconds"]),
        trade_window_seconds=int(data.get("trade_window_seconds", DEFAULT_TRADE_WINDOW_SECONDS)),
    )


def _clean_name(name: str) -> str:
    """A display name safe to show in a table line."""
    printable = "".join(ch for ch in name if ch.isprintable())
    return " ".join(printable.split())[:MAX_NAME]


def _unique_names(seats: list[SeatIdentity]) -> list[SeatIdentity]:
    seen: dict[str, int] = {}
    out = []
    for seat in seats:
        name = seat.name
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            name = f"{name} ({seen[name]})"
        out.append(SeatIdentity(seat.platform, seat.user_id, name, seat.kind, seat.strategy))
    return out


__all__ = ["FINISHED", "ChatService"]
