"""Turn clocks between people: a seat that lets its turn's deadline pass loses the match
(or, before each seat completed its first turn, the match is aborted: nobody loses).

The deadline is stored on the match (``turn_started_at + turn_seconds``, set whenever a turn
begins; the first at join, each seat's first turn given at least ``FIRST_TURN_SECONDS``). A
timeout is applied by whoever notices it first: the worker's sweep every ``SWEEP_SECONDS``
(``manage.py run_jobs`` and the in-process runner), or any read or write of the match after
the deadline. Each applies it under the match's row lock after checking again that the match
is still playing and overdue, so however many of them race, exactly one stores its events
(and rates it).

**Outages.** Nobody can play while the service is down, so nobody may lose on time for it.
Every process of the service beats a heartbeat (``server.jobs.liveness``); the beat that ends
a silence of the whole service (no process alive for longer than ``ALIVE_SECONDS``) moves every
running deadline on by the silence (``deadlines_move``), once, before any timeout is applied -
by the sweep, or by a read or write that notices a deadline first. Only such an outage moves a
deadline: a stopped or busy worker beside running app servers moves none, and neither does a
read. The sweep runs on each process's clock thread, never behind a job
(``background.register_periodic(..., clock=True)``), so with app servers up and the worker
stopped, or busy with a long job, a stalled seat still times out on time.

The same sweep cancels the invitations nobody joined in time (``invitations``).
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from server.core.queries import one_or_none
from server.jobs import liveness
from server.spitemalice import invitations, services
from server.spitemalice.models import INVITE_DAYS, Match, MatchGame

SWEEP_SECONDS = 2.0  # how often each process's clock thread looks for turns past their deadline


def deadlines_move(silence: timedelta) -> None:
    """An outage of the whole service ended (``liveness.register_outage``): every running
    deadline moves on by it."""
    Match.objects.filter(status=Match.Status.PLAYING, deadline__isnull=False).update(
        deadline=F("deadline") + silence)


def time_out_if_due(match_id) -> bool:
    """End the match ``match_id`` on time if its turn's deadline has passed: the seat to play
    loses (or, in the seats' first turns, the match is aborted). Exactly once, under the
    match's lock. Whether it did."""
    liveness.watched()
    with transaction.atomic():
        match = one_or_none(Match.objects.select_for_update().filter(pk=match_id))
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
    """Apply what the clock says to ``match`` as just read (a timeout, an invitation's expiry,
    or a daily's date closed); whether anything changed, in which case read it again. No
    query when nothing is due."""
    now = timezone.now()
    if match.is_overdue(now):
        # Timed out, or its deadline moved on past an outage: either way, read it again.
        time_out_if_due(match.pk)
        return True
    if match.is_expired(now):
        return invitations.expire_if_due(match.pk)
    if services.daily_is_due(match):
        return services.daily_close_if_due(match.pk)
    return False


def _due(now) -> Q:
    return (Q(status=Match.Status.PLAYING, deadline__lte=now)
            | Q(status=Match.Status.WAITING, created_at__lte=now - timedelta(days=INVITE_DAYS)))


def settle_player(player) -> int:
    """Settle every match of ``player``'s that is due (before a read of their list): their
    dailies whose date closed, then the turns past their deadline and the invitations past
    their days; two queries when none is."""
    services.dailies_close(player=player)
    now = timezone.now()
    due = (Match.objects.filter(Q(player0=player) | Q(player1=player) | Q(invitee=player))
           .filter(_due(now)).values_list("pk", "status"))
    return _apply(list(due))


def sweep() -> int:
    """The clock thread's pass (after its heartbeat): every match past its deadline or its
    invitation's days. How many changed. One query when none is due."""
    if not Match.objects.filter(_due(timezone.now())).exists():
        return 0
    liveness.watched()  # an outage ended that no beat of this process handled yet: first
    return _apply(list(Match.objects.filter(_due(timezone.now())).values_list("pk", "status")))


def _apply(due: list) -> int:
    changed = 0
    for match_id, status in due:
        if status == Match.Status.PLAYING:
            changed += time_out_if_due(match_id)
        else:
            changed += invitations.expire_if_due(match_id)
    return changed
