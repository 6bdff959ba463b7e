"""Turn clocks between people: a seat that lets its turn's deadline pass loses the match
(or, before each seat completed its first turn, the match is aborted: nobody loses).

The deadline is stored on the match (``turn_started_at + turn_seconds``, set whenever a turn
begins; the first at join, each seat's first turn given at least ``FIRST_TURN_SECONDS``). A
timeout is applied by whoever notices it first: the worker's sweep every ``SWEEP_SECONDS``
(``manage.py run_jobs`` and the in-process runner), or any read or write of the match after
the deadline. Each applies it under the match's row lock after checking again that the match
is still playing and overdue, so however many of them race, exactly one stores its events
(and rates it).

**Outages.** Nobody can play while the server is down or its clocks stand still, so nobody
may lose on time for it. The sweep records when it last ran (``ClockSweep``); a silence longer
than ``SPITE_MALICE_CLOCK_GAP_SECONDS`` moves every running deadline on by the whole silence
before any timeout is applied - by the sweep, or by a read or write that notices a deadline
first - so a deadline that fell inside the silence is not applied. One process bridges each
silence: the sweep's row is moved on by compare-and-set, in the transaction that extends.

The same sweep cancels the invitations nobody joined in time (``invitations``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from server.spitemalice import invitations, services
from server.spitemalice.models import INVITE_DAYS, ClockSweep, Match, MatchGame

SWEEP_SECONDS = 2.0  # how often the worker looks for turns past their deadline
_SWEEP_ROW = 1


def _silence() -> timedelta:
    return timedelta(seconds=settings.SPITE_MALICE_CLOCK_GAP_SECONDS)


def gap_bridge(now: datetime | None = None) -> timedelta | None:
    """Record that the clocks are being watched ``now``; after a silence longer than the
    allowed gap, first move every running deadline on by the silence. Returns the silence
    bridged (None when there was none to bridge)."""
    now = now or timezone.now()
    last = ClockSweep.objects.filter(pk=_SWEEP_ROW).values_list("ran_at", flat=True).first()
    if last is None:  # the first watch ever: nothing is known of before
        try:
            with transaction.atomic():
                ClockSweep.objects.create(pk=_SWEEP_ROW, ran_at=now)
        except IntegrityError:
            pass  # another process made it first
        return None
    if now <= last:
        return None
    with transaction.atomic():
        # Compare-and-set: of the processes that saw this silence, one moves the mark on and
        # bridges it; the others find the mark moved and do nothing.
        if not ClockSweep.objects.filter(pk=_SWEEP_ROW, ran_at=last).update(ran_at=now):
            return None
        silence = now - last
        if silence <= _silence():
            return None
        Match.objects.filter(status=Match.Status.PLAYING, deadline__isnull=False).update(
            deadline=F("deadline") + silence)
        return silence


def _watched(now: datetime) -> None:
    """Before a timeout is applied outside the sweep: bridge a silence first, if there is one
    (one query when the sweep is running)."""
    last = ClockSweep.objects.filter(pk=_SWEEP_ROW).values_list("ran_at", flat=True).first()
    if last is None or now - last > _silence():
        gap_bridge(now)


def time_out_if_due(match_id) -> bool:
    """End the match ``match_id`` on time if its turn's deadline has passed: the seat to play
    loses (or, in the seats' first turns, the match is aborted). Exactly once, under the
    match's lock. Whether it did."""
    _watched(timezone.now())
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or not match.is_overdue(timezone.now()):
            return False
        game = MatchGame.objects.get(match=match, number=match.game_number)
        if match.is_abortable(game):
            services.match_abort(match=match, game=game, seat=match.turn,
                                 reason=Match.Reason.TIMEOUT)
        else:
            services.match_time_out(match=match, game=game)
        return True


def settle(match: Match) -> bool:
    """Apply what the clock says to ``match`` as just read (a timeout, or an invitation's
    expiry); whether anything changed, in which case read it again."""
    now = timezone.now()
    if match.is_overdue(now):
        # Timed out, or its deadline moved on past an outage: either way, read it again.
        time_out_if_due(match.pk)
        return True
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
    """The worker's pass: a silence bridged first, then every match past its deadline or its
    invitation's days. How many changed."""
    gap_bridge()
    return _apply(list(Match.objects.filter(_due(timezone.now())).values_list("pk", "status")))


def _apply(due: list) -> int:
    changed = 0
    for match_id, status in due:
        if status == Match.Status.PLAYING:
            changed += time_out_if_due(match_id)
        else:
            changed += invitations.expire_if_due(match_id)
    return changed
