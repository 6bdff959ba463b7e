"""Invitations and challenges: joining by code, an invitation's preview, accepting and
declining a challenge by its id, and offering a rematch."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from server.api import idempotency
from server.api.idempotency import IDEMPOTENCY_PARAMETER
from server.api.schema import problem_example, problems
from server.api.views import ApiView
from server.boards.views import viewer_of
from server.spitemalice import invitations
from server.spitemalice.models import INVITE_DAYS
from server.spitemalice.serializers import inputs, outputs
from server.spitemalice.shapes import invitation_output
from server.spitemalice.views.common import MATCH_ID, TAG, located, output, write_on_match


class MatchJoinView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "games"

    @extend_schema(
        tags=TAG, operation_id="spite_malice_matches_join",
        summary="Join a match between people with its invitation's code",
        description=(
            "You take seat 1 and the first game is dealt: the match is `playing` and the "
            "first turn's clock starts now. The code is read in any case, with spaces or "
            "dashes ignored. 404 for a code that names no open invitation to you (unknown, "
            f"cancelled, expired after {INVITE_DAYS} days, or a direct invitation to someone "
            "else); 409 `match_full` once someone has joined, `own_match` for your own, "
            "`too_many_matches` at the limit of active matches."
        ),
        parameters=[IDEMPOTENCY_PARAMETER],
        request=inputs.JoinInput,
        responses={200: outputs.MatchOutput, **problems(
            400, 401, 404, 409, 413, 415, 422, 429,
            s404="`not_found`: no open invitation has this code.",
            s409="`match_full`, `own_match` or `too_many_matches`.",
            s422="`idempotency_key_reused`.")},
        examples=[
            OpenApiExample("join", value={"code": "7K3QX9MA"}, request_only=True),
            problem_example("match_full", 409, "Both seats of this match are taken",
                            "Someone has already joined this match."),
            problem_example("own_match", 409, "This is your own invitation",
                            "You created this match: send its code to your opponent."),
        ],
    )
    def post(self, request):
        data = inputs.JoinInput(data=request.data)
        data.is_valid(raise_exception=True)

        def join(_locked):
            match = invitations.match_join(player=request.user, code=data.validated_data["code"],
                                           client_seed=data.validated_data.get("client_seed"))
            return status.HTTP_200_OK, output(request, match)

        # The player's row locked first: a retry sent while the first join still runs waits
        # for it and gets its answer, rather than finding the seat taken.
        return idempotency.respond_idempotently(
            request, join,
            lock=lambda: invitations.join_lock(request.user, data.validated_data["code"]))


class InvitationView(ApiView):
    permission_classes = [AllowAny]
    throttle_scope = "games"
    throttle_reads = True

    @extend_schema(
        tags=TAG, operation_id="spite_malice_invitations_retrieve",
        summary="An open invitation, as you would join it",
        description=(
            "Who invites, the clock, the length, and whether the match would be `rated` if "
            "you joined it now (without a token: as a new guest would, never rated), with "
            "`unrated_reason` when not: shown before the invitation is accepted. As a join "
            "would be: 404 `not_found` for a code that names no invitation open to you "
            "(unknown, cancelled, expired, or a direct invitation to someone else), 409 "
            "`match_full` once someone has joined."),
        parameters=[OpenApiParameter(
            "code", {"type": "string", "minLength": 1, "maxLength": 32}, OpenApiParameter.PATH,
            description="The invitation's code, as for a join: any case; spaces and dashes "
                        "ignored.")],
        responses={200: outputs.InvitationOutput, **problems(401, 404, 409, 429,
                                                       s409="`match_full`.")},
    )
    def get(self, request, code: str):
        viewer = viewer_of(request)
        match, rated, reason = invitations.invitation_preview(code=code, viewer=viewer)
        return Response(invitation_output(match, rated, reason))


class MatchAcceptView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "games"
    takes_body = False

    @extend_schema(
        tags=TAG, operation_id="spite_malice_matches_accept",
        summary="Accept a challenge to you: join it by its id",
        description=(
            "The invitee of a direct invitation (a challenge, or a rematch offered) takes "
            "seat 1 and the first game is dealt, exactly as a join with its code. 404 "
            "`not_found` for a match that is no challenge to you (or one that closed: "
            "`reason` says how), 409 `match_full` once you accepted it, `own_match` for your "
            "own, `too_many_matches` at the limit of active matches."),
        parameters=[MATCH_ID, IDEMPOTENCY_PARAMETER], request=None,
        responses={200: outputs.MatchOutput, **problems(
            400, 401, 404, 409, 422, 429,
            s404="`not_found`: no open challenge to you has this id.",
            s409="`match_full`, `own_match` or `too_many_matches`.",
            s422="`idempotency_key_reused`.")},
    )
    def post(self, request, match_id):
        code = invitations.accept_code(request.user, match_id)

        def accept(_locked):
            match = invitations.match_join(player=request.user, code=code)
            return status.HTTP_200_OK, output(request, match)

        return idempotency.respond_idempotently(
            request, accept, lock=lambda: invitations.join_lock(request.user, code))


class MatchDeclineView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "games"

    @extend_schema(
        tags=TAG, operation_id="spite_malice_matches_decline",
        summary="Decline a challenge to you, saying why",
        description=(
            "The invitation is `cancelled` with reason `declined` and a `cancelled` event "
            "(`reason: \"declined\"`, `by: 1`, and `decline_reason`); the challenger sees "
            "the match's `decline_reason`. The body may be left out (`generic`). 404 for a "
            "match that is no invitation to you; 409 `own_match` for your own (cancel it), "
            "`match_not_waiting` once it began or closed."),
        parameters=[MATCH_ID, IDEMPOTENCY_PARAMETER],
        request=inputs.DeclineInput,
        responses={200: outputs.MatchOutput, **problems(
            400, 401, 404, 409, 413, 415, 422, 429,
            s409="`own_match` or `match_not_waiting`.",
            s422="`idempotency_key_reused`.")},
        examples=[OpenApiExample("too fast", value={"reason": "too_fast"}, request_only=True)],
    )
    def post(self, request, match_id):
        data = inputs.DeclineInput(data=request.data)
        data.is_valid(raise_exception=True)

        def decline(match, game):
            invitations.match_decline(match=match, game=game, player=request.user,
                                      reason=data.validated_data["reason"])
            return status.HTTP_200_OK, output(request, match)

        return write_on_match(request, match_id, decline)


class MatchRematchView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "games"
    takes_body = False

    @extend_schema(
        tags=TAG, operation_id="spite_malice_matches_rematch",
        summary="Offer a rematch of a finished match between people",
        description=(
            "201, a new `waiting` match with the same `turn_seconds` and `target`, your "
            "opponent its `invitee` (it appears in their list: they join it with its code, "
            "like any invitation) and `rematch_of` the finished match, whose `rematch` then "
            "names the new one. One rematch per match."
        ),
        parameters=[MATCH_ID, IDEMPOTENCY_PARAMETER], request=None,
        responses={201: outputs.MatchOutput, **problems(
            400, 401, 404, 409, 422, 429,
            s409="`rematch_unavailable` (not between people, not finished, or offered "
                 "already) or `too_many_matches`.",
            s422="`idempotency_key_reused`.")},
        examples=[problem_example("rematch_unavailable", 409,
                                  "No rematch can be offered for this match",
                                  "This match has its rematch already: "
                                  "5f0c2b8e-0d7a-4c3e-9b1a-2e4f6a8c0d1e.")],
    )
    def post(self, request, match_id):
        def rematch(match, _game):
            offered = invitations.match_rematch(match=match, player=request.user)
            return status.HTTP_201_CREATED, output(request, offered)

        return located(request, write_on_match(request, match_id, rematch))
