"""The boards' API: today's daily, leaderboards (day, ISO week, all time) and player stats.

Boards and profiles are public: no token needed. A token still authenticates, and then adds
your entry (``me``), your ``standing``, ``your_game`` and ``around=me``.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from server.api.problems import InvalidRequest, NotAuthenticated
from server.api.schema import problems
from server.api.views import ApiView
from server.boards import selectors
from server.boards import serializers as s
from server.boards.games import FOURSQUARE
from server.boards.periods import BoardRef, Period
from server.boards.ranking import CURSOR_PATTERN, DEFAULT_LIMIT, MAX_LIMIT
from server.games import services as games_services
from server.games.dailies import utc_today
from server.games.engine import game_output
from server.players.models import Player
from server.players.problems import PlayerNotFound
from server.ratings import selectors as ratings_selectors
from server.ratings.services import SPITE_MALICE
from server.spitemalice import selectors as spite_malice_selectors
from server.spitemalice import services as spite_malice_services

TAG = ["leaderboards"]

PAGE_PARAMETERS = [
    OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
                     description=f"Entries per page, 1-{MAX_LIMIT} (default {DEFAULT_LIMIT})."),
    OpenApiParameter("cursor", {"type": "string", "pattern": CURSOR_PATTERN},
                     description="From the previous page's `next`."),
    OpenApiParameter("around", str, enum=["me"],
                     description="`me`: the entries just above and below you (needs a token); "
                                 "ignored with a cursor."),
]
DATE_PARAMETER = OpenApiParameter("date", OpenApiTypes.DATE,
                                  description="YYYY-MM-DD (default: today in UTC).")
PERIOD_PARAMETER = OpenApiParameter("period", str, enum=[period.value for period in Period],
                                    description="day (default), week (ISO week) or all.")
DAY_PATH_PARAMETER = OpenApiParameter("day", OpenApiTypes.DATE, OpenApiParameter.PATH,
                                      description="The daily's date, YYYY-MM-DD.")


def viewer_of(request) -> Player | None:
    return request.user if request.user.is_authenticated else None


def page_query(request, serializer_class=s.BoardQuery) -> dict:
    query = serializer_class(data=request.query_params)
    query.is_valid(raise_exception=True)
    values = dict(query.validated_data)
    if values.get("around") and viewer_of(request) is None:
        raise NotAuthenticated("around=me needs a token: whose place should it show?")
    values["around"] = "around" in values
    return values


def parse_day(text: str):
    query = s.DateQuery(data={"date": text})
    if not query.is_valid():
        raise InvalidRequest(f"date: {text!r} is not a date (YYYY-MM-DD).",
                             errors=[{"field": "date", "message": "Use YYYY-MM-DD."}])
    return query.validated_data["date"]


def board_response(request, ref: BoardRef, query: dict) -> Response:
    page = selectors.board_page(ref=ref, viewer=viewer_of(request), limit=query["limit"],
                                cursor=query.get("cursor"), around=query["around"])
    # The bot's result on Foursquare's deal is the day board's reference line; Spite &
    # Malice's bot is every player's opponent, so its board has none.
    reference = (selectors.daily_reference(ref.day)
                 if ref.period is Period.DAY and ref.game == FOURSQUARE else None)
    return Response(s.board_output(request, ref, page, reference))


def _stats(player) -> dict:
    """Foursquare's daily statistics, with the Spite & Malice section and its rating."""
    # A daily whose date closed counts as over, in either game.
    games_services.dailies_close(player=player)
    spite_malice_services.dailies_close(player=player)
    return {**selectors.player_stats(player),
            "spite_malice": {**spite_malice_selectors.player_stats(player),
                             "rating": ratings_selectors.rating_of(player, SPITE_MALICE)}}


class DailyView(ApiView):
    permission_classes = [AllowAny]
    throttle_scope = "boards"
    throttle_reads = True  # public, and each answer ranks a whole board
    query_parameters = frozenset({"date"})

    @extend_schema(
        tags=TAG, operation_id="daily_retrieve", summary="Today's daily (or another day's)",
        description="How many started it and won it, and with a token your game of it.",
        parameters=[DATE_PARAMETER],
        responses={200: s.DailyOutput, **problems(400, 401, 404, 429)},
    )
    def get(self, request):
        query = s.DateQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        day = selectors.board_ref(Period.DAY, query.validated_data.get("date") or utc_today()).day
        viewer = viewer_of(request)
        game = selectors.daily_game_of(viewer, day) if viewer else None
        players, winners = selectors.daily_summary(day=day)
        return Response(s.daily_output(day, players, winners,
                                       game_output(game) if game else None))


class DailyBoardView(ApiView):
    permission_classes = [AllowAny]
    throttle_scope = "boards"
    throttle_reads = True  # public, and each answer ranks a whole board
    query_parameters = frozenset({"limit", "cursor", "around"})

    @extend_schema(
        tags=TAG, operation_id="daily_leaderboard", summary="A daily's leaderboard",
        description=(
            "Winners only, by score (cards left) highest first, competition ranking "
            "(1, 2, 2, 4); within a tie the earlier finish is listed first. Lost and "
            "unfinished games hold no rank but count in `players`. With a token: `me` and "
            "`standing`."
        ),
        parameters=[DAY_PATH_PARAMETER, *PAGE_PARAMETERS],
        responses={200: s.BoardOutput, **problems(400, 401, 404, 429)},
    )
    def get(self, request, day: str):
        query = page_query(request, s.PageQuery)
        return board_response(request, selectors.board_ref(Period.DAY, parse_day(day)), query)


class BoardView(ApiView):
    permission_classes = [AllowAny]
    throttle_scope = "boards"
    throttle_reads = True  # public, and each answer ranks a whole board
    query_parameters = frozenset({"period", "date", "limit", "cursor", "around"})

    @extend_schema(
        tags=TAG, operation_id="leaderboard", summary="The leaderboard of a day, week or all time",
        description=(
            "Week and all-time boards rank the players with at least one win by total score, "
            "then by wins; players equal on both share a rank, the one who reached it first "
            "listed first. Same shape as a daily's board."
        ),
        parameters=[PERIOD_PARAMETER, DATE_PARAMETER, *PAGE_PARAMETERS],
        responses={200: s.BoardOutput, **problems(400, 401, 404, 429)},
    )
    def get(self, request):
        query = page_query(request)
        ref = selectors.board_ref(Period(query["period"]), query.get("date") or utc_today())
        return board_response(request, ref, query)


class MyStatsView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "boards"
    throttle_reads = True  # public, and each answer ranks a whole board

    @extend_schema(tags=TAG, operation_id="players_me_stats", summary="Your daily statistics",
                   responses={200: s.StatsOutput, **problems(401, 429)})
    def get(self, request):
        return Response(s.stats_output(request.user, _stats(request.user)))


class PlayerProfileView(ApiView):
    permission_classes = [AllowAny]
    throttle_scope = "boards"
    throttle_reads = True  # public, and each answer ranks a whole board

    @extend_schema(tags=TAG, operation_id="players_retrieve",
                   summary="A player's public profile: name and daily statistics",
                   responses={200: s.StatsOutput, **problems(401, 404, 429)})
    def get(self, request, player_id):
        player = Player.objects.filter(pk=player_id, is_active=True).first()
        if player is None:
            raise PlayerNotFound()
        return Response(s.stats_output(player, _stats(player)))
