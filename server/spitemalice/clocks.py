"""Turn clocks between people: a seat that lets its turn's deadline pass loses the match.

The deadline is stored on the match (``turn_started_at + turn_seconds``, set whenever a turn
begins; the first at join). A timeout is applied by whoever notices it first: the worker's
sweep every ``SWEEP_SECONDS`` (``manage.py run_jobs`` and the in-process runner), or any read
or write of the match after the deadline. Each applies it under the match's row lock after
checking again that the match is still playing and overdue, so however many of them race,
exactly one stores the ``timeout``, ``game_over`` and ``match_over`` events (and rates it).
The same sweep cancels the invitations nobody joined in time (``invitations``).
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from server.spitemalice import invitations, services
from server.spitemalice.models import INVITE_DAYS, Match, MatchGame
from server.spitemalice.table import Log

SWEEP_SECONDS = 2.0  # how often the worker looks for turns past their deadline


def time_out_if_due(match_id) -> bool:
    """End the match ``match_id`` on time if its turn's deadline has passed: the seat to play
    loses. Exactly once, under the match's lock. Whether it did."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or not match.is_overdue(timezone.now()):
            return False
        game = MatchGame.objects.get(match=match, number=match.game_number)
        log = Log(match)
        seat, deadline = match.turn, match.deadline
        game.status = MatchGame.Status.TIMEOUT
        game.winner = 1 - seat
        game.finished_at = log.now
        log.event("timeout", {"game": game.number, "seat": seat,
                              "deadline": deadline.isoformat().replace("+00:00", "Z")})
        log.event("game_over", {"game": game.number, "status": game.status,
                                "winner": game.winner, "points": None, "scores": match.scores})
        services._match_end(match=match, log=log, winner=1 - seat, reason=Match.Reason.TIMEOUT)
        services._store(match=match, game=game, new_games=[], log=log)
        return True


def settle(match: Match) -> bool:
    """Apply what the clock says to ``match`` as just read (a timeout, or an invitation's
    expiry); whether anything changed, in which case read it again."""
    now = timezone.now()
    if match.is_overdue(now):
        return time_out_if_due(match.pk)
    if match.is_expired(now):
        return invitations.expire_if_due(match.pk)
    return False


def _due(now) -> Q:
    return (Q(status=Match.Status.PLAYING, deadline__lte=now)
            | Q(status=Match.Status.WAITING, created_at__lte=now - timedelta(days=INVITE_DAYS)))


def settle_player(player) -> int:
    """Settle every match of ``player``'s that is due (before a read of their list): one query
    when none is."""
    now = timezone.now()
    due = (Match.objects.filter(Q(player0=player) | Q(player1=player) | Q(invitee=player))
           .filter(_due(now)).values_list("pk", "status"))
    return _apply(list(due))


def sweep() -> int:
    """The worker's pass: every match past its deadline or its invitation's days. How many
    changed."""
    return _apply(list(Match.objects.filter(_due(timezone.now())).values_list("pk", "status")))


def _apply(due: list) -> int:
    changed = 0
    for match_id, status in due:
        if status == Match.Status.PLAYING:
            changed += time_out_if_due(match_id)
        else:
            changed += invitations.expire_if_due(match_id)
    return changed
