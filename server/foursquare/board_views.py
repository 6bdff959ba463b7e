"""Foursquare's daily and its leaderboards (day, ISO week, all time), on the shared boards.

Public: no token needed. A token still authenticates, and then adds your entry (``me``), your
``standing``, ``your_game`` and ``around=me``.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from server.api.schema import problems
from server.api.views import ApiView
from server.boards import selectors
from server.boards import serializers as s
from server.boards.periods import Period
from server.boards.views import (
    DATE_PARAMETER,
    DAY_PATH_PARAMETER,
    PAGE_PARAMETERS,
    PERIOD_PARAMETER,
    TAG,
    board_response,
    page_query,
    parse_day,
    viewer_of,
)
from server.dailies.calendar import utc_today
from server.foursquare.engine import game_output
from server.foursquare.selectors import daily_game_of
from server.foursquare.serializers import DailyOutput, daily_output


class DailyView(ApiView):
    permission_classes = [AllowAny]
    throttle_scope = "boards"
    throttle_reads = True  # public, and each answer ranks a whole board
    query_parameters = frozenset({"date"})

    @extend_schema(
        tags=TAG, operation_id="daily_retrieve", summary="Today's daily (or another day's)",
        description="How many started it and won it, and with a token your game of it.",
        parameters=[DATE_PARAMETER],
        responses={200: DailyOutput, **problems(400, 401, 404, 429)},
    )
    def get(self, request):
        query = s.DateQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        day = selectors.board_ref(Period.DAY, query.validated_data.get("date") or utc_today()).day
        viewer = viewer_of(request)
        game = daily_game_of(viewer, day) if viewer else None
        players, winners = selectors.daily_summary(day=day)
        return Response(daily_output(day, players, winners,
                                       game_output(game) if game else None))


class DailyBoardView(ApiView):
    permission_classes = [AllowAny]
    throttle_scope = "boards"
    reads_replica = True  # may lag a little: the replica serves it when there is one
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
    reads_replica = True  # may lag a little: the replica serves it when there is one
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


