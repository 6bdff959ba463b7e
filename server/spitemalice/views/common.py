"""What the Spite & Malice views share: the schema's tag and match id, the match as the
requesting player sees it, reading a match and writing on one (its clock applied first)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import status

from server.api import idempotency
from server.api.headers import LOCATION, absolute_url
from server.spitemalice import clocks, invitations, selectors, services
from server.spitemalice.engine import match_output
from server.spitemalice.models import Match
from server.spitemalice.problems import DeadlinePassed

TAG = ["spite-malice"]
MATCH_ID = OpenApiParameter("match_id", OpenApiTypes.UUID, OpenApiParameter.PATH)


def origin_of(request) -> str:
    return request.build_absolute_uri("/").rstrip("/")


def output(request, match: Match, game=None) -> dict:
    """The match as the requesting player sees it."""
    return match_output(match, match.viewer_seat(request.user), game,
                        origin=origin_of(request))


def match_read(request, match_id) -> Match:
    """The player's match, its clock applied first."""
    match = selectors.match_of(request.user, match_id)
    if clocks.settle(match):
        match = selectors.match_of(request.user, match_id)
    return match


def write_on_match(request, match_id, work):
    """``work(match, game)`` on the player's locked match, once per Idempotency-Key. A write
    that finds the turn's deadline passed is refused, and the timeout then applied in a
    transaction of its own (the refused one rolls back) - unless the clocks had stood still
    (an outage: ``clocks``), when the deadline moves on instead and the write is tried
    again, once."""

    def attempt():
        return idempotency.respond_idempotently(
            request, lambda locked: work(*locked),
            lock=lambda: services.match_lock(player=request.user, match_id=match_id))

    try:
        return attempt()
    except DeadlinePassed:
        if clocks.time_out_if_due(match_id):
            raise
    return attempt()


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
