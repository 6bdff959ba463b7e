"""The boards' shared API pieces (page parameters, a board's answer) and a player's statistics,
each registered game's section in it. Each game serves its own boards' routes with these.

Boards and profiles are public: no token needed. A token still authenticates, and then adds
your entry (``me``), your ``standing``, ``your_game`` and ``around=me``.
"""

from __future__ import annotations

from datetime import date
from typing import Any
from uuid import UUID

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from server.api.problems import InvalidRequest, NotAuthenticated
from server.api.schema import problems
from server.api.views import ApiView
from server.boards import selectors
from server.boards import serializers as s
from server.boards.games import board_game
from server.boards.periods import BoardRef, Period
from server.boards.ranking import CURSOR_PATTERN, DEFAULT_LIMIT, MAX_LIMIT
from server.core.queries import one_or_none
from server.players.models import Player
from server.players.problems import PlayerNotFound
from server.players.tokens import authenticated_player

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


def viewer_of(request: Request) -> Player | None:
    return request.user if request.user.is_authenticated else None


def page_query(request: Request, serializer_class: type[s.PageQuery] = s.BoardQuery
               ) -> dict[str, Any]:
    query = serializer_class(data=request.query_params)
    query.is_valid(raise_exception=True)
    values = dict(query.validated_data)
    if values.get("around") and viewer_of(request) is None:
        raise NotAuthenticated("around=me needs a token: whose place should it show?")
    values["around"] = "around" in values
    return values


def parse_day(text: str) -> date:
    query = s.DateQuery(data={"date": text})
    if not query.is_valid():
        raise InvalidRequest(f"date: {text!r} is not a date (YYYY-MM-DD).",
                             errors=[{"field": "date", "message": "Use YYYY-MM-DD."}])
    return query.validated_data["date"]


def board_response(request: Request, ref: BoardRef, query: dict[str, Any]) -> Response:
    page = selectors.board_page(ref=ref, viewer=viewer_of(request), limit=query["limit"],
                                cursor=query.get("cursor"), around=query["around"])
    # A game may give its day boards a reference line (Foursquare: the bot's result on the
    # deal; Spite & Malice's bot is every player's opponent, so its board has none).
    line = board_game(ref.game).reference
    reference = line(ref.day) if line is not None and ref.period is Period.DAY else None
    return Response(s.board_output(request, ref, page, reference))


class MyStatsView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "boards"
    reads_replica = True  # may lag a little: the replica serves it when there is one
    throttle_reads = True  # public, and each answer ranks a whole board

    @extend_schema(tags=TAG, operation_id="players_me_stats", summary="Your daily statistics",
                   responses={200: s.stats_serializer(), **problems(401, 429)})
    def get(self, request: Request) -> Response:
        return Response(s.stats_output(authenticated_player(request)))


class PlayerProfileView(ApiView):
    permission_classes = [AllowAny]
    throttle_scope = "boards"
    reads_replica = True  # may lag a little: the replica serves it when there is one
    throttle_reads = True  # public, and each answer ranks a whole board

    @extend_schema(tags=TAG, operation_id="players_retrieve",
                   summary="A player's public profile: name and daily statistics",
                   responses={200: s.stats_serializer(), **problems(401, 404, 429)})
    def get(self, request: Request, player_id: UUID) -> Response:
        player = one_or_none(Player.objects.filter(pk=player_id, is_active=True))
        if player is None:
            raise PlayerNotFound()
        return Response(s.stats_output(player))
