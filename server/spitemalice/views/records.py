"""A finished game's record, and the seeds behind a match: its fairness and the commitment
for the next match against the bot (docs/FAIRNESS.md)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from server.api.problems import NotFound
from server.api.schema import problems
from server.api.views import ApiView
from server.fairness.serializers import SeedsOutput
from server.spitemalice import fairness, selectors, services
from server.spitemalice.problems import GameInProgress
from server.spitemalice.serializers import outputs
from server.spitemalice.shapes import offer_output, record_output
from server.spitemalice.views.common import MATCH_ID, TAG


class RecordView(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=TAG, operation_id="spite_malice_games_record",
        summary="A game's seed and actions, and the whole deal laid open, once it is over",
        parameters=[MATCH_ID, OpenApiParameter("number", {"type": "integer", "minimum": 1},
                                               OpenApiParameter.PATH)],
        responses={200: outputs.MatchRecordOutput, **problems(
            401, 404, 409, s409="`game_in_progress`: the deal stays hidden until the end.")},
    )
    def get(self, request, match_id, number: int):
        match = selectors.match_of(request.user, match_id)
        game = selectors.game_of(match, number)
        if not game.is_over:
            raise GameInProgress("Finish the game first: the deal stays hidden until the end.")
        return Response(record_output(game, fairness.match_fairness(match)))


class MatchFairnessView(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=TAG, operation_id="spite_malice_matches_fairness",
        summary="The commitment to a match's server seed; its seeds once the match is over",
        description="Made in the fairness log when the match was created, before any card was "
                    "dealt (docs/FAIRNESS.md). A daily has none: its date's commitment "
                    "(`GET /api/v1/fairness/commitments/spitemalice/{date}`) covers it.",
        parameters=[MATCH_ID],
        responses={200: SeedsOutput, **problems(
            401, 404, s404="`not_found`: no such match of yours, or a daily.")},
    )
    def get(self, request, match_id):
        match = selectors.match_of(request.user, match_id)
        seeds = fairness.match_fairness(match)
        if seeds is None:
            raise NotFound("A daily has no server seed: its date's commitment covers it "
                           f"(GET /api/v1/fairness/commitments/spitemalice/{match.daily}).")
        return Response(seeds)


class BotCommitmentView(ApiView):
    permission_classes = [IsAuthenticated]
    takes_body = False

    @extend_schema(
        tags=TAG, operation_id="spite_malice_bot_commitment",
        summary="The commitment to the server seed of your next match against the bot",
        description="Drawn and committed in the fairness log now, before you choose the client "
                    "seed to mix with it (docs/FAIRNESS.md, \"Against the house bot\"): send "
                    "both with `POST /spite-malice/matches` (`commitment`, `client_seed`), and "
                    "the match (its id in `subject`) is dealt from them. The same one until a "
                    "match takes it.",
        request=None,
        responses={200: SeedsOutput, **problems(401)},
    )
    def post(self, request):
        seeds = services.bot_seed_offer(player=request.user)
        return Response(offer_output(seeds))
