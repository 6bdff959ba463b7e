"""A player's matches: the list, starting one (against the bot, a person, or the daily), one
match, resigning and cancelling."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param

from server.api import idempotency
from server.api.cursors import Place
from server.api.idempotency import IDEMPOTENCY_PARAMETER
from server.api.schema import problem_example, problems
from server.api.views import ApiView
from server.spitemalice import invitations, selectors, services
from server.spitemalice.models import INVITE_DAYS
from server.spitemalice.selectors import MATCH_CURSOR_PATTERN
from server.spitemalice.serializers import inputs, outputs
from server.spitemalice.views.common import (
    MATCH_ID,
    TAG,
    cancelled,
    located,
    output,
    write_on_match,
)


class MatchListCreateView(ApiView):
    permission_classes = [IsAuthenticated]
    query_parameters = frozenset({"limit", "cursor", "offset", "turn", "status"})
    throttle_scope = "games"

    @extend_schema(
        tags=TAG, operation_id="spite_malice_matches_list",
        summary="Your matches, those waiting for your action first",
        description=(
            "Those waiting for your action first (your turn, or an invitation to you), then "
            "the most recently changed, paged by cursor: follow `next` and `previous`. A "
            "cursor is the place of a match in that order (`n` the page after it, `p` the "
            "page before it), so a match that changes while you page moves without shifting "
            "the other pages. `turn=me` and `status` narrow the list (the links keep them)."),
        parameters=[
            OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": 100},
                             description="Page size, 1-100 (default 20)."),
            OpenApiParameter("cursor", {"type": "string", "pattern": MATCH_CURSOR_PATTERN},
                             description="From a `next` or `previous` link."),
            OpenApiParameter("offset", {"type": "integer", "minimum": 0, "maximum": 1000000},
                             deprecated=True,
                             description="Matches to skip from the top: the older way of "
                                         "paging, still taken; ignored with a `cursor`. The "
                                         "links carry cursors."),
            OpenApiParameter("turn", {"type": "string", "enum": ["me"]},
                             description="`me`: only the matches waiting for your action "
                                         "(`your_turn`: your turn, or an invitation to you)."),
            OpenApiParameter("status", {"type": "array", "minItems": 1, "items": {
                "type": "string",
                "enum": ["waiting", "playing", "finished", "cancelled", "aborted"]}},
                style="form", explode=False,
                description="Only matches in these statuses, separated by commas "
                            "(`status=waiting,playing`); given once, as every parameter."),
        ],
        responses={200: outputs.MatchPageOutput, **problems(400, 401)},
    )
    def get(self, request):
        query = inputs.MatchListQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        values = query.validated_data
        page = selectors.matches_page(request.user, limit=values["limit"],
                                      cursor=values.get("cursor"), offset=values["offset"],
                                      turn_me=values.get("turn") == "me",
                                      statuses=values.get("status"))
        games = selectors.current_games(page.results)
        url = remove_query_param(request.build_absolute_uri(), "offset")

        def link(place: Place | None) -> str | None:
            return None if place is None else replace_query_param(
                url, "cursor", selectors.MATCH_KEYSET.encode(place))

        return Response({
            "count": page.count,
            "next": link(page.next),
            "previous": link(page.previous),
            "results": [output(request, match, games.get(match.pk)) for match in page.results],
        })

    @extend_schema(
        tags=TAG, operation_id="spite_malice_matches_create",
        summary="Start a match against the bot or a person, or today's Spite & Malice daily",
        description=(
            "`{\"opponent\": \"bot\", \"level\", \"target\"}`: 201, a match on fresh seeds; "
            "if the bot starts, its turn is played already.\n\n"
            "`{\"opponent\": \"friend\", \"turn_seconds\", \"target\"}`: 201, a match "
            "`waiting` for its second player, with its `invite` (`code`, `url`, `expires_at`: "
            f"{INVITE_DAYS} days). With `invitee`, a fellow league member is "
            "invited directly (else 422 `not_a_league_mate`): it appears in their list and "
            "only they may join. `rated` (default true) asks for a rated match; the answer's "
            "`rated` and `unrated_reason` say whether it is (docs/RATINGS.md)."
            "\n\n`{\"mode\": \"daily\"}` "
            "(optionally `date`, your local date, current somewhere on Earth, else 422 "
            "`daily_unavailable`): the day's deal against the `normal` bot, one per player "
            "and date: 201 the first time, then 200 with the same match.\n\n"
            f"A player has at most {services.ACTIVE_MATCHES} matches against the bot and "
            "between people waiting or being played: 409 `too_many_matches` past that."
        ),
        parameters=[IDEMPOTENCY_PARAMETER],
        request=inputs.MatchCreateInput,
        responses={201: outputs.MatchOutput, 200: outputs.MatchOutput,
                   **problems(400, 401, 409, 413, 415, 422, 429,
                              s409="`too_many_matches`, `commitment_unavailable`.",
                              s422="`daily_unavailable`, `not_a_league_mate`, "
                                   "`client_seed_required` (a `commitment` without a "
                                   "`client_seed`) or `idempotency_key_reused`.")},
        examples=[
            OpenApiExample("against the bot", value={"opponent": "bot", "level": "normal",
                                                     "target": 50}, request_only=True),
            OpenApiExample("a friend, a turn a day, a single game",
                           value={"opponent": "friend", "turn_seconds": 86400, "target": 1},
                           request_only=True),
            OpenApiExample("a league mate, live", value={
                "opponent": "friend", "turn_seconds": 60, "target": 50,
                "invitee": "0b6f1c9e-2a4d-4f7b-9c1e-3d5a7b9c1e2f"}, request_only=True),
            OpenApiExample("today's daily", value={"mode": "daily"}, request_only=True),
            problem_example("too_many_matches", 409,
                            "You have as many active matches as a player may have",
                            f"You have {services.ACTIVE_MATCHES} matches waiting or being "
                            "played, the most a player may have: finish, resign or cancel "
                            "one first."),
        ],
    )
    def post(self, request):
        values = inputs.match_create_input(request.data)

        def start(_locked):
            created = True
            if "mode" in values:
                match, created = services.match_start_daily(player=request.user,
                                                             day=values.get("date"))
            elif values["opponent"] == "friend":
                match = invitations.match_invite(
                    player=request.user, turn_seconds=values["turn_seconds"],
                    target=values["target"], invitee_id=values.get("invitee"),
                    rated=values["rated"], client_seed=values.get("client_seed"))
            else:
                match = services.match_start_bot(
                    player=request.user, level=values["level"], target=values["target"],
                    client_seed=values.get("client_seed"), commitment=values.get("commitment"))
            return ((status.HTTP_201_CREATED if created else status.HTTP_200_OK),
                    output(request, match))

        return located(request, idempotency.respond_idempotently(request, start))


class MatchDetailView(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=TAG, operation_id="spite_malice_matches_retrieve",
                   summary="One of your matches", parameters=[MATCH_ID],
                   responses={200: outputs.MatchOutput, **problems(401, 404)})
    def get(self, request, match_id):
        match = selectors.match_of(request.user, match_id)
        if services.bot_turn_resume(match):  # a bot turn repaired just now
            match = selectors.match_of(request.user, match_id)
        return Response(output(request, match))


class ResignView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "games"
    takes_body = False

    @extend_schema(tags=TAG, operation_id="spite_malice_matches_resign",
                   summary="Resign: the match ends and the other seat wins",
                   parameters=[MATCH_ID, IDEMPOTENCY_PARAMETER], request=None,
                   responses={200: outputs.MatchOutput, **problems(
                       400, 401, 404, 409, 422, 429,
                       s409="`game_over` (the match is over, or your time ran out) or "
                            "`match_not_started` (cancel a match nobody joined).",
                       s422="`idempotency_key_reused`.")})
    def post(self, request, match_id):
        def resign(match, game):
            services.match_resign(match=match, game=game, player=request.user)
            return status.HTTP_200_OK, output(request, match, game)

        return write_on_match(request, match_id, resign)


class MatchCancelView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "games"
    takes_body = False

    @extend_schema(
        tags=TAG, operation_id="spite_malice_matches_cancel",
        summary="Cancel a match nobody has joined (or decline an invitation to you), or "
                "leave one before the first turns",
        description="A waiting match is `cancelled` (reason `cancelled`) with a `cancelled` "
                    "event. A match between people being played whose seats have not both "
                    "completed their first turn (`abortable`) is `aborted` (reason "
                    "`cancelled`) with an `aborted` event: no winner, not rated. Otherwise "
                    "409 `match_not_waiting` (resign instead).",
        parameters=[MATCH_ID, IDEMPOTENCY_PARAMETER], request=None,
        responses={200: outputs.MatchOutput, **problems(
            400, 401, 404, 409, 422, 429,
            s409="`match_not_waiting`: it began, finished, expired or was cancelled already.",
            s422="`idempotency_key_reused`.")},
        examples=[problem_example("match_not_waiting", 409,
                                  "The match is no longer waiting for its second player",
                                  "The match is playing: only a match nobody has joined can "
                                  "be cancelled (resign instead).")],
    )
    def post(self, request, match_id):
        return cancelled(request, match_id)
