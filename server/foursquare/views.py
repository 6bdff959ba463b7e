"""The games' API: start a game, read it, play a move, and see its record once it is over."""

from __future__ import annotations

from django.db import transaction
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from server.api import idempotency
from server.api.fastpath import FastPathView
from server.api.headers import LOCATION, absolute_url
from server.api.idempotency import IDEMPOTENCY_PARAMETER
from server.api.problems import GameInProgress, GameOver, HintsNotAllowed
from server.api.schema import problem_example, problems
from server.api.views import ApiView
from server.foursquare import analysis, fastmove, faststart, metrics, selectors, services
from server.foursquare import serializers as s
from server.foursquare.engine import deal_shown, game_output, rebuild, record_output
from server.foursquare.pagination import PAGE_PARAMETERS, GamePagination
from server.foursquare.problems import (
    AnalysisPending,
    AnalysisUnavailable,
    IllegalMove,
    StaleMove,
)
from server.foursquare.races.problems import RaceNotFinished
from server.jobs.models import Job

TAG = ["games"]


class GameListCreateView(FastPathView, ApiView):
    permission_classes = [IsAuthenticated]
    query_parameters = frozenset({"limit", "cursor"})
    throttle_scope = "games"

    # A fresh practice deal is dealt on the fast path; it hands over the rest (see faststart).
    fast_object = None
    fast_response = staticmethod(faststart.start_response)

    @extend_schema(
        tags=TAG, operation_id="games_list", summary="Your games, newest first",
        parameters=PAGE_PARAMETERS,
        responses={200: s.GamePageOutput, **problems(400, 401, 404)},
    )
    def get(self, request):
        paginator = GamePagination()
        page = paginator.paginate_queryset(selectors.games_of(request.user), request, view=self)
        return paginator.get_paginated_response([game_output(game) for game in page])

    @extend_schema(
        tags=TAG, operation_id="games_create",
        summary="Start a game: today's daily, a practice deal, or an archived daily",
        description=(
            "`daily`: 201 the first time, then 200 with the same game. `date` (your local date) "
            "must be current somewhere on Earth (UTC-12 to UTC+14), else 422 "
            "`daily_unavailable`.\n\n`practice`: a fresh random deal, or `deal` to replay a "
            "shared one.\n\n`archive`: replay a past daily (`date`), unranked."
        ),
        parameters=[IDEMPOTENCY_PARAMETER],
        request=s.GameCreateInput,
        responses={
            201: s.GameOutput, 200: s.GameOutput,
            **problems(400, 401, 404, 413, 415, 422, 429,
                       s422="`daily_unavailable`, `deal_unavailable` or `idempotency_key_reused`."),
        },
        examples=[
            OpenApiExample("today's daily", value={"mode": "daily"}, request_only=True),
            OpenApiExample("daily, local date", value={"mode": "daily", "date": "2026-11-29"},
                           request_only=True),
            OpenApiExample("practice", value={"mode": "practice"}, request_only=True),
            OpenApiExample("challenge", value={"mode": "practice", "deal": "k3m9x2p7q4rt"},
                           request_only=True),
            OpenApiExample("archive", value={"mode": "archive", "date": "2026-11-01"},
                           request_only=True),
            problem_example("daily_unavailable", 422, "That daily cannot be played now",
                            "The daily of 2026-12-25 is not being played now."),
        ],
    )
    def post(self, request):
        values = s.game_create_input(request.data)

        def start(_locked):
            game, created = services.game_start(
                player=request.user, mode=values["mode"], day=values.get("date"),
                deal_id=values.get("deal"),
            )
            return (status.HTTP_201_CREATED if created else status.HTTP_200_OK), game_output(game)

        response = idempotency.respond_idempotently(request, start)
        if response.status_code == status.HTTP_201_CREATED:
            response[LOCATION] = absolute_url(request, "api:game", game_id=response.data["id"])
        return response


class GameDetailView(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=TAG, operation_id="games_retrieve", summary="One of your games",
                   responses={200: s.GameOutput, **problems(401, 404)})
    def get(self, request, game_id):
        game = selectors.game_of(request.user, game_id)
        return Response(game_output(game))


class MoveCreateView(FastPathView, ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "moves"

    # Most moves are answered by the fast path; it hands over the rest (see fastmove).
    fast_object = "game_id"
    fast_response = staticmethod(fastmove.move_response)

    @extend_schema(
        tags=TAG, operation_id="games_moves_create",
        summary="Place the current card",
        description=(
            "Places the current card at (row, col), one of the game's `legal_moves`. Send "
            "`move` (the moves already played) to be safe against double submission."
        ),
        parameters=[IDEMPOTENCY_PARAMETER],
        request=s.MoveInput,
        responses={
            200: s.GameOutput,
            **problems(400, 401, 404, 409, 413, 415, 422, 429,
                       s409="`stale_move` (the game moved on), `game_over`, or for a race "
                            "game `race_not_started` (before `starts_at`) or `out_of_time` "
                            "(from `ends_at`).",
                       s422="`illegal_move` or `idempotency_key_reused`."),
        },
        examples=[
            OpenApiExample("a move", value={"row": 0, "col": 1, "move": 3}, request_only=True),
            problem_example("illegal_move", 422, "That placement is not legal now",
                            "move 3: cannot place 7H at [2, 2]: it is neither on a pile nor "
                            "next to one"),
            problem_example("stale_move", 409, "The game has moved on since you last saw it",
                            "You sent move 3, but 4 moves have been played."),
        ],
    )
    def post(self, request, game_id):
        data = s.MoveInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data

        def play(game):
            try:
                engine = services.move_play(game=game, row=values["row"], col=values["col"],
                                            expected_move=values.get("move"))
            except IllegalMove:
                metrics.moves_illegal.inc()
                raise
            except StaleMove:
                metrics.moves_stale.inc()
                raise
            transaction.on_commit(metrics.moves_stored_full.inc)
            return status.HTTP_200_OK, game_output(game, engine)

        return idempotency.respond_idempotently(
            request, play, lock=lambda: services.game_lock(player=request.user, game_id=game_id)
        )


class RecordView(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=TAG, operation_id="games_record",
        summary="The whole deal and your moves, once the game is over",
        responses={200: s.RecordOutput, **problems(
            401, 404, 409, s409="`game_in_progress`: the deal stays hidden until the end; "
                                "`race_not_finished`: a race game's, until its race ends.")},
    )
    def get(self, request, game_id):
        game = selectors.game_of(request.user, game_id)
        if not game.is_over:
            raise GameInProgress("Finish the game first: the deal stays hidden until the end.")
        if not deal_shown(game):  # a race game: the others may still be drawing these cards
            raise RaceNotFinished("The deal of a race stays hidden until the race has finished.")
        return Response(record_output(game))


class AnalysisView(ApiView):
    permission_classes = [IsAuthenticated]
    # Minutes of solver CPU each: limited per token and address, but only the requests that
    # ask for new work (``get``); asking again while it is computed costs nothing.
    throttle_scope = "analyses"
    throttle_reads = True

    def check_throttles(self, request) -> None:
        """Counted in ``get``, once it knows the request asks for an analysis not under way."""

    @extend_schema(
        tags=TAG, operation_id="games_analysis",
        summary="The bot's review of a finished game",
        description=(
            "For each move, the bot's estimate of the move played against its own choice (with "
            "what you knew then), its verdict, the moves that lost the most, the move after "
            "which the game was lost and an overall rating. Computed in the background once "
            "the game is over: 202 `{\"status\": \"pending\"}` until it is ready (ask again "
            "in a few seconds), then 200. A player has one analysis computed at a time, and "
            "the requests that start one are limited per token and address "
            "(`analyses.token`, `analyses.address`); asking again meanwhile is free."
        ),
        responses={
            200: s.AnalysisOutput, 202: s.AnalysisPendingOutput,
            **problems(401, 404, 409, 429, 503,
                       s409="`game_in_progress`: no analysis while the game is on; "
                            "`race_not_finished`: a race game's, until its race ends.",
                       s429="`analysis_pending`: another of your games' analyses is still "
                            "being computed; ask again once it is done. `throttled`: too "
                            "many analyses started from this token or address; wait "
                            "`Retry-After` seconds.",
                       s503="`analysis_unavailable`: it failed; try again later. Or "
                            "`service_unavailable`: the database cannot be reached."),
        },
    )
    def get(self, request, game_id):
        game = selectors.game_of(request.user, game_id)
        if not game.is_over:
            raise GameInProgress("Finish the game first: the analysis follows its end.")
        if not deal_shown(game):  # the bot's review weighs cards the others are still to draw
            raise RaceNotFinished("A race game's analysis waits until the race has finished.")
        done = selectors.analysis_of(game)
        if done is not None:
            return Response(done.result)
        if not services.analysis_under_way(game=game):
            if services.analysis_pending_other(game=game):
                raise AnalysisPending("Another of your games' analyses is still being "
                                      "computed; ask again once it is done.")
            super().check_throttles(request)
        job = services.analysis_request(game=game)
        if job.status == Job.Status.FAILED:
            raise AnalysisUnavailable("The analysis of this game failed; try again later.")
        return Response({"status": "pending"}, status=status.HTTP_202_ACCEPTED)


class HintView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "hints"
    throttle_reads = True  # each hint costs the bot's CPU time

    @extend_schema(
        tags=TAG, operation_id="games_hint",
        summary="The bot's suggestion for the current card (practice and archive games)",
        description=(
            "The bot sees only what you know. Never for a daily or race game: 403 "
            "`hints_not_allowed`."
        ),
        responses={
            200: s.HintOutput,
            **problems(401, 403, 404, 409, 429,
                       s403="`hints_not_allowed`: the game is a ranked daily or a race's.",
                       s409="`game_over`: the game is finished."),
        },
    )
    def get(self, request, game_id):
        game = selectors.game_of(request.user, game_id)
        if game.mode == game.Mode.DAILY:
            raise HintsNotAllowed("Hints are not given in a daily game: it is ranked.")
        if game.mode == game.Mode.RACE:
            raise HintsNotAllowed("Hints are not given in a race game.")
        if game.is_over:
            raise GameOver(f"The game is over ({game.status}); there is nothing to hint.")
        return Response(analysis.hint_of(rebuild(game)))


class ChallengeView(ApiView):
    """A challenge link names the challenger's game; this is all anyone may see of it."""

    permission_classes = [AllowAny]
    throttle_scope = "boards"
    throttle_reads = True  # public: per address above all

    @extend_schema(
        tags=TAG, operation_id="challenges_retrieve",
        summary="The result a challenge link stands for",
        description="A finished practice or archive game's deal, outcome, score and player's "
                    "name, for anyone with the link; nothing else of the game. A daily, a game "
                    "still being played or no game at all is `404`.",
        responses={200: s.ChallengeOutput, **problems(401, 404, 429)},
    )
    def get(self, request, game_id):
        return Response(s.challenge_output(selectors.challenge_of(game_id)))

