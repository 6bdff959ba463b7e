"""The ratings' query parameters and the documented shapes they return."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.utils.urls import replace_query_param

from server.api.fields import QueryIntegerField
from server.api.inputs import StrictQuery
from server.boards.ranking import DEFAULT_LIMIT, MAX_LIMIT
from server.players.serializers import PlayerRef
from server.ratings.models import PROVISIONAL_DEVIATION, PROVISIONAL_MATCHES
from server.ratings.selectors import BotEntry, Cursor, Entry, RatingPage, shown

PROVISIONAL_RULE = (f"fewer than {PROVISIONAL_MATCHES} rated matches, or a deviation above "
                    f"{PROVISIONAL_DEVIATION:.0f}")

RATING_HELP = "Glicko-2 rating in whole points (a new player starts at 1500)."
DEVIATION_HELP = ("The rating's deviation (Glicko's RD) in whole points: about 95% of the "
                  "time the player's strength is within twice this of the rating.")


class RatingPageQuery(StrictQuery):
    limit = QueryIntegerField(min_value=1, max_value=MAX_LIMIT, default=DEFAULT_LIMIT,
                              help_text=f"Players per page, 1-{MAX_LIMIT}.")
    cursor = serializers.CharField(required=False, max_length=100,
                                   help_text="From a previous page's `next`.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "cursor" in attrs:
            attrs["cursor"] = Cursor.decode(attrs["cursor"])
        return attrs


class ProvisionalEntryOutput(serializers.Serializer):
    player = PlayerRef()
    rating = serializers.IntegerField(help_text=RATING_HELP)
    deviation = serializers.IntegerField(help_text=DEVIATION_HELP)
    matches = serializers.IntegerField(help_text="Rated matches played.")


class RatingEntryOutput(ProvisionalEntryOutput):
    rank = serializers.IntegerField(help_text="Competition ranking by shown rating: 1, 2, 2, 4.")


class MyRatingEntryOutput(RatingEntryOutput):
    rank = serializers.IntegerField(allow_null=True, help_text="null while provisional.")
    provisional = serializers.BooleanField()


class BotEntryOutput(ProvisionalEntryOutput):
    level = serializers.CharField(allow_null=True, help_text=(
        "The house bot's level this entry stands for (`easy`, `normal`, `hard`, `expert`); "
        "null for a bot account."))
    provisional = serializers.BooleanField(help_text=f"True with {PROVISIONAL_RULE}.")


class RatingBoardOutput(serializers.Serializer):
    results = RatingEntryOutput(many=True, help_text="Established players, best first.")
    provisional = ProvisionalEntryOutput(
        many=True, help_text=f"Players with {PROVISIONAL_RULE}, by rating; they hold no rank.")
    me = MyRatingEntryOutput(allow_null=True, help_text="Your entry; null without a token or "
                                                        "before your first rated match.")
    next = serializers.URLField(allow_null=True, help_text="The next page, if any.")
    bots = BotEntryOutput(many=True, help_text=(
        "The bots on the same scale, apart from the people and unranked: the house bot's "
        "levels and the bot accounts, the established first, each by rating (docs/RATINGS.md, "
        "\"Bots\"). On the first page only (without `cursor`); empty on the next ones."))


class PlayerRatingOutput(serializers.Serializer):
    rating = serializers.IntegerField(help_text=RATING_HELP)
    deviation = serializers.IntegerField(help_text=DEVIATION_HELP)
    matches = serializers.IntegerField(help_text="Rated matches played.")
    provisional = serializers.BooleanField(help_text=f"True with {PROVISIONAL_RULE}.")


def entry_output(entry: Entry, *, mine: bool = False) -> dict:
    output = {"player": {"id": str(entry.player_id), "name": entry.player_name},
              "rating": shown(entry.rating), "deviation": shown(entry.deviation),
              "matches": entry.matches}
    if not entry.provisional or mine:
        output = {"rank": entry.rank, **output}
    if mine:
        output["provisional"] = entry.provisional
    return output


def board_output(request: Request, page: RatingPage) -> dict[str, Any]:
    next_url = (replace_query_param(request.build_absolute_uri(), "cursor", page.next.encode())
                if page.next is not None else None)
    return {
        "results": [entry_output(entry) for entry in page.results],
        "provisional": [entry_output(entry) for entry in page.provisional],
        "me": entry_output(page.me, mine=True) if page.me is not None else None,
        "next": next_url,
        "bots": [bot_output(bot) for bot in page.bots],
    }


def bot_output(bot: BotEntry) -> dict:
    return {"player": {"id": str(bot.player_id), "name": bot.player_name}, "level": bot.level,
            "rating": shown(bot.rating), "deviation": shown(bot.deviation),
            "matches": bot.matches, "provisional": bot.provisional}
