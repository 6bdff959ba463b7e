"""How big leagues get, and what a league's name may be.

A league's board is ranked in memory among its members, so its size is bounded; a player's
leagues are bounded so that nobody collects them by the thousand. A league's name follows the
rule of a player's name (see ``server.players.names``), with room for 40 characters.
"""

from __future__ import annotations

import re

from server.players.names import visible_text_pattern

MAX_MEMBERS = 100  # the owner included
MAX_LEAGUES_PER_PLAYER = 20  # owned or joined
NAME_MIN_LENGTH, NAME_MAX_LENGTH = 2, 40
NAME_PATTERN = visible_text_pattern(NAME_MIN_LENGTH, NAME_MAX_LENGTH)
NAME_RULE = (
    f"A league's name has {NAME_MIN_LENGTH} to {NAME_MAX_LENGTH} characters, does not start or "
    "end with a space, and has no control or invisible formatting characters."
)
_NAME = re.compile(NAME_PATTERN)


def is_valid_league_name(name: str) -> bool:
    return bool(_NAME.fullmatch(name))
