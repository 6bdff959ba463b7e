"""Bot accounts: a player marks their account as played by a program through the API
(``Player.bot``), for good. Each game says, through what it registers here, whether the
player's record allows it (a game between people that finished, or one being played, does
not: a person's results stay a person's) and updates its own records of the player when the
mark is set; this app knows no game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction

from server.players.models import Player
from server.players.problems import BotNotAllowed, BotPermanent


@dataclass(frozen=True)
class BotRules:
    """A game's part: ``refusal(player)`` says why the player may not become a bot (None if
    they may); ``marked(player)`` updates the game's records once they are one."""

    refusal: Callable[[Player], str | None]
    marked: Callable[[Player], None]


_games: list[BotRules] = []


def register(rules: BotRules) -> None:
    if rules not in _games:
        _games.append(rules)


@transaction.atomic
def player_bot_set(*, player: Player, bot: bool) -> Player:
    """Mark ``player`` a bot account (``bot`` True), under their row's lock; False is refused
    once they are one (409 ``bot_permanent``), and is otherwise what they are already."""
    locked = Player.objects.select_for_update().get(pk=player.pk)
    if not bot:
        if locked.bot:
            raise BotPermanent("A bot account stays one: create a new account to play as a "
                               "person.")
        return locked
    if locked.bot:
        return locked
    for rules in _games:
        if (why := rules.refusal(locked)) is not None:
            raise BotNotAllowed(why)
    locked.bot = True
    locked.save(update_fields=["bot"])
    for rules in _games:
        rules.marked(locked)
    return locked
