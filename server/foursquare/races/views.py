"""The races' API: create a race, list and read races, join (by code or by invitation), leave,
start, race again, and the replays once it finished. A race's games are played through the
ordinary ``POST /games/{id}/moves``."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from server.api import idempotency
from server.api.headers import LOCATION, absolute_url
from server.api.idempotency import IDEMPOTENCY_PARAMETER
from server.api.problems import NotAuthenticated
from server.api.schema import problem_example, problems
from server.api.views import ApiView
from server.foursquare import fairness
from server.foursquare.pagination import PAGE_PARAMETERS, GamePagination
from server.foursquare.races import selectors, services
from server.foursquare.races import serializers as s
from server.foursquare.races.problems import RaceNotFinished

TAG = ["races"]
RACE_ID = OpenApiParameter("race_id", OpenApiTypes.UUID, OpenApiParameter.PATH)


def _fresh_output(race, viewer) -> dict:
    """The race object as ``viewer`` sees it now (read again after a write)."""
    return selectors.race_output(selectors.race_for(viewer, race.pk, code=race.code), viewer)


def _write(request, lock, act, ok=status.HTTP_200_OK) -> Response:
    """Run ``act(locked race)`` once per Idempotency-Key, under ``lock()``, and answer with the
    race it returns as the caller sees it."""

    def action(race):
        return ok, _fresh_output(act(race), request.user)

    return idempotency.respond_idempotently(request, action, lock=lock)


class RaceListCreateView(ApiView):
    permission_classes = [IsAuthenticated]
    query_parameters = frozenset({"limit", "cursor"})
    throttle_scope = "games"

    @extend_schema(
        tags=TAG, operation_id="races_list", summary="Your races (racer or invited), newest first",
        parameters=PAGE_PARAMETERS,
        responses={200: s.RacePageOutput, **problems(400, 401)},
    )
    def get(self, request):
        paginator = GamePagination()
        page = paginator.paginate_queryset(selectors.races_of(request.user), request, view=self)
        page = selectors.races_seen(request.user, page)
        return paginator.get_paginated_response(
            [selectors.race_output(race, request.user) for race in page])

    @extend_schema(
        tags=TAG, operation_id="races_create", summary="Create a race: you are its host",
        description=(
            "A waiting race of `players` seats (2-8) and a time limit of `minutes` (3, 5 or "
            "10); you are its host and first racer. Anyone with its `code` (or `link`) may "
            "join; `invite` invites league mates directly (422 `not_a_league_mate` for anyone "
            "else)."
        ),
        parameters=[IDEMPOTENCY_PARAMETER],
        request=s.RaceCreateInput,
        responses={201: s.RaceOutput, **problems(
            400, 401, 413, 415, 422, 429,
            s422="`not_a_league_mate` or `idempotency_key_reused`.")},
        examples=[
            OpenApiExample("a race of four, five minutes", value={"players": 4, "minutes": 5},
                           request_only=True),
            problem_example("not_a_league_mate", 422,
                            "You may invite directly only a member of a league of yours",
                            "Invite directly only fellow members of your leagues (not "
                            "yourself); send anyone else the race's code."),
        ],
    )
    def post(self, request):
        data = s.RaceCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data

        def create(_locked):
            race = services.race_create(host=request.user, size=values["players"],
                                        minutes=values["minutes"],
                                        invite=values.get("invite"),
                                        client_seed=values.get("client_seed"))
            return status.HTTP_201_CREATED, _fresh_output(race, request.user)

        response = idempotency.respond_idempotently(request, create)
        if response.status_code == status.HTTP_201_CREATED:
            response[LOCATION] = absolute_url(request, "api:race", race_id=response.data["id"])
        return response


class RaceDetailView(ApiView):
    permission_classes = [AllowAny]
    query_parameters = frozenset({"code"})

    @extend_schema(
        tags=TAG, operation_id="races_retrieve", summary="A race",
        description=(
            "For its racers and invitees, and for anyone who sends its `code` (the join "
            "screen; no token needed then). Anyone else: 404 `race_not_found`. Other racers' "
            "`board` is present only where you may watch: your own game is over, or the race "
            "finished."
        ),
        parameters=[RACE_ID, OpenApiParameter(
            "code", {"type": "string", "minLength": 1, "maxLength": 32},
            description="The race's code (any case; spaces and dashes ignored).")],
        responses={200: s.RaceOutput, **problems(400, 401, 404)},
    )
    def get(self, request, race_id):
        query = s.RaceQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        code = query.validated_data.get("code")
        viewer = request.user if request.user.is_authenticated else None
        if viewer is None and code is None:
            raise NotAuthenticated("Send a token, or the race's code as ?code=.")
        race = selectors.race_seen(viewer, race_id, code=code)
        return Response(selectors.race_output(race, viewer))


_JOIN_PROBLEMS = problems(
    400, 401, 404, 409, 413, 415, 422, 429,
    s404="`race_not_found`.",
    s409="`race_started` (it is no longer waiting) or `race_full`.",
    s422="`idempotency_key_reused`.")
_JOIN_EXAMPLES = [
    problem_example("race_started", 409, "The race is no longer waiting for racers",
                    "The race is playing: it started without you."),
    problem_example("race_full", 409, "Every seat of this race is taken",
                    "All 4 seats of this race are taken."),
]


class RaceJoinCodeView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "games"

    @extend_schema(
        tags=TAG, operation_id="races_join_code", summary="Join a race with its code",
        description="Joining twice is the same as once (200, the race). A race that fills "
                    "starts itself.",
        parameters=[IDEMPOTENCY_PARAMETER], request=s.RaceJoinInput,
        responses={200: s.RaceOutput, **_JOIN_PROBLEMS},
        examples=[OpenApiExample("join", value={"code": "7K3QX9MA"}, request_only=True),
                  *_JOIN_EXAMPLES],
    )
    def post(self, request):
        data = s.RaceJoinInput(data=request.data)
        data.is_valid(raise_exception=True)
        code = data.validated_data["code"]
        client_seed = data.validated_data.get("client_seed")
        return _write(request, lambda: services.race_lock_by_code(code),
                      lambda race: services.race_join(race=race, player=request.user,
                                                      client_seed=client_seed))


class RaceJoinView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "games"
    takes_body = False

    @extend_schema(
        tags=TAG, operation_id="races_join",
        summary="Join a race you are invited to (or the next race of one you raced)",
        description="Joining twice is the same as once (200, the race). A race that fills "
                    "starts itself.",
        parameters=[RACE_ID, IDEMPOTENCY_PARAMETER], request=None,
        responses={200: s.RaceOutput, **_JOIN_PROBLEMS}, examples=_JOIN_EXAMPLES,
    )
    def post(self, request, race_id):
        return _write(request, lambda: services.race_lock_for(request.user, race_id),
                      lambda race: services.race_join(race=race, player=request.user))


class RaceLeaveView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "games"
    takes_body = False

    @extend_schema(
        tags=TAG, operation_id="races_leave", summary="Leave a race before it starts",
        description="The host leaving cancels the race. Once it started: 409 `race_started`.",
        parameters=[RACE_ID, IDEMPOTENCY_PARAMETER], request=None,
        responses={200: s.RaceOutput, **problems(
            400, 401, 404, 409, 422, 429, s404="`race_not_found`.",
            s409="`race_started`.", s422="`idempotency_key_reused`.")},
    )
    def post(self, request, race_id):
        return _write(request, lambda: services.race_lock_for(request.user, race_id),
                      lambda race: services.race_leave(race=race, player=request.user))


class RaceStartView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "games"
    takes_body = False

    @extend_schema(
        tags=TAG, operation_id="races_start", summary="Start the race (its host)",
        description=(
            "Deals a fresh deal, one game per racer, and sets the clock: `countdown` until "
            "`starts_at` (moves from then), `ends_at` after the time limit."
        ),
        parameters=[RACE_ID, IDEMPOTENCY_PARAMETER], request=None,
        responses={200: s.RaceOutput, **problems(
            400, 401, 403, 404, 409, 422, 429, s403="`not_race_host`.",
            s404="`race_not_found`.",
            s409="`race_not_ready` (fewer than 2 racers) or `race_started`.",
            s422="`idempotency_key_reused`.")},
        examples=[problem_example("race_not_ready", 409, "A race needs at least two racers",
                                  "Wait until at least one more racer has joined.")],
    )
    def post(self, request, race_id):
        return _write(request, lambda: services.race_lock_for(request.user, race_id),
                      lambda race: services.race_start(race=race, player=request.user))


class RaceAgainView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "games"
    takes_body = False

    @extend_schema(
        tags=TAG, operation_id="races_again", summary="Race again: the next race",
        description=(
            "After the race finished: its `next_race`, created by the first racer to ask (same "
            "size and minutes, that racer its host, the others invited) and joined by each "
            "later one. Before: 409 `race_not_finished`."
        ),
        parameters=[RACE_ID, IDEMPOTENCY_PARAMETER], request=None,
        responses={200: s.RaceOutput, **problems(
            400, 401, 404, 409, 422, 429, s404="`race_not_found`.",
            s409="`race_not_finished`, or `race_started`/`race_full` for a next race that "
                 "started without you.",
            s422="`idempotency_key_reused`.")},
    )
    def post(self, request, race_id):
        return _write(request, lambda: services.race_lock_for(request.user, race_id),
                      lambda race: services.race_again(race=race, player=request.user))


class RaceReplaysView(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=TAG, operation_id="races_replays",
        summary="The deal and every racer's moves, once the race finished",
        parameters=[RACE_ID],
        responses={200: s.ReplaysOutput, **problems(
            401, 404, 409, s404="`race_not_found`.",
            s409="`race_not_finished`: the deal stays hidden until the end.")},
    )
    def get(self, request, race_id):
        race = selectors.race_seen(request.user, race_id)
        if race.status != race.Status.FINISHED:
            raise RaceNotFinished("The replays are shown once the race has finished.")
        return Response({**selectors.replays_output(race),
                         "fairness": fairness.race_fairness(race)})
