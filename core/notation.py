"""Short text commands for actions, both ways. Numbers count from 1, as players do.

>>> parse_action("plant 2", player=0)
Plant(player=0, field=1)
>>> offer = parse_action("offer 3 f1 4 for red soy", player=0)
>>> offer.partner, offer.hand, offer.face_up, [variety.value for variety in offer.want]
(2, (3,), (0,), ['red', 'soy'])
>>> action_text(Harvest(player=1, field=0))
'harvest 1'
"""

from __future__ import annotations

from .actions import (
    AcceptTrade,
    Action,
    BuyField,
    CounterTrade,
    DeclineTrade,
    DiscardFromHand,
    DiscardOffered,
    EndStep,
    Harvest,
    Plant,
    PlantFaceUp,
    PlantOffered,
    PlantSetAside,
    ProposeTrade,
    WithdrawTrade,
)
from .cards import Variety, parse_variety


class NotationError(ValueError):
    """Text that is not a command."""


def parse_action(text: str, player: int) -> Action:
    """The action a player means by a short command."""
    words = text.strip().lower().split()
    if not words or len(words) > 40:
        raise NotationError("Type a command, e.g. 'plant 1'; 'help' lists them.")
    verb, args = words[0], words[1:]
    try:
        return _parse(verb, args, player)
    except (IndexError, ValueError) as error:
        if isinstance(error, NotationError):
            raise
        raise NotationError(f"Cannot read {text.strip()!r}; 'help' lists the commands.") from None


def _number(word: str) -> int:
    if not word.isdigit() or not 1 <= int(word) <= 999:
        raise NotationError(f"{word!r} is not a number from 1.")
    return int(word) - 1


def _exactly(args: list[str], count: int) -> list[int]:
    if len(args) != count:
        raise NotationError(f"Expected {count} number(s).")
    return [_number(a) for a in args]


def _cards(words: list[str]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    hand, face_up = [], []
    for word in words:
        if word.startswith("f"):
            face_up.append(_number(word[1:]))
        else:
            hand.append(_number(word))
    return tuple(hand), tuple(face_up)


def _terms(args: list[str]) -> tuple[tuple[int, ...], tuple[int, ...], tuple[Variety, ...]]:
    if "for" in args:
        cut = args.index("for")
        want = tuple(parse_variety(w) for w in args[cut + 1 :])
        if not want:
            raise NotationError("Name the beans you want after 'for'.")
        args = args[:cut]
    else:
        want = ()
    hand, face_up = _cards(args)
    return hand, face_up, want


def _parse(verb: str, args: list[str], player: int) -> Action:
    if verb == "plant":
        return Plant(player, *_exactly(args, 1))
    if verb == "aside":
        return PlantSetAside(player, *_exactly(args, 2))
    if verb == "faceup":
        return PlantFaceUp(player, *_exactly(args, 2))
    if verb == "offered":
        return PlantOffered(player, *_exactly(args, 2))
    if verb == "toss":
        return DiscardOffered(player, *_exactly(args, 1))
    if verb == "discard":
        return DiscardFromHand(player, *_exactly(args, 1))
    if verb == "done":
        _exactly(args, 0)
        return EndStep(player)
    if verb == "harvest":
        return Harvest(player, *_exactly(args, 1))
    if verb == "buy":
        _exactly(args, 0)
        return BuyField(player)
    if verb == "offer":
        partner = _number(args[0])
        hand, face_up, want = _terms(args[1:])
        return ProposeTrade(player, partner, hand, face_up, want)
    if verb == "counter":
        offer = _number(args[0]) + 1
        hand, face_up, want = _terms(args[1:])
        return CounterTrade(player, offer, hand, face_up, want)
    if verb == "accept":
        offer = _number(args[0]) + 1
        hand, face_up = _cards(args[1:])
        return AcceptTrade(player, offer, hand, face_up)
    if verb in ("decline", "withdraw"):
        (offer,) = _exactly(args, 1)
        cls = DeclineTrade if verb == "decline" else WithdrawTrade
        return cls(player, offer + 1)
    raise NotationError(f"Unknown command {verb!r}; 'help' lists them.")


def _card_words(hand: tuple[int, ...], face_up: tuple[int, ...]) -> list[str]:
    return [f"f{i + 1}" for i in face_up] + [str(i + 1) for i in hand]


def action_text(action: Action) -> str:
    """The short command for an action (the inverse of `parse_action`)."""
    if isinstance(action, Plant):
        return f"plant {action.field + 1}"
    if isinstance(action, PlantSetAside | PlantFaceUp | PlantOffered):
        verb = {PlantSetAside: "aside", PlantFaceUp: "faceup", PlantOffered: "offered"}[
            type(action)
        ]
        return f"{verb} {action.index + 1} {action.field + 1}"
    if isinstance(action, DiscardOffered):
        return f"toss {action.index + 1}"
    if isinstance(action, DiscardFromHand):
        return f"discard {action.position + 1}"
    if isinstance(action, EndStep):
        return "done"
    if isinstance(action, Harvest):
        return f"harvest {action.field + 1}"
    if isinstance(action, BuyField):
        return "buy"
    if isinstance(action, ProposeTrade | CounterTrade):
        head = (
            f"offer {action.partner + 1}"
            if isinstance(action, ProposeTrade)
            else f"counter {action.offer}"
        )
        words = [head, *_card_words(action.hand, action.face_up)]
        if action.want:
            words += ["for", *(v.value for v in action.want)]
        return " ".join(words)
    if isinstance(action, AcceptTrade):
        return " ".join([f"accept {action.offer}", *_card_words(action.hand, action.face_up)])
    if isinstance(action, DeclineTrade):
        return f"decline {action.offer}"
    if isinstance(action, WithdrawTrade):
        return f"withdraw {action.offer}"
    raise NotationError(f"no text form for {type(action).__name__}")
