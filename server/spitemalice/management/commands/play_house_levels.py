"""manage.py play_house_levels --hours N: the house bot's levels' games of the N hours before
this one, played and rated now: a new installation's levels placed against one another at
once rather than over days (docs/RATINGS.md, "Bots")."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from server.ratings.models import Rating
from server.ratings.selectors import shown
from server.spitemalice import bot_ratings
from server.spitemalice.bot_ratings import BOTS_GAME, LEVELS_SECONDS, house_player
from spitemalice.bot import LEVELS


class Command(BaseCommand):
    help = ("Play and rate the house bot's levels' hourly games of the given number of hours "
            "before this one (each pair of neighbouring levels, one game an hour; an hour "
            "already rated is skipped), then print the levels' ratings.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hours", type=int, default=24,
                            help="how many past hours' games (default 24: about a minute of "
                                 "one core for the expert's games)")

    def handle(self, *args: Any, **options: Any) -> None:
        hours = options["hours"]
        if hours < 1:
            raise ValueError("--hours is at least 1")
        now = int(timezone.now().timestamp() // LEVELS_SECONDS)
        rated = 0
        for hour in range(now - hours, now):  # oldest first, as the hourly job would have
            for higher, lower in bot_ratings.NEIGHBOURS:
                rated += bot_ratings.levels_game_rate(higher, lower, hour) is not None
        self.stdout.write(f"rated {rated} games between the house bot's levels")
        for level in LEVELS:
            row = Rating.objects.filter(game=BOTS_GAME, player=house_player(level)).first()
            if row is not None:
                self.stdout.write(f"{level:>7}: {shown(row.rating)} ± {shown(row.deviation)} "
                                  f"after {row.matches} games"
                                  + (" (provisional)" if row.provisional else ""))
