"""Playing a match: an action (its fast path in ``fastaction``), the event feed and the hard
bot's hint."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from server.api.fastpath import FastPathView
from server.api.idempotency import IDEMPOTENCY_PARAMETER
from server.api.schema import problem_example, problems
from server.api.views import ApiView
from server.core.queries import one_or_none
from server.spitemalice import fastaction, metrics, selectors, services
from server.spitemalice.models import Match
from server.spitemalice.problems import (
    GameOver,
    HintsNotAllowed,
    IllegalAction,
    NotYourTurn,
    StaleAction,
)
from server.spitemalice.serializers import inputs, outputs
from server.spitemalice.views.common import MATCH_ID, TAG, output, write_on_match


class ActionCreateView(FastPathView, ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "moves"

    # Most actions are answered by the fast path; it hands over the rest (see fastaction).
    fast_object = "match_id"
    fast_response = staticmethod(fastaction.action_response)

    def throttle_exempt(self, request) -> bool:
        """An action on your own turn of a match on a clock is never counted against the
        limit (``services.action_unlimited``)."""
        match_id = self.kwargs["match_id"]
        user = request.user
        if not user.is_authenticated:
            return False
        match = one_or_none(Match.objects.filter(pk=match_id)
                            .filter(Q(turn=0, player0=user) | Q(turn=1, player1=user))
                            .only("status", "turn_seconds"))
        return match is not None and services.action_unlimited(match)

    @extend_schema(
        tags=TAG, operation_id="spite_malice_actions_create",
        summary="Play an action; against the bot, its reply follows in the same answer",
        description=(
            "`action` is one of the game's `legal_actions`. Send `game` and `actions` as you "
            "last saw them to be safe against double submission: if given they must match "
            "(else 409 `stale_action`). A bot turn that needs longer than a moment is "
            "finished in the background: follow the events."
        ),
        parameters=[MATCH_ID, IDEMPOTENCY_PARAMETER],
        request=inputs.ActionInput,
        responses={200: outputs.MatchOutput, **problems(
            400, 401, 404, 409, 413, 415, 422, 429,
            s409="`stale_action` (with `game` and `actions`: where the match stands now), "
                 "`not_your_turn` (with `turn`, the seat to act, and `game` and `actions`), "
                 "`game_over` (also when your turn's deadline has passed: the match is then "
                 "lost on time) or `match_not_started`.",
            s422="`illegal_action` (the engine's message, with `legal_actions`: yours now, as "
                 "the match's `game.legal_actions`) or `idempotency_key_reused`.")},
        examples=[
            OpenApiExample("an action", value={"action": ["P", "C0"], "game": 1, "actions": 4},
                           request_only=True),
            problem_example("illegal_action", 422, "That action is not legal now",
                            "action 4 ['7H', 'C0']: C0 needs a 2, not 7H",
                            legal_actions=[["2S", "C0"], ["2S", "S0"], ["7H", "S0"]]),
            problem_example("stale_action", 409, "The game has moved on since you last saw it",
                            "You sent 4 actions, but 6 have been played in game 1.",
                            game=1, actions=6),
            problem_example("not_your_turn", 409, "It is not your turn",
                            "It is your opponent's turn.", turn=1, game=1, actions=6),
        ],
    )
    def post(self, request, match_id):
        data = inputs.ActionInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data

        def play(match, game):
            try:
                current = services.action_play(
                    match=match, game=game, player=request.user, action=values["action"],
                    expected_game=values.get("game"), expected_actions=values.get("actions"))
            except IllegalAction:
                metrics.actions_illegal.inc()
                raise
            except StaleAction:
                metrics.actions_stale.inc()
                raise
            except NotYourTurn:
                metrics.actions_out_of_turn.inc()
                raise
            transaction.on_commit(metrics.actions_stored_full.inc)
            return status.HTTP_200_OK, output(request, match, current)

        return write_on_match(request, match_id, play)


class EventsView(ApiView):
    permission_classes = [IsAuthenticated]
    query_parameters = frozenset({"after", "wait"})

    @extend_schema(
        tags=TAG, operation_id="spite_malice_events_list",
        summary="Everything that happened in the match, as your seat may see it",
        description=(
            "Events after number `after`, in order, at most 1000 at a time: `joined`, "
            "`dealt`, `draw` (your own cards; the opponent's count only), `play`, "
            "`completed`, `discard`, `resigned`, `timeout`, `aborted`, `game_over`, "
            "`match_over`, "
            "`cancelled`. `more` says whether more events follow these: ask again with "
            "`after=last` while it is true. With `wait`, a long poll: when no event after "
            "`after` is stored yet, the answer waits until one is (it comes at once then) or "
            "`wait` seconds pass (then `events` is empty)."
        ),
        parameters=[MATCH_ID, OpenApiParameter(
            "after", {"type": "integer", "minimum": 0, "maximum": 10**9},
            description="The last event number you hold (default 0)."), OpenApiParameter(
            "wait", {"type": "integer", "minimum": 0, "maximum": 60},
            description="Seconds to wait for an event after `after`, 0-60 (default 0: "
                        "answer at once).")],
        responses={200: outputs.EventsOutput, **problems(400, 401, 404)},
    )
    def get(self, request, match_id):
        query = inputs.EventsQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        match = selectors.match_of(request.user, match_id)
        events, last, more = selectors.events_page(match, match.viewer_seat(request.user),
                                                   query.validated_data["after"])
        return Response({"events": events, "last": last, "more": more})


class HintView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "hints"
    throttle_reads = True  # each hint costs the bot's CPU time

    @extend_schema(
        tags=TAG, operation_id="spite_malice_matches_hint",
        summary="The hard bot's suggestion for your next action (matches against the bot)",
        description="The bot sees only what you see. Never in a daily or against a person: "
                    "403 `hints_not_allowed`.",
        parameters=[MATCH_ID],
        responses={200: outputs.MatchHintOutput, **problems(
            401, 403, 404, 409, 429, s403="`hints_not_allowed`: a daily, or not the bot.",
            s409="`game_over` or `not_your_turn` (with `turn`, `game` and `actions`).")},
    )
    def get(self, request, match_id):
        match = selectors.match_of(request.user, match_id)
        if match.mode != Match.Mode.BOT:
            raise HintsNotAllowed("Hints are given only in matches against the bot, never in "
                                  "a daily or against a person.")
        if match.is_over:
            raise GameOver("The match is over; there is nothing to hint.")
        seat = match.seat_of(request.user)
        if match.turn != seat:
            raise services.not_your_turn(match, "It is the bot's turn; ask again when it "
                                                "is yours.")
        game = selectors.current_game(match)
        return Response({"action": services.hint_of(match=match, game=game, seat=seat)})
