"""How big leagues get, and what a league's name may be.

A league's board is ranked in memory among its members, so its size is bounded; a player's
leagues are bounded so that nobody collects them by the thousand. A league's name follows the
rule of a player's name (the PRECIS Nickname profile, see ``server.players.names``), with
room for 40 characters; two leagues may share a name.
"""

from __future__ import annotations

from server.players import names

MAX_MEMBERS = 100  # the owner included
MAX_LEAGUES_PER_PLAYER = 20  # owned or joined
NAME_MIN_LENGTH, NAME_MAX_LENGTH = 2, 40
NAME_SUBJECT = "A league's name"
NAME_RULE = names.name_rule(NAME_SUBJECT, NAME_MIN_LENGTH, NAME_MAX_LENGTH)


def clean_league_name(raw: object) -> str:
    """The league's name as the Nickname profile enforces it; raises ``names.InvalidName``
    saying why it is not one."""
    return names.clean_text(raw, subject=NAME_SUBJECT, min_length=NAME_MIN_LENGTH,
                            max_length=NAME_MAX_LENGTH)
