"""The bots to play: the house bot's levels and the bot accounts online."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Max
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from server.api.schema import problems
from server.api.views import ApiView
from server.players.models import AccessToken, Player
from server.ratings import selectors as ratings
from server.spitemalice import bot_ratings
from server.spitemalice.models import LEVELS
from server.spitemalice.serializers import inputs, outputs
from server.spitemalice.shapes import bots_output
from server.spitemalice.views.common import TAG

# A bot account counts as online when it used the API this recently: its token's last use is
# written at most every 5 minutes (``LAST_USED_RESOLUTION``), and a stream it holds is opened
# again every 5 minutes, so a connected bot is always seen within 10.
ONLINE_MINUTES = 10
ONLINE_LISTED = 100
# As docs/SPITE_MALICE_BOT.md describes and measures them.
HOUSE_LEVELS = {
    "easy": "A casual player: never misses a pay-off play it sees, often misjudges the rest "
            "(45% against a greedy player).",
    "normal": "Searches the whole known part of its turn; the daily's level (82% against a "
              "greedy player).",
    "hard": "normal's search, its best endings judged again over sampled deals of the unseen "
            "cards; the hints' level (87% against a greedy player).",
    "expert": "hard's way, judging twice as many endings in four times as many sampled "
              "deals; tens of milliseconds a turn, played in the background.",
}


class BotsView(ApiView):
    permission_classes = [AllowAny]
    throttle_scope = "boards"
    throttle_reads = True
    query_parameters = frozenset({"limit"})

    @extend_schema(
        tags=TAG, operation_id="spite_malice_bots",
        summary="The bots to play: the house bot's levels, and the bot accounts online",
        description=(
            "`house`: the house bot's levels (`POST /matches {\"opponent\": \"bot\", "
            "\"level\"}`). `online`: the bot accounts (`PATCH /players/me {\"bot\": "
            f"true}}`) that used the API in the last {ONLINE_MINUTES} minutes, the most "
            "recently seen first, at most `limit` (default and most: "
            f"{ONLINE_LISTED}), each with its rating (or null); every bot's rating is on the "
            "people's scale, from its matches against established people and other bots "
            "(the ratings board's `bots`); "
            "challenge one by its id (`invitee`), as its `challenges` setting allows."),
        parameters=[inputs.BotsQuery],
        responses={200: outputs.BotsOutput, **problems(400, 401, 429)},
    )
    def get(self, request):
        query = inputs.BotsQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        since = timezone.now() - timedelta(minutes=ONLINE_MINUTES)
        seen = list(AccessToken.objects
                    .filter(player__bot=True, player__is_active=True, last_used_at__gte=since)
                    .values("player_id").annotate(seen_at=Max("last_used_at"))
                    .order_by("-seen_at", "player_id")[:query.validated_data["limit"]])
        players = Player.objects.in_bulk([row["player_id"] for row in seen])
        house = bot_ratings.house_levels()
        # Bots are rated on their own board, beside the people's (docs/RATINGS.md, "Bots").
        rated = ratings.ratings_of([*players, *house], bot_ratings.BOTS_GAME)
        house_rated = {level: rated.get(player_id) for player_id, level in house.items()}
        return Response(bots_output(LEVELS, HOUSE_LEVELS, seen, players, rated, house_rated,
                                    ONLINE_MINUTES))
