"""What a Spite & Malice write tells its players' account streams (``server.streams``).

``drafts_of`` reads a request's ``Log`` (its events, whose request it is, whose turn began)
and the match as the request leaves it, and reads nothing else from the database beyond the
players' names a request has in hand: the full path's ``services._store`` and the action fast
path store what it returns with their other writes.

- ``your_turn``: to a person whose turn began in a request that was not their own (the
  opponent's discard, a join, the bot's turn finished by the worker, a new game dealt by the
  other's request). A person's own request, whose answer shows their turn already (the bot's
  quick reply), does not.
- ``joined``: to an invitation's creator, when someone takes seat 1.
- ``invitation_cancelled``: to the invitee, when the creator withdrew the invitation or it
  expired (an expiry also to the creator).
- ``invitation_declined``: to the creator, when the invitee said no (``reason`` if they gave
  one).
- ``match_started``: to each person seated, when a match's first game is dealt (a match
  against the bot, a daily, an invitation joined or accepted, a seek taken, a rematch
  accepted): lichess's ``gameStart``. The same object, unnumbered, is each match's entry in
  the snapshot of active matches a new stream connection sends first (``active_matches``).
- ``match_over``: to each person seated, when the match finished or was aborted.

``invitation_received`` is stored where an invitation is made (``invitations``).

``game`` is the match's game number, as in the match's own events; the game's name is
``game_name``. Every player named carries ``bot`` and their Spite & Malice ``rating`` (null
while unrated) as they were when the event was stored. The payloads are built in ``shapes``;
this module says who is told what, and when.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q

from server.spitemalice import shapes
from server.spitemalice.models import Match
from server.streams.services import Draft


def active_matches(player_id: object) -> list[tuple[str, dict, datetime]]:
    """``player_id``'s matches being played, as (kind, payload, created_at) of their
    ``match_started``: the snapshot a new account stream connection sends first."""
    found = (Match.objects.select_related("player0", "player1")
             .filter(Q(player0_id=player_id) | Q(player1_id=player_id),
                     status=Match.Status.PLAYING)
             .order_by("started_at", "id"))
    entries = []
    for match in found:
        assert match.started_at is not None  # a match being played has started
        seat = 0 if str(match.player0_id) == str(player_id) else 1
        entries.append(("match_started", shapes.match_started_event(match, seat),
                        match.started_at))
    return entries


def your_turn(match: Match, seat: int, table: dict | None = None,
              ratings: shapes.Ratings | None = None) -> Draft:
    """``your_turn`` for ``seat``'s player of ``match`` as it stands: with the match's latest
    event number (``event``) and the seat's ``table`` as the turn's draw event carries it, so
    that a bot acts on it without reading the match (null when the request has none).
    ``ratings``: the seats' ratings, if the caller read them already."""
    return Draft(getattr(match, f"player{seat}_id"), "your_turn",
                 shapes.your_turn_event(match, seat, table, ratings))


def drafts_of(match: Match, log, ratings: shapes.Ratings | None = None) -> list[Draft]:
    """The account events a request's ``log`` causes, in order (``ratings``: the seats'
    ratings, if the caller read them with the match: the action fast path). Events that
    name a seated player read both seats' ratings once between them, not once each."""
    drafts: list[Draft] = []
    known = ratings

    def seats_rated() -> shapes.Ratings:
        nonlocal known
        if known is None:
            known = shapes.seat_ratings(match)
        return known

    for event in log.events:
        if event.kind == "dealt" and event.seat0["game"] == 1:
            for seat in (0, 1):
                person = getattr(match, f"player{seat}_id")
                if person is not None and seat != match.bot_seat:
                    drafts.append(Draft(person, "match_started", shapes.match_started_event(
                        match, seat, seats_rated())))
        elif event.kind == "joined":
            drafts.append(Draft(match.player0_id, "joined",
                                shapes.joined_event(match, seats_rated())))
        elif event.kind == "cancelled":
            reason = event.seat0["reason"]
            if reason == Match.Reason.DECLINED:
                drafts.append(Draft(match.player0_id, "invitation_declined",
                                    shapes.invitation_declined_event(match)))
                continue
            cancelled = shapes.invitation_cancelled_event(match, reason)
            if match.invitee_id is not None:
                drafts.append(Draft(match.invitee_id, "invitation_cancelled", cancelled))
            if reason == Match.Reason.EXPIRED:
                drafts.append(Draft(match.player0_id, "invitation_cancelled", cancelled))
        elif event.kind in ("match_over", "aborted"):
            for seat in (0, 1):
                person = getattr(match, f"player{seat}_id")
                if person is not None and seat != match.bot_seat:
                    drafts.append(Draft(person, "match_over",
                                        shapes.match_over_event(match, seat)))
    seat = log.turn_for
    if (seat is not None and seat != log.by and match.status == Match.Status.PLAYING
            and match.turn == seat and getattr(match, f"player{seat}_id") is not None):
        drafts.append(your_turn(match, seat, log.turn_table, known))
    return drafts


def invitation_received(match: Match) -> Draft:
    """``invitation_received`` for the invitee of the new waiting ``match``."""
    return Draft(match.invitee_id, "invitation_received",
                 shapes.invitation_received_event(match))
