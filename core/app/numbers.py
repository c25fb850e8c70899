"""Stable numbers where choices are numbered lines (no buttons, or the terminal): what a typed
number answers.

Within one decision of a seat (a step of a turn, all of a trading step; a question he was asked
and an offer he is building are decisions of their own) a number names one choice, by what it
does (its `key`), and is never given to another: choices that appear later take the next free
numbers, a choice that is gone leaves its number unused. A new decision numbers from 1 again.

Beside each decision's numbering a seat keeps, for every number, what the lists sent to him
since his own last input showed it as (their decision, and what the choice did: its label and
command), as he may be reading any of them. A view healed is one more list sent; only the answer
to his own input replaces them. A typed number is taken when, in the decision as it stands, it
names a choice still there that does what each of those lists said; else `verdict` says what
became of it. Pure: the session keeps a seat's `SeatNumbers` in its chat state.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from ..cards import Variety
from .messages import Button
from .picker import SEND, Draft, parse_draft
from .seat_screen import PICK, Screen

CHAIN = ";"
"""Separates the commands of a button that takes several steps at once (`screens.CHAIN`)."""
LABEL_KEPT = 80
"""The characters of a label kept to say which choice a number was."""
READINGS_KEPT = 4
"""How many different meanings of one number are kept for the lists a player may be reading;
beyond, the number is taken for none of them."""


@dataclass(frozen=True)
class Choice:
    """One choice of a screen: what it is (`key`), what it does as shown (`does`: a digest of
    its label and command) and its button."""

    key: str
    does: str
    button: Button


@dataclass
class Numbering:
    """One decision's numbers, from `first`: number n names `keys[n - first]`, last shown as
    `labels[n - first]`, doing `does[n - first]`."""

    keys: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    does: list[str] = field(default_factory=list)
    first: int = 1

    def index(self, number: int) -> int | None:
        """Where `number` is in the lists (None: the decision has no such number)."""
        index = number - self.first
        return index if 0 <= index < len(self.keys) else None


@dataclass
class SeatNumbers:
    """What the numbers of one seat mean, and what the lists he may be reading showed."""

    decisions: dict[str, Numbering] = field(default_factory=dict)
    """The numbering of each decision of his current step (by `decision`)."""
    reading: dict[int, list[tuple[str, str]]] = field(default_factory=dict)
    """By number: (decision, does) as each list sent since his own last input showed it."""

    def data(self) -> dict[str, object]:
        """As plain data, for the chat state."""
        return {
            "decisions": {
                decision: {
                    "first": n.first,
                    "choices": [list(item) for item in zip(n.keys, n.labels, n.does, strict=True)],
                }
                for decision, n in self.decisions.items()
            },
            "reading": {
                str(number): [list(seen) for seen in r] for number, r in self.reading.items()
            },
        }


def seat_numbers(value: object) -> SeatNumbers | None:
    """A seat's numbers as kept in the chat state (None: not known, as in chat states written
    before they were kept; anything malformed is not known either)."""
    if not isinstance(value, dict):
        return None
    decisions, reading = value.get("decisions"), value.get("reading")
    if not isinstance(decisions, dict) or not isinstance(reading, dict):
        return None
    out = SeatNumbers()
    for decision, numbering in decisions.items():
        if not isinstance(numbering, dict):
            return None
        first, items = numbering.get("first"), numbering.get("choices")
        if not isinstance(first, int) or first < 1 or not isinstance(items, list):
            return None
        if not all(_texts(item, 3) for item in items):
            return None
        out.decisions[str(decision)] = Numbering(
            [item[0] for item in items],
            [item[1] for item in items],
            [item[2] for item in items],
            first,
        )
    for number, seen in reading.items():
        if not str(number).isascii() or not str(number).isdigit() or not isinstance(seen, list):
            return None
        if not all(_texts(item, 2) for item in seen):
            return None
        out.reading[int(number)] = [(item[0], item[1]) for item in seen]
    return out


def _texts(item: object, length: int) -> bool:
    return isinstance(item, list) and len(item) == length and all(isinstance(i, str) for i in item)


# --- decisions and keys --------------------------------------------------------------------


def decision_of(turn: int, step: str, screen: Screen | None) -> str:
    """The decision a seat's list belongs to: the step of the turn, or a question asked in it
    (`ask harvest 2`), or an offer being built in it, to one target (`pick s2`)."""
    moment = f"{turn} {step}"
    if screen is None:
        return moment
    if screen.picks:
        return f"{moment} {PICK} {screen.rest.split(' ', 1)[0]}"
    return f"{moment} {screen.text}"


def step_of(decision: str) -> tuple[str, str]:
    """The turn and the step of a decision."""
    turn, _, rest = decision.partition(" ")
    return turn, rest.split(" ", 1)[0]


@dataclass(frozen=True)
class Cards:
    """What a seat's commands point into by position, so that a choice is known by the cards
    it moves rather than by their places: his hand (front first), his set-aside cards, the
    face-up cards, the cards on offer (the duel), and the variety each of his fields grows."""

    hand: tuple[Variety, ...] = ()
    aside: tuple[Variety, ...] = ()
    faceup: tuple[Variety, ...] = ()
    offered: tuple[Variety, ...] = ()
    fields: tuple[Variety | None, ...] = ()


def choice_key(command: str, cards: Cards, draft: Draft | None) -> str:
    """What a button's command does, as the same choice in later lists: its command with each
    card named by its variety (planting a Green Bean in field 1 is not planting a Coffee Bean
    there; selling field 2 is selling what it grows); ending the step (with the planting that
    follows, along a plan that changes as the cards do) is one choice, and so is planting
    everything; in the picker (`draft`: the offer being built) a tick is the card or bean it
    toggles."""
    if draft is not None:
        verb, _, words = command.partition(" ")
        if verb == PICK:
            return _tick(draft, words) or command
        if verb == SEND:
            return SEND
        return command
    steps = command.removeprefix("ask ").split(CHAIN)
    if steps[0] == "done":
        return "done"  # with the planting that follows it or without, ending the step
    if sum(step.startswith("aside ") for step in steps) > 1:
        return "plant all"
    return CHAIN.join(_card_key(step, cards) for step in steps)


def _card_key(step: str, cards: Cards) -> str:
    """One command with the card it names by its place named by its variety."""
    words = step.split()
    verb = words[0] if words else ""
    if verb == "plant" and len(words) == 2:
        return f"plant {_name(cards.hand[0] if cards.hand else None)} {words[1]}"
    held: tuple[Variety | None, ...] = ()
    if verb in ("aside", "faceup", "offered") and len(words) == 3:
        held = {"aside": cards.aside, "faceup": cards.faceup, "offered": cards.offered}[verb]
    elif verb in ("toss", "discard", "harvest") and len(words) == 2:
        held = {"toss": cards.offered, "discard": cards.hand, "harvest": cards.fields}[verb]
    place = (
        int(words[1]) - 1 if len(words) > 1 and words[1].isascii() and words[1].isdigit() else -1
    )
    if not 0 <= place < len(held):
        return step
    return " ".join([verb, _name(held[place]), *words[2:]])


def _name(variety: Variety | None) -> str:
    return "-" if variety is None else variety.value


def _tick(draft: Draft, words: str) -> str | None:
    """The card or bean a picker button toggles in the draft shown."""
    try:
        after = parse_draft(words.split())
    except (ValueError, KeyError):
        return None
    hand, faceup = after.hand ^ draft.hand, after.face_up ^ draft.face_up
    if len(hand) == 1 and not faceup and after.want == draft.want:
        return f"tick hand {next(iter(hand))}"
    if len(faceup) == 1 and not hand and after.want == draft.want:
        return f"tick faceup {next(iter(faceup))}"
    changed = set(after.want) ^ set(draft.want) or {
        v for v in set(after.want) if after.want.count(v) != draft.want.count(v)
    }
    if len(changed) == 1 and not hand and not faceup:
        return f"want {next(iter(changed)).value}"
    return None


def choice_digest(label: str, command: str) -> str:
    """A short digest of what a choice does as shown: its label and its command."""
    text = f"{label}\x1f{command}"
    return hashlib.blake2s(text.encode(), digest_size=4).hexdigest()


def keyed_choices(buttons: Sequence[Button], cards: Cards, draft: Draft | None) -> list[Choice]:
    """A screen's buttons as choices, each with a key of its own."""
    out: list[Choice] = []
    taken: set[str] = set()
    for button in buttons:
        command = command_of(button.payload)
        key = base = choice_key(command, cards, draft)
        again = 1
        while key in taken:  # two buttons that do the same stay two choices
            again += 1
            key = f"{base}\x1f{again}"
        taken.add(key)
        out.append(Choice(key, choice_digest(button.label, command), button))
    return out


def command_of(payload: str) -> str:
    """A game button's command: its payload without the game and the moment."""
    words = payload.split(maxsplit=3)
    return words[3] if len(words) == 4 and words[0] == "g" else payload


# --- numbering and what was sent -------------------------------------------------------------


def numbered(
    numbers: SeatNumbers | None, decision: str, choices: Sequence[Choice], answer: bool = False
) -> tuple[list[int], Numbering]:
    """The number of each choice in the decision (new ones take the next free numbers), and
    the decision's numbering with them as they are shown now. A decision numbers from 1,
    but when it is first shown while its player may still be reading a list of another (not
    in `answer` to his own input), after the numbers of that list: no number he may type
    means two things."""
    kept = numbers.decisions.get(decision) if numbers is not None else None
    if kept is not None:
        numbering = Numbering(list(kept.keys), list(kept.labels), list(kept.does), kept.first)
    elif answer:
        numbering = Numbering()
    else:
        others = (
            number
            for number, seen in (numbers.reading.items() if numbers is not None else ())
            if any(d != decision for d, _ in seen)
        )
        numbering = Numbering(first=max(others, default=0) + 1)
    index = {key: i for i, key in enumerate(numbering.keys)}
    out: list[int] = []
    for choice in choices:
        i = index.get(choice.key)
        if i is None:
            i = index[choice.key] = len(numbering.keys)
            numbering.keys.append(choice.key)
            numbering.labels.append("")
            numbering.does.append("")
        numbering.labels[i] = choice.button.label[:LABEL_KEPT]
        numbering.does[i] = choice.does
        out.append(numbering.first + i)
    return out, numbering


def sent(
    numbers: SeatNumbers | None,
    decision: str,
    numbering: Numbering,
    shown: Sequence[tuple[int, Choice]],
    answer: bool,
) -> SeatNumbers:
    """A seat's numbers once a list of the decision was sent to him, its choices numbered as
    `shown`. `answer`: it answers his own input, and is what he reads from now on; else he may
    be reading it or any list sent since his own last input."""
    step = step_of(decision)
    decisions = {
        d: n for d, n in (numbers.decisions.items() if numbers else ()) if step_of(d) == step
    }
    decisions[decision] = numbering
    reading: dict[int, list[tuple[str, str]]] = {}
    if not answer and numbers is not None:
        reading = {number: list(seen) for number, seen in numbers.reading.items()}
    for number, choice in shown:
        seen = reading.setdefault(number, [])
        meant = (decision, choice.does)
        if meant in seen:
            continue
        if len(seen) < READINGS_KEPT:
            seen.append(meant)
        else:
            seen[:] = [("", "")]  # too many meanings: the number is taken for none
    return SeatNumbers(decisions, reading)


# --- a typed number --------------------------------------------------------------------------

Outcome = Literal["take", "gone", "changed", "earlier", "unknown", "none"]


@dataclass(frozen=True)
class Verdict:
    """What a typed number answers: the choice to `take`, or why none is taken: it is `gone`,
    `changed` since it was shown, from an `earlier` decision, or not known (`unknown`: the
    list he answers is not known; `none`: no list of this decision had it)."""

    outcome: Outcome
    number: int
    choice: Choice | None = None
    label: str = ""
    """What the number was shown as (a choice gone)."""
    key: str = ""
    """The key of the choice the number named."""
    earlier: str = ""
    """The decision the number was from (`earlier`)."""


def verdict(
    numbers: SeatNumbers | None, decision: str, choices: Sequence[Choice], number: int
) -> Verdict:
    """What `number` answers in `decision`, whose choices are now `choices`."""
    if numbers is None:
        return Verdict("unknown", number)
    seen = numbers.reading.get(number, [])
    other = next((d for d, _ in seen if d != decision), None)
    if other is not None:
        return Verdict("earlier", number, earlier=other)
    numbering = numbers.decisions.get(decision)
    if numbering is None:
        return Verdict("unknown", number)
    index = numbering.index(number)
    if index is None:
        return Verdict("none", number)
    key = numbering.keys[index]
    current = next((c for c in choices if c.key == key), None)
    if current is None:
        return Verdict("gone", number, label=numbering.labels[index], key=key)
    said = {does for _, does in seen} or {numbering.does[index]}
    if said != {current.does}:
        return Verdict("changed", number, current, key=key)
    return Verdict("take", number, current, key=key)
