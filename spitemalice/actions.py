"""Actions: the record notation ``[source, target]`` and a readable text form, both ways.

- source: ``"P"`` (the mover's pay-off top), ``"S0"``…``"S3"`` (the top of one of their side
  stacks) or a card code such as ``"7H"`` (a card from their hand);
- target: ``"C0"``…``"C2"`` (a centre stack) or ``"S0"``…``"S3"`` (a discard onto one of their
  side stacks).

``Action`` is a named pair of strings, so it equals, hashes and sorts like the tuple
``("7H", "S3")`` and serialises to JSON as the list ``["7H", "S3"]``. Its readable form,
``str(action)``, is ``"7H>S3"`` (source, ``>``, target), parsed back by ``Action.from_text``.

Every one of the 57 × 7 possible actions exists once, built here; the game hands these shared
instances out and looks them up, never builds new ones in its hot paths.
"""

from __future__ import annotations

import json
from typing import NamedTuple

from spitemalice.cards import CENTRE_NAMES, SIDE_NAMES, SOURCES
from spitemalice.errors import ParseError

TARGETS: tuple[str, ...] = CENTRE_NAMES + SIDE_NAMES
TARGET_ID: dict[str, int] = {target: index for index, target in enumerate(TARGETS)}
TEXT_SEPARATOR = ">"


class Action(NamedTuple):
    """One action, ``Action("P", "C0")``: move the card at ``source`` onto ``target``."""

    source: str
    target: str

    @classmethod
    def parse(cls, value: object) -> Action:
        """The action written in record notation (``["S2", "C1"]``); ``ParseError`` otherwise.

        Exactly a list (or tuple) of two strings, upper case, as SPITE_MALICE.md writes them.
        """
        action = ACTION_OF.get(value) if type(value) is tuple or type(value) is Action else None
        if action is None and type(value) is list and len(value) == 2:
            action = ACTION_OF.get((value[0], value[1])) if all(
                isinstance(part, str) for part in value) else None
        if action is None:
            raise ParseError(f"invalid action {_quoted(value)}: expected [source, target] with "
                             "source P, S0-S3 or a card code and target C0-C2 or S0-S3")
        return action

    @classmethod
    def from_text(cls, text: str) -> Action:
        """The action in its readable form (``"S2>C1"``); ``ParseError`` otherwise."""
        parts = text.split(TEXT_SEPARATOR) if isinstance(text, str) else []
        action = ACTION_OF.get((parts[0], parts[1])) if len(parts) == 2 else None
        if action is None:
            raise ParseError(f"invalid action {text!r}: expected source>target, e.g. 'P>C0' "
                             "or '7H>S3'")
        return action

    def __str__(self) -> str:
        return f"{self.source}{TEXT_SEPARATOR}{self.target}"

    def to_json(self) -> list[str]:
        return [self.source, self.target]

    @property
    def is_discard(self) -> bool:
        return self.target in SIDE_NAMES


def _quoted(value: object) -> str:
    """``value`` as JSON when it is JSON (as in records), else as Python writes it."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


# ACTIONS[source id][target id]: the shared instances (sources indexed as in cards.SOURCES).
ACTIONS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action(source, target) for target in TARGETS) for source in SOURCES
)
# (source, target) -> Action, for parsing: plain tuples and Actions hash alike.
ACTION_OF: dict[tuple[str, str], Action] = {
    (action.source, action.target): action for row in ACTIONS for action in row
}
# Action -> (source id, target id): what play() looks up.
ACTION_CODE: dict[tuple[str, str], tuple[int, int]] = {
    ACTIONS[s][t]: (s, t) for s in range(len(SOURCES)) for t in range(len(TARGETS))
}
