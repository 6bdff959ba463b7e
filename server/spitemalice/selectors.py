"""Reads on Spite & Malice matches: a player's matches, one match, its events, a game."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any, TypedDict
from uuid import UUID

from django.db.models import Case, F, IntegerField, Q, QuerySet, Value, When

from server.api.cursors import (
    INTEGER,
    MOMENT,
    NEXT_OR_PREVIOUS,
    UUID_HEX,
    Key,
    Keyset,
    Place,
)
from server.boards.streaks import streaks
from server.core.queries import one_or_none
from server.dailies.calendar import current_dates, daily_number, is_playable
from server.players.models import Player
from server.spitemalice import clocks
from server.spitemalice.models import INVITE_DAYS, MAX_POINTS, Event, Match, MatchGame
from server.spitemalice.problems import GameNotFound, MatchNotFound

EVENTS_PER_PAGE = 1000

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class _Waiting(TypedDict):
    waiting: int  # 1 waiting for the player's action, 0 not (``matches_of``)


def _yours(player: Player) -> Q:
    """The player's matches, and the invitations addressed to them."""
    return Q(player0=player) | Q(player1=player) | Q(invitee=player)


def matches_of(player: Player) -> QuerySet[WithAnnotations[Match, _Waiting]]:
    """The player's matches, those waiting for their action first (their turn, or an
    invitation to them not joined yet), then the latest first."""
    waiting = ((Q(player0=player, turn=0) | Q(player1=player, turn=1))
               & Q(status=Match.Status.PLAYING)) | Q(invitee=player, player1__isnull=True,
                                                     status=Match.Status.WAITING)
    return (Match.objects.filter(_yours(player))
            .select_related("player0", "player1", "invitee", "rematch")
            .annotate(waiting=Case(When(waiting, then=Value(1)), default=Value(0),
                                   output_field=IntegerField()))
            .order_by(*MATCH_KEYSET.order_by()))


# A place in the list of a player's matches: <n the page after it|p the page before it>
# <1 waiting for you|0 not>.<updated_at: microseconds since 1970, UTC>.<the match's id, hex>
MATCH_CURSOR_PATTERN = r"^[np][01]\.(0|[1-9][0-9]{0,15})\.[0-9a-f]{32}$"
# ``matches_of``'s order (waiting for you, then the latest change first, then the id): a
# match that changes while a client pages moves in it without shifting the pages that follow.
MATCH_KEYSET = Keyset(MATCH_CURSOR_PATTERN, (
    Key("waiting", INTEGER, descending=True), Key("updated_at", MOMENT, descending=True),
    Key("id", UUID_HEX, descending=True)), links=NEXT_OR_PREVIOUS)


@dataclass
class MatchPage:
    count: int
    results: list[WithAnnotations[Match, _Waiting]]
    next: Place | None
    previous: Place | None


def matches_page(player: Player, *, limit: int, cursor: Place | None = None,
                 offset: int = 0, turn_me: bool = False,
                 statuses: list[str] | None = None) -> MatchPage:
    """Up to ``limit`` of the player's matches in ``matches_of``'s order: after (or before)
    ``cursor``, else from ``offset`` (the first page at 0), and the places of the pages
    after and before it (None where no match is). ``turn_me``: only those waiting for the
    player's action; ``statuses``: only those in one of them. What the clocks say is applied
    to the player's matches first (``clocks.settle_player``), so the list shows them as they
    stand now."""
    clocks.settle_player(player)
    ordered = matches_of(player)
    if turn_me:
        ordered = ordered.filter(waiting=1)
    if statuses:
        ordered = ordered.filter(status__in=statuses)
    count = ordered.count()
    page = MATCH_KEYSET.page(ordered, limit=limit, cursor=cursor, offset=offset)
    return MatchPage(count=count, results=page.rows, next=page.next, previous=page.previous)


def current_games(matches: list[Match]) -> dict:
    """The current game of each of ``matches``, by match id, in one query."""
    games = MatchGame.objects.filter(match__in=matches, number=F("match__game_number"))
    return {game.match_id: game for game in games}


def match_of(player: Player, match_id: UUID | str) -> Match:
    """The player's match (or the invitation addressed to them), 404 for any other, with what
    its clock says applied first (``clocks.settle``: a timeout, an expiry, a daily's date
    closed; no query when nothing is due), so every read shows it as it stands now."""
    match = _match_read(player, match_id)
    if clocks.settle(match):
        match = _match_read(player, match_id)
    return match


def _match_read(player: Player, match_id: UUID | str) -> Match:
    match = one_or_none(Match.objects.select_related("player0", "player1", "invitee", "rematch")
                        .filter(pk=match_id).filter(_yours(player)))
    if match is None:
        raise MatchNotFound()
    return match


def current_game(match: Match) -> MatchGame:
    return MatchGame.objects.get(match=match, number=match.game_number)


def game_of(match: Match, number: int) -> MatchGame:
    game = one_or_none(MatchGame.objects.filter(match=match, number=number))
    if game is None:
        raise GameNotFound(f"The match has no game {number}: it has played "
                           f"{match.game_number}.")
    return game


def events_of(match: Match, seat: int, after: int) -> tuple[list[dict], int]:
    """The events after number ``after`` as ``seat`` sees them (at most EVENTS_PER_PAGE), and
    the number to ask after next time."""
    events, last, _more = events_page(match, seat, after)
    return events, last


def events_page(match: Match, seat: int, after: int) -> tuple[list[dict], int, bool]:
    """``events_of``, and whether more events follow those (the page was full and one more
    is stored): read as one more row than a page holds, so the answer is exact."""
    rows = list(Event.objects.filter(match=match, number__gt=after).order_by("number")
                .values_list("number", "kind", f"seat{seat}")[:EVENTS_PER_PAGE + 1])
    more = len(rows) > EVENTS_PER_PAGE
    events = [{"number": number, "kind": kind, **seen}
              for number, kind, seen in rows[:EVENTS_PER_PAGE]]
    last = events[-1]["number"] if events else min(after, match.event)
    return events, last, more


def daily_match_of(player: Player, day: date) -> Match | None:
    """The player's daily of ``day``, if they started it: ended unfinished first if its date
    closed (``clocks.settle``)."""
    match = _daily_match_read(player, day)
    if match is not None and clocks.settle(match):
        match = _daily_match_read(player, day)
    return match


def _daily_match_read(player: Player, day: date) -> Match | None:
    return one_or_none(Match.objects.select_related("player0", "player1")
                       .filter(player0=player, mode=Match.Mode.DAILY, daily=day))


def _tally() -> dict[str, int]:
    return {"played": 0, "won": 0, "lost": 0, "tied": 0}


def player_stats(player: Player) -> dict[str, Any]:
    """A player's Spite & Malice: matches and games finished (won, lost, tied), dailies played
    and won, win streaks by daily number, the points of the won dailies and the best one."""
    matches = list(Match.objects.filter(Q(player0=player) | Q(player1=player))
                   .values_list("id", "player0_id", "status", "winner", "mode", "daily",
                                "reason"))
    seats = {match_id: 0 if player0 == player.pk else 1
             for match_id, player0, *_ in matches}
    match_tally, game_tally = _tally(), _tally()
    for match_id, _, status, winner, _, _, reason in matches:
        # A daily whose date closed before its game ended was not played out: not counted.
        if status == Match.Status.FINISHED and reason != Match.Reason.UNFINISHED:
            _count(match_tally, winner, seats[match_id])
    over = MatchGame.objects.filter(match_id__in=seats).exclude(
        status__in=[MatchGame.Status.PLAYING, MatchGame.Status.ABORTED])
    games = over.values_list("match_id", "number", "status", "winner", "points")
    points_of: dict[UUID, int | None] = {}
    for match_id, number, status, winner, points in games:
        _count(game_tally, None if status == MatchGame.Status.TIED else winner, seats[match_id])
        if number == 1:
            points_of[match_id] = points if winner == seats[match_id] else None
    dailies = [(daily, status, winner, points_of.get(match_id))
               for match_id, _, status, winner, mode, daily, _ in matches
               if mode == Match.Mode.DAILY and daily is not None]  # a daily has its date
    won = [(daily, points) for daily, status, winner, points in dailies
           if status == Match.Status.FINISHED and winner == 0 and points]
    first_open = daily_number(current_dates()[0])
    streak = streaks([(daily_number(daily), _daily_status(daily, status, winner))
                      for daily, status, winner, _ in dailies], first_open=first_open)
    distribution = dict.fromkeys(range(1, MAX_POINTS + 1), 0)
    for _, points in won:
        distribution[points] += 1
    best = max(won, key=lambda item: (item[1], -item[0].toordinal()), default=None)
    return {
        "matches": match_tally,
        "games": game_tally,
        "dailies_played": len(dailies),
        "dailies_won": len(won),
        "current_win_streak": streak.current_win,
        "longest_win_streak": streak.longest_win,
        "distribution": {str(points): count for points, count in distribution.items()},
        "best_daily": None if best is None else {
            "date": best[0].isoformat(), "number": daily_number(best[0]), "points": best[1]},
    }


def _daily_status(day: date, status: str, winner: int | None) -> str:
    """A daily as a streak reads it: won, or over without a win, or still being played (a
    daily left unfinished when its date closed is over)."""
    if status == Match.Status.FINISHED:
        return "won" if winner == 0 else "lost"
    return "playing" if is_playable(day) else "unfinished"


def _count(tally: dict[str, int], winner: int | None, seat: int) -> None:
    tally["played"] += 1
    tally["won" if winner == seat else "tied" if winner is None else "lost"] += 1


# --- Open seeks ----------------------------------------------------------------------------------

# A place in the list of open seeks: <created_at: microseconds since 1970, UTC>.<id, hex>
SEEK_CURSOR_PATTERN = r"^(0|[1-9][0-9]{0,15})\.[0-9a-f]{32}$"
# Newest first, then by id: seeks posted while a client pages shift none of its pages.
SEEK_KEYSET = Keyset(SEEK_CURSOR_PATTERN, (Key("created_at", MOMENT, descending=True),
                                           Key("id", UUID_HEX, descending=True)))


def open_seeks(viewer: Player, now: datetime) -> QuerySet[Match]:
    """The open seeks ``viewer`` may take: waiting, within their days, not their own."""
    return (Match.objects.filter(seek=True, status=Match.Status.WAITING,
                                 created_at__gt=now - timedelta(days=INVITE_DAYS))
            .exclude(player0=viewer).select_related("player0")
            .order_by(*SEEK_KEYSET.order_by()))


def seeks_page(viewer: Player, *, limit: int, cursor: Place | None,
               now: datetime) -> tuple[list[Match], Place | None]:
    """Up to ``limit`` open seeks after ``cursor``, and the place of the page after them (None
    if no seek follows)."""
    page = SEEK_KEYSET.page(open_seeks(viewer, now), limit=limit, cursor=cursor)
    return page.rows, page.next
