"""Open seeks: the list of other players' seeks, posting one, withdrawing it and taking one."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from server.api import idempotency
from server.api.idempotency import IDEMPOTENCY_PARAMETER
from server.api.schema import problems
from server.api.views import ApiView
from server.spitemalice import invitations, selectors, services
from server.spitemalice.models import INVITE_DAYS, Match
from server.spitemalice.problems import SeekNotFound
from server.spitemalice.serializers import inputs, outputs
from server.spitemalice.shapes import seek_output
from server.spitemalice.views.common import TAG, cancelled, located, output

SEEK_ID = OpenApiParameter("match_id", OpenApiTypes.UUID, OpenApiParameter.PATH,
                           description="The seek's id (its match's).")


class SeekListCreateView(ApiView):
    permission_classes = [IsAuthenticated]
    query_parameters = frozenset({"limit", "cursor"})
    throttle_scope = "seeks"  # posted seeks, per token and per address (reads are not counted)

    @extend_schema(
        tags=TAG, operation_id="spite_malice_seeks_list",
        summary="Open seeks of other players, the newest first",
        description=(
            "Seeks you may take (not your own; yours are in your match list, `seek: true`), "
            "the newest first, paged by cursor: follow `next`. Each says who seeks (with "
            "their `bot` flag and rating), the clock, the length, and whether the match "
            "would be rated if you took it now."),
        parameters=[
            OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": 100},
                             description="Page size, 1-100 (default 20)."),
            OpenApiParameter("cursor", {"type": "string",
                                        "pattern": selectors.SEEK_CURSOR_PATTERN},
                             description="From a `next` link."),
        ],
        responses={200: outputs.SeekPageOutput, **problems(400, 401)},
    )
    def get(self, request):
        query = inputs.SeekListQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        values = query.validated_data
        seeks, after = selectors.seeks_page(request.user, limit=values["limit"],
                                            cursor=values.get("cursor"), now=timezone.now())
        url = request.build_absolute_uri()
        return Response({
            "next": (replace_query_param(url, "cursor", selectors.SEEK_KEYSET.encode(after))
                     if after else None),
            "results": [seek_output(seek, request.user) for seek in seeks],
        })

    @extend_schema(
        tags=TAG, operation_id="spite_malice_seeks_create",
        summary="Seek an opponent: an open match the first taker joins",
        description=(
            "201, a `waiting` match between people with `seek: true` and no invitee: it is "
            "listed in GET /seeks for every other player until one takes it (POST "
            "/seeks/{id}/accept), you withdraw it (DELETE /seeks/{id}, or cancel the match) "
            f"or it expires after {INVITE_DAYS} days. It has no code to share (`invite` is "
            f"null). It counts among your {services.ACTIVE_MATCHES} active matches (409 "
            "`too_many_matches`)."),
        parameters=[IDEMPOTENCY_PARAMETER],
        request=inputs.SeekInput,
        responses={201: outputs.MatchOutput, **problems(
            400, 401, 409, 413, 415, 422, 429, s409="`too_many_matches`.",
            s422="`idempotency_key_reused`.",
            s429="`throttled`: seeks posted per token (60 an hour) or per address (120 an "
                 "hour).")},
        examples=[OpenApiExample("a turn a day, a single game",
                                 value={"turn_seconds": 86400, "target": 1, "rated": True},
                                 request_only=True)],
    )
    def post(self, request):
        data = inputs.SeekInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data

        def post(_locked):
            match = invitations.seek_post(player=request.user, **values)
            return status.HTTP_201_CREATED, output(request, match)

        return located(request, idempotency.respond_idempotently(request, post))


class SeekDetailView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "games"
    takes_body = False

    @extend_schema(
        tags=TAG, operation_id="spite_malice_seeks_delete",
        summary="Withdraw your seek",
        description="As cancelling its match: 200, the match `cancelled` (reason "
                    "`cancelled`). 404 for a seek that is not yours, 409 `match_not_waiting` "
                    "once it was taken or closed.",
        parameters=[SEEK_ID, IDEMPOTENCY_PARAMETER], request=None,
        responses={200: outputs.MatchOutput, **problems(
            400, 401, 404, 409, 422, 429, s409="`match_not_waiting`.",
            s422="`idempotency_key_reused`.")},
    )
    def delete(self, request, match_id):
        if not Match.objects.filter(pk=match_id, seek=True, player0=request.user).exists():
            raise SeekNotFound("You have no seek with this id.")
        return cancelled(request, match_id)


class SeekAcceptView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "games"
    takes_body = False

    @extend_schema(
        tags=TAG, operation_id="spite_malice_seeks_accept",
        summary="Take an open seek: its match begins",
        description=(
            "You take seat 1 and the first game is dealt, as a join. Only the first taker "
            "gets it: 409 `match_full` for the others, `own_match` for your own, "
            "`too_many_matches` at the limit; 404 `not_found` for a seek withdrawn or "
            "expired (`reason` says which) or no seek at all."),
        parameters=[SEEK_ID, IDEMPOTENCY_PARAMETER], request=None,
        responses={200: outputs.MatchOutput, **problems(
            400, 401, 404, 409, 422, 429,
            s409="`match_full`, `own_match` or `too_many_matches`.",
            s422="`idempotency_key_reused`.")},
    )
    def post(self, request, match_id):
        code = invitations.seek_code(match_id)

        def take(_locked):
            match = invitations.match_join(player=request.user, code=code)
            return status.HTTP_200_OK, output(request, match)

        return idempotency.respond_idempotently(
            request, take, lock=lambda: invitations.join_lock(request.user, code))
