"""The ratings' API: a game's rating board. Public: a token only adds your entry (``me``)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from server.api.schema import problems
from server.api.views import ApiView
from server.boards.ranking import DEFAULT_LIMIT, MAX_LIMIT
from server.ratings import selectors
from server.ratings import serializers as s
from server.ratings.selectors import CURSOR_PATTERN
from server.ratings.services import SPITE_MALICE

PAGE_PARAMETERS = [
    OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
                     description=f"Players per page, 1-{MAX_LIMIT} (default {DEFAULT_LIMIT})."),
    OpenApiParameter("cursor", {"type": "string", "pattern": CURSOR_PATTERN},
                     description="From the previous page's `next`."),
]


class RatingBoardView(ApiView):
    """The board of one game's ratings (``game``: its key in the ratings app)."""

    game = ""
    permission_classes = [AllowAny]
    throttle_scope = "boards"
    throttle_reads = True  # public, and each answer ranks a whole board
    query_parameters = frozenset({"limit", "cursor"})

    def get(self, request):
        query = s.RatingPageQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        viewer = request.user if request.user.is_authenticated else None
        page = selectors.board_page(game=self.game, viewer=viewer,
                                    limit=query.validated_data["limit"],
                                    cursor=query.validated_data.get("cursor"))
        return Response(s.board_output(request, page))


class SpiteMaliceRatingsView(RatingBoardView):
    game = SPITE_MALICE

    @extend_schema(
        tags=["spite-malice"], operation_id="spite_malice_ratings",
        summary="Spite & Malice ratings: Glicko-2 over matches between people",
        description=(
            "Finished matches between two people rate both players (a resignation or a timeout "
            "is a loss, a tied single game a draw); matches against the bot and dailies never "
            "do. `results`: established players by rating, highest first, with ranks; "
            f"`provisional`: players with {s.PROVISIONAL_RULE}, apart and unranked. A page "
            "holds up to `limit` players, the established ones first; `next` continues. With "
            "a token, `me` is your entry wherever it is. docs/RATINGS.md explains the system."
        ),
        parameters=PAGE_PARAMETERS,
        responses={200: s.RatingBoardOutput, **problems(400, 401, 429)},
    )
    def get(self, request):
        return super().get(request)
