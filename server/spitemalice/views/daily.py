"""The Spite & Malice daily: the day's summary with your match of it, and its leaderboard."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from server.api.schema import problems
from server.api.views import ApiView
from server.boards import selectors as board_selectors
from server.boards.periods import Period
from server.boards.serializers import BoardOutput, DateQuery, PageQuery
from server.boards.views import (
    DAY_PATH_PARAMETER,
    PAGE_PARAMETERS,
    board_response,
    page_query,
    parse_day,
    viewer_of,
)
from server.dailies.calendar import daily_number, utc_today
from server.spitemalice import selectors
from server.spitemalice.boards import GAME
from server.spitemalice.serializers import outputs
from server.spitemalice.shapes import daily_output
from server.spitemalice.views.common import TAG


class DailyView(ApiView):
    permission_classes = [AllowAny]
    throttle_scope = "boards"
    throttle_reads = True
    query_parameters = frozenset({"date"})

    @extend_schema(
        tags=TAG, operation_id="spite_malice_daily_retrieve",
        summary="Today's Spite & Malice daily (or another day's)",
        description="How many started it and won it, and with a token your match of it.",
        parameters=[OpenApiParameter("date", OpenApiTypes.DATE,
                                     description="YYYY-MM-DD (default: today in UTC).")],
        responses={200: outputs.SpiteMaliceDailyOutput, **problems(400, 401, 404, 429)},
    )
    def get(self, request):
        query = DateQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        day = board_selectors.board_ref(
            Period.DAY, query.validated_data.get("date") or utc_today(), GAME).day
        viewer = viewer_of(request)
        match = selectors.daily_match_of(viewer, day) if viewer else None
        players, winners = board_selectors.daily_summary(day=day, game=GAME)
        return Response(daily_output(day, daily_number(day), players, winners, match))


class DailyBoardView(ApiView):
    permission_classes = [AllowAny]
    throttle_scope = "boards"
    reads_replica = True  # may lag a little: the replica serves it when there is one
    throttle_reads = True
    query_parameters = frozenset({"limit", "cursor", "around"})

    @extend_schema(
        tags=TAG, operation_id="spite_malice_daily_leaderboard",
        summary="A Spite & Malice daily's leaderboard",
        description=(
            "Winners only, by points (the bot's pay-off cards left when you won) highest "
            "first, competition ranking (1, 2, 2, 4); within a tie the earlier finish is "
            "listed first. Lost, tied, resigned and unfinished dailies hold no rank but "
            "count in `players`. The bot's own result is never ranked. Same shape as "
            "Foursquare's daily board."
        ),
        parameters=[DAY_PATH_PARAMETER, *PAGE_PARAMETERS],
        responses={200: BoardOutput, **problems(400, 401, 404, 429)},
    )
    def get(self, request, day: str):
        query = page_query(request, PageQuery)
        ref = board_selectors.board_ref(Period.DAY, parse_day(day), GAME)
        return board_response(request, ref, query)
