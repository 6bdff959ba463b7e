"""The fairness API: the daily commitments of a game, the log, and the key. Public and the same
for everyone (a token, if sent, is only checked, as everywhere): answers may be cached for a
minute."""

from __future__ import annotations

import base64
from datetime import date, timedelta

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from fairness import key_id
from server.api.schema import problems
from server.api.views import ApiView
from server.dailies.calendar import utc_today
from server.fairness import games, selectors, signing
from server.fairness import serializers as s
from server.fairness.problems import UnknownDate, UnknownGame, UnknownKey
from server.fairness.serializers import KEY_ID_PATTERN

TAG = ["fairness"]
CACHEABLE = "public, max-age=60"
GAME = OpenApiParameter("game", {"type": "string"}, OpenApiParameter.PATH,
                        description="`foursquare` or `spitemalice`.")
DATE = OpenApiParameter("date", {"type": "string", "format": "date"}, OpenApiParameter.PATH)


def _game(name: str) -> games.FairGame:
    game = games.game_of(name)
    if game is None:
        raise UnknownGame(f"No game is called {name[:40]!r}: one of {', '.join(games.names())}.")
    return game


class PublicView(ApiView):
    permission_classes = [AllowAny]
    throttle_scope = "boards"
    throttle_reads = True

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if response.status_code == 200:
            response["Cache-Control"] = CACHEABLE
        return response


class CommitmentsView(PublicView):
    query_parameters = frozenset({"game", "from", "to", "limit", "cursor"})

    @extend_schema(
        tags=TAG, operation_id="fairness_commitments",
        summary="A game's daily commitments, by date, with the seeds of the dates that are over",
        parameters=[
            OpenApiParameter("game", {"type": "string", "minLength": 1, "maxLength": 40},
                             required=True,
                             description="`foursquare` or `spitemalice`."),
            OpenApiParameter("from", {"type": "string", "format": "date"}),
            OpenApiParameter("to", {"type": "string", "format": "date"}),
            OpenApiParameter("limit", {"type": "integer", "minimum": 1,
                                       "maximum": s.MAX_LIMIT}),
            OpenApiParameter("cursor", {"type": "string", "format": "date"},
                             description="From the previous page's `next`."),
        ],
        responses={200: s.CommitmentPageOutput, **problems(404, s404="`not_found`: no such "
                                                                    "game.")},
    )
    def get(self, request):
        query = s.CommitmentQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = query.validated_data
        game = _game(data["game"])
        last = data.get("to") or utc_today() + timedelta(days=8)
        first = data.get("from") or last - timedelta(days=30)
        if "cursor" in data:
            first = max(first, data["cursor"] + timedelta(days=1))
        items, more = selectors.daily_commitments(game=game, first=first, last=last,
                                                  limit=data["limit"])
        next_url = None
        if more:
            next_url = replace_query_param(request.build_absolute_uri(), "cursor",
                                           items[-1].date.isoformat())
        return Response({"entries": [s.commitment_output(item) for item in items],
                         "next": next_url})


class CommitmentView(PublicView):
    @extend_schema(
        tags=TAG, operation_id="fairness_commitment",
        summary="One date's daily commitment (its seed once the date is over everywhere)",
        parameters=[GAME, DATE],
        responses={200: s.DailyCommitmentOutput,
                   **problems(404, s404="`not_found`: no such game, or no commitment to that "
                                        "date.")},
    )
    def get(self, request, game: str, **path: str):
        date_text = path["date"]  # the path's name; ``date`` here is the class
        fair_game = _game(game)
        try:
            day = date.fromisoformat(date_text)
        except ValueError:
            raise UnknownDate(f"{date_text[:20]!r} is not a date (YYYY-MM-DD).") from None
        items, _ = selectors.daily_commitments(game=fair_game, first=day, last=day, limit=1)
        if not items:
            raise UnknownDate(f"No {game} daily of {day.isoformat()} is committed.")
        return Response(s.commitment_output(items[0]))


class LogView(PublicView):
    query_parameters = frozenset({"after", "limit"})

    @extend_schema(
        tags=TAG, operation_id="fairness_log",
        summary="The log's entries in order, to check the chain and the signatures",
        parameters=[
            OpenApiParameter("after", {"type": "integer", "minimum": 0,
                                       "maximum": s.MAX_SEQ}),
            OpenApiParameter("limit", {"type": "integer", "minimum": 1,
                                       "maximum": s.LOG_LIMIT}),
        ],
        responses={200: s.LogPageOutput},
    )
    def get(self, request):
        query = s.LogQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        rows = selectors.log_entries(after=query.validated_data["after"],
                                     limit=query.validated_data["limit"])
        next_url = None
        if len(rows) == query.validated_data["limit"]:
            next_url = replace_query_param(request.build_absolute_uri(), "after", rows[-1].seq)
        return Response({"entries": [s.log_entry_output(row) for row in rows],
                         "next": next_url})


class KeyView(PublicView):
    query_parameters = frozenset({"key_id"})

    @extend_schema(
        tags=TAG, operation_id="fairness_key",
        summary="The Ed25519 public key that signs the log, and the earlier ones",
        parameters=[OpenApiParameter(
            "key_id", {"type": "string", "pattern": KEY_ID_PATTERN},
            description="Only the key with this id (an entry's `key_id`), current or earlier.")],
        responses={200: s.KeyOutput, **problems(404, s404="`not_found`: no key has that id.")},
    )
    def get(self, request):
        query = s.KeyQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        wanted = query.validated_data.get("key_id")
        current = signing.public_key()
        previous = [raw for raw in signing.previous_public_keys()
                    if wanted is None or key_id(raw) == wanted]
        if wanted is not None and key_id(current) != wanted and not previous:
            raise UnknownKey(f"No key of this log has the id {wanted}.")
        return Response({
            "algorithm": "Ed25519", "key_id": key_id(current),
            "public_key": base64.b64encode(current).decode(),
            "previous": [{"key_id": key_id(raw), "public_key": base64.b64encode(raw).decode()}
                         for raw in previous],
        })
