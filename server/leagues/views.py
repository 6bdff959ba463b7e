"""The leagues' API: create, join and leave leagues, manage them, and their leaderboards.

Everything about a league is for its members: to anyone else it answers 404, never 403, so
a league's existence does not leak.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from server.api import idempotency
from server.api.headers import LOCATION, absolute_url
from server.api.idempotency import IDEMPOTENCY_PARAMETER
from server.api.schema import problem_example, problems
from server.api.views import ApiView
from server.boards import selectors as boards
from server.boards import serializers as board_serializers
from server.boards.games import names as game_names
from server.boards.periods import Period
from server.boards.views import DATE_PARAMETER, PAGE_PARAMETERS, PERIOD_PARAMETER, page_query
from server.dailies.calendar import utc_today
from server.leagues import limits, selectors, services
from server.leagues import serializers as s

TAG = ["leagues"]
GAME_PARAMETER = OpenApiParameter("game", str, enum=game_names(),
                                  description="foursquare (default) or spite-malice.")
LIMITS = (
    f"A league has at most {limits.MAX_MEMBERS} members; a player is in at most "
    f"{limits.MAX_LEAGUES_PER_PLAYER} leagues. {limits.NAME_RULE}"
)


def _detail(league) -> dict:
    return s.league_detail_output(league, list(selectors.memberships_of(league)))


class LeagueListCreateView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "leagues"

    @extend_schema(tags=TAG, operation_id="leagues_list", summary="Your leagues",
                   responses={200: s.LeagueOutput(many=True), **problems(401)})
    def get(self, request):
        return Response([s.league_output(league)
                         for league in selectors.leagues_of(request.user)])

    @extend_schema(
        tags=TAG, operation_id="leagues_create", summary="Create a league; you own it",
        description=LIMITS, request=s.LeagueNameInput, parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: s.LeagueDetailOutput, **problems(
            400, 401, 413, 415, 422, 429, s422="`league_limit` (you are in too many leagues) or "
                                          "`idempotency_key_reused`.")},
        examples=[OpenApiExample("a league", value={"name": "Friday Patience"},
                                 request_only=True)],
    )
    def post(self, request):
        data = s.LeagueNameInput(data=request.data)
        data.is_valid(raise_exception=True)

        def create(_locked):
            league = services.league_create(player=request.user,
                                            name=data.validated_data["name"])
            return status.HTTP_201_CREATED, _detail(league)

        response = idempotency.respond_idempotently(request, create)
        response[LOCATION] = absolute_url(request, "api:league", league_id=response.data["id"])
        return response


class LeagueJoinView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "leagues"

    @extend_schema(
        tags=TAG, operation_id="leagues_join", summary="Join a league with its code",
        description=LIMITS, request=s.LeagueJoinInput,
        responses={200: s.LeagueDetailOutput, **problems(
            400, 401, 404, 409, 413, 415, 422, 429,
            s404="No league has that code (`not_found`).",
            s409="`already_member` or `league_full`.",
            s422="`league_limit`: you are in too many leagues.")},
        examples=[
            OpenApiExample("join", value={"code": "K7QX2MPA"}, request_only=True),
            problem_example("league_full", 409, "This league has no room left",
                            f"A league has {limits.MAX_MEMBERS} members at most."),
        ],
    )
    def post(self, request):
        data = s.LeagueJoinInput(data=request.data)
        data.is_valid(raise_exception=True)
        league = services.league_join(player=request.user, code=data.validated_data["code"])
        return Response(_detail(league))


class LeagueDetailView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "leagues"

    @extend_schema(tags=TAG, operation_id="leagues_retrieve", summary="A league and its members",
                   responses={200: s.LeagueDetailOutput, **problems(401, 404)})
    def get(self, request, league_id):
        return Response(_detail(selectors.league_of(request.user, league_id)))

    @extend_schema(
        tags=TAG, operation_id="leagues_rename", summary="Rename a league (owner)",
        request=s.LeagueNameInput,
        responses={200: s.LeagueDetailOutput, **problems(
            400, 401, 403, 404, 413, 415, 429, s403="`not_owner`.")},
    )
    def patch(self, request, league_id):
        data = s.LeagueNameInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        league = services.league_update(player=request.user, league_id=league_id,
                                        name=data.validated_data.get("name"))
        return Response(_detail(league))


class LeagueCodeView(ApiView):
    takes_body = False
    permission_classes = [IsAuthenticated]
    throttle_scope = "leagues"

    @extend_schema(
        tags=TAG, operation_id="leagues_code_rotate",
        summary="Give a league a new code; the old one stops working (owner)",
        request=None,
        responses={200: s.LeagueDetailOutput,
                   **problems(401, 403, 404, 429, s403="`not_owner`.")},
    )
    def post(self, request, league_id):
        league = services.league_code_rotate(player=request.user, league_id=league_id)
        return Response(_detail(league))


class LeagueLeaveView(ApiView):
    takes_body = False
    permission_classes = [IsAuthenticated]
    throttle_scope = "leagues"

    @extend_schema(
        tags=TAG, operation_id="leagues_leave", summary="Leave a league",
        description="An owner who leaves hands the league to its longest-standing member; "
                    "the last member to leave deletes it.",
        request=None, responses={204: None, **problems(401, 404, 429)},
    )
    def post(self, request, league_id):
        services.league_leave(player=request.user, league_id=league_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MemberView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "leagues"

    @extend_schema(
        tags=TAG, operation_id="leagues_members_remove",
        summary="Remove a member (owner); your own id leaves the league",
        description="A removed player can join again with the code: rotate it to stop that.",
        request=None, responses={204: None, **problems(401, 403, 404, 429, s403="`not_owner`.")},
    )
    def delete(self, request, league_id, player_id):
        services.league_member_remove(player=request.user, league_id=league_id,
                                      member_id=player_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LeagueBoardView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "boards"
    reads_replica = True  # may lag a little: the replica serves it when there is one
    throttle_reads = True
    query_parameters = frozenset({"period", "date", "limit", "cursor", "around", "game"})

    @extend_schema(
        tags=TAG, operation_id="leagues_leaderboard",
        summary="A league's leaderboard: a day, week or all time, among its members",
        description="Same shape and ranking rules as the public leaderboards; `players`, "
                    "`winners` and ranks count the league's members only. `game` picks "
                    "Foursquare's dailies (default) or Spite & Malice's.",
        parameters=[PERIOD_PARAMETER, DATE_PARAMETER, GAME_PARAMETER, *PAGE_PARAMETERS],
        responses={200: board_serializers.BoardOutput, **problems(400, 401, 404, 429)},
    )
    def get(self, request, league_id):
        query = page_query(request, s.LeagueBoardQuery)
        league = selectors.league_of(request.user, league_id)
        ref = boards.board_ref(Period(query["period"]), query.get("date") or utc_today(),
                               query["game"])
        page = boards.members_board_page(
            ref=ref, members=selectors.member_ids(league), viewer=request.user,
            limit=query["limit"], cursor=query.get("cursor"), around=query["around"])
        return Response(board_serializers.board_output(request, ref, page))
