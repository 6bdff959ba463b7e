"""The one place the server asks the house bot (``spitemalice.bot``) for its actions.

``bot_actions(view, unseen, level, seed)`` returns the actions the bot plays now from its
seat's view and the cards it has not seen (never a ``Game``: it cannot see hidden cards),
stopping where a card from the stock comes into play; the caller plays them and asks again
while it is still the bot's turn.
"""

from __future__ import annotations

from collections.abc import Mapping

from spitemalice import Action, PlayerView
from spitemalice.bot import bot_turn


def bot_actions(view: PlayerView, unseen: Mapping[str, int], level: str,
                seed: bytes) -> list[Action]:
    return bot_turn(view, unseen, level, seed)
