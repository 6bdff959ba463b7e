"""The ratings' API: a game's rating board. Public: a token only adds your entry (``me``)."""

from __future__ import annotations

from collections.abc import Mapping
from uuid import UUID

from drf_spectacular.utils import OpenApiParameter
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from server.api.views import ApiView
from server.boards.ranking import DEFAULT_LIMIT, MAX_LIMIT
from server.ratings import selectors
from server.ratings import serializers as s
from server.ratings.selectors import CURSOR_PATTERN

PAGE_PARAMETERS = [
    OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
                     description=f"Players per page, 1-{MAX_LIMIT} (default {DEFAULT_LIMIT})."),
    OpenApiParameter("cursor", {"type": "string", "pattern": CURSOR_PATTERN},
                     description="From the previous page's `next`."),
]


class RatingBoardView(ApiView):
    """The board of one game's ratings (``game``: its key in the ratings app), and beside its
    first page the game's bots (``bots_game``: their board's key, if the game rates bots)."""

    game = ""
    bots_game = ""
    permission_classes = [AllowAny]
    throttle_scope = "boards"
    reads_replica = True  # may lag a little: the replica serves it when there is one
    throttle_reads = True  # public, and each answer ranks a whole board
    query_parameters = frozenset({"limit", "cursor"})

    def get(self, request: Request) -> Response:
        query = s.RatingPageQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        viewer = request.user if request.user.is_authenticated else None
        page = selectors.board_page(game=self.game, viewer=viewer,
                                    limit=query.validated_data["limit"],
                                    cursor=query.validated_data.get("cursor"))
        if self.bots_game and "cursor" not in query.validated_data:
            page.bots = selectors.bots_listed(self.bots_game, self.bot_levels())
        return Response(s.board_output(request, page))

    def bot_levels(self) -> Mapping[UUID, str]:
        """``{player id: level}`` of the players who stand for the game's house bot's levels."""
        return {}
