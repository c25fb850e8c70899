"""Button labels that fit the platform: a label too long for a button is never cut; the
button gets a short label and the message above the buttons says the whole of it."""

from __future__ import annotations

from .i18n import Translator
from .messages import Button, Message


def fitted_labels(tr: Translator, message: Message, max_label: int) -> Message:
    """The message with every button label at most `max_label` characters: a longer one is
    replaced by the button's own short label ('End trading, plant (see above)') and said
    whole as a line of the text, or, without a short label that fits and is unlike the
    others, by a numbered mark ('(1) see above') and the same mark before the whole label."""
    labels = {button.label for row in message.buttons for button in row}
    if all(len(label) <= max_label for label in labels):
        return message
    lines: list[str] = []
    rows: list[tuple[Button, ...]] = []
    marks = 0
    for row in message.buttons:
        fitted: list[Button] = []
        for button in row:
            label = button.label
            if len(label) <= max_label:
                fitted.append(button)
                continue
            short = button.short
            if short and len(short) <= max_label and short not in labels:
                lines.append(label)
            else:
                marks += 1
                lines.append(tr.gettext("({mark}) {label}").format(mark=marks, label=label))
                short = tr.gettext("({mark}) see above").format(mark=marks)
            labels.add(short)
            fitted.append(Button(short, button.payload))
        rows.append(tuple(fitted))
    return message.with_lines(lines).with_buttons(tuple(rows))
