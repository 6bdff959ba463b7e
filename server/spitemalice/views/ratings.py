"""The Spite & Malice ratings board."""

from __future__ import annotations

from collections.abc import Mapping
from uuid import UUID

from drf_spectacular.utils import extend_schema

from server.api.schema import problems
from server.ratings import serializers as rating_serializers
from server.ratings.views import PAGE_PARAMETERS as RATING_PAGE_PARAMETERS
from server.ratings.views import RatingBoardView
from server.spitemalice import bot_ratings, rating_rules


class SpiteMaliceRatingsView(RatingBoardView):
    game = rating_rules.GAME
    bots_game = bot_ratings.BOTS_GAME

    def bot_levels(self) -> Mapping[UUID, str]:
        return bot_ratings.house_levels()

    @extend_schema(
        tags=["spite-malice"], operation_id="spite_malice_ratings",
        summary="Spite & Malice ratings: Glicko-2 over matches between people",
        description=(
            "Finished rated matches between two people rate both players (a resignation or "
            "a timeout is a loss, a tied single game a draw); matches against the bot, "
            "dailies, casual and aborted matches never do (docs/RATINGS.md). `results`: "
            "established players by rating, highest first, with ranks; `provisional`: "
            f"players with {rating_serializers.PROVISIONAL_RULE}, apart and unranked. A page "
            "holds up to `limit` players, the established ones first; `next` continues. With "
            "a token, `me` is your entry wherever it is. `bots`, beside the first page: the "
            "house bot's levels and the bot accounts on the same scale, rated against people "
            "(whose ratings those matches never move) and against one another."
        ),
        parameters=RATING_PAGE_PARAMETERS,
        responses={200: rating_serializers.RatingBoardOutput, **problems(400, 401, 429)},
    )
    def get(self, request):
        return super().get(request)
