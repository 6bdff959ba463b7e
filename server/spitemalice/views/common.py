"""What the Spite & Malice views share: the schema's tag and match id, the match as the
requesting player sees it, and writing on one (its clock applied by the lock)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import status

from server.api import idempotency
from server.api.headers import LOCATION, absolute_url
from server.spitemalice import invitations, services
from server.spitemalice.models import Match
from server.spitemalice.shapes import match_output

TAG = ["spite-malice"]
MATCH_ID = OpenApiParameter("match_id", OpenApiTypes.UUID, OpenApiParameter.PATH)


def origin_of(request) -> str:
    return request.build_absolute_uri("/").rstrip("/")


def output(request, match: Match, game=None) -> dict:
    """The match as the requesting player sees it."""
    return match_output(match, match.viewer_seat(request.user), game,
                        origin=origin_of(request))


def write_on_match(request, match_id, work):
    """``work(match, game)`` on the player's locked match, once per Idempotency-Key; its clock
    is applied by the lock (``services.match_lock``)."""
    return idempotency.respond_idempotently(
        request, lambda locked: work(*locked),
        lock=lambda: services.match_lock(player=request.user, match_id=match_id))


def located(request, response):
    if response.status_code == status.HTTP_201_CREATED:
        response[LOCATION] = absolute_url(request, "api:sm-match",
                                          match_id=response.data["id"])
    return response


def cancelled(request, match_id):
    """Cancel (or, its invitee, decline; or leave while abortable) the match, and answer with
    it: a cancel's and a seek's withdrawal alike."""

    def cancel(match, game):
        invitations.match_cancel(match=match, game=game, player=request.user)
        return status.HTTP_200_OK, output(request, match)

    return write_on_match(request, match_id, cancel)
