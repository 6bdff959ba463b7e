"""Which processes of the service are alive, and when the whole service was not.

Every process of the service (each app server's worker and each ``run_jobs`` worker) beats
every ``HEARTBEAT_SECONDS`` from its clock thread (``background.clocks_start``): its
``Heartbeat`` row says when it was last alive, and the one ``Liveness`` row when any of them
was. A beat that finds the service's last sign of life older than ``ALIVE_SECONDS`` ends an
outage: no process of the service was alive for that long (all of them stopped, or hung). It
moves the mark on by compare-and-set, so exactly one process handles each outage however many
start at once, and hands the silence to what the apps registered (``register_outage``: Spite
& Malice moves its running deadlines on by it), in the transaction that moves the mark.

Only an outage of the whole service counts. While any process beats, the mark stays fresh: a
stopped or busy worker beside running app servers bridges nothing, and a read never moves a
deadline. A process that serves a read before its first beat (a test, or a process started
without its clock thread) beats first if the mark is stale: it is alive, and nobody else was.

The rows live in the database, so the same works on PostgreSQL and on the embedded SQLite
default. This module knows no game.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from server.core.queries import one_or_none
from server.jobs.models import Heartbeat, Liveness

logger = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 2.0  # how often each process says it is alive
ALIVE_SECONDS = 10.0  # a process (or the service) silent for longer is not alive
FORGET_AFTER = timedelta(days=1)  # the rows of processes gone this long are deleted
_MARK = 1

_outage_handlers: dict[str, Callable[[timedelta], None]] = {}


def holder() -> str:
    """This process: its host and process id (read anew: a forked worker has its own)."""
    return f"{socket.gethostname()}:{os.getpid()}"[:64]


def register_outage(name: str, handler: Callable[[timedelta], None]) -> None:
    """Call ``handler(silence)`` when a beat ends an outage of the whole service that lasted
    ``silence`` (longer than ``ALIVE_SECONDS``), once per outage, inside the transaction that
    records its end (an error rolls it back, and the next beat tries again)."""
    _outage_handlers[name] = handler


def beat(*, role: str = Heartbeat.Role.APP, now: datetime | None = None,
         process: str | None = None) -> timedelta | None:
    """Record that this process (``process``: another name, for tests) is alive ``now``. The
    outage this beat ended, if the service had no sign of life for longer than
    ``ALIVE_SECONDS`` before it (and this process is the one that handled it), else None."""
    now = now or timezone.now()
    process = process or holder()
    # Two commits, each on one table: a transaction that holds one table's lock while it asks
    # for another's can deadlock with anything that locks both the other way round (a TRUNCATE
    # of every table, whose order is arbitrary).
    with transaction.atomic():
        _heartbeat_store(role, now, process)
    with transaction.atomic():
        return _mark_move(now)


def _heartbeat_store(role: str, now: datetime, process: str) -> None:
    if not Heartbeat.objects.filter(pk=process).update(beat_at=now, role=role):
        Heartbeat.objects.update_or_create(
            pk=process, defaults={"role": role, "started_at": now, "beat_at": now})
        Heartbeat.objects.filter(beat_at__lt=now - FORGET_AFTER).delete()


def _mark_move(now: datetime) -> timedelta | None:
    """Move the service's mark of life on to ``now``; the outage it ends, if this process is
    the one to handle it (``beat``)."""
    last = one_or_none(Liveness.objects.filter(pk=_MARK).values_list("alive_at", flat=True))
    if last is None:  # the first beat ever: nothing is known of before
        try:
            with transaction.atomic():
                Liveness.objects.create(pk=_MARK, alive_at=now)
        except IntegrityError:
            pass  # another process made it first
        return None
    silence = now - last
    if silence < timedelta(seconds=HEARTBEAT_SECONDS):
        return None  # another process moved the mark on within a beat: the service is alive
    # Compare-and-set: of the processes that saw this silence, one moves the mark on and
    # handles it; the others find it moved (someone was alive) and do nothing.
    if not Liveness.objects.filter(pk=_MARK, alive_at=last).update(alive_at=now):
        return None
    if silence <= timedelta(seconds=ALIVE_SECONDS):
        return None
    logger.warning("The service was not alive for %.0f s (no process beat); its clocks "
                   "are moved on by it", silence.total_seconds())
    for handler in _outage_handlers.values():
        handler(silence)
    return silence


def watched(*, now: datetime | None = None) -> None:
    """Before a timeout is applied: make sure an outage that ended is handled first. One
    query while any process beats; a beat of this process when none did (it is alive, and
    nobody was)."""
    now = now or timezone.now()
    last = one_or_none(Liveness.objects.filter(pk=_MARK).values_list("alive_at", flat=True))
    if last is None or now - last > timedelta(seconds=ALIVE_SECONDS):
        beat(role=_role, now=now)


def alive(*, role: str | None = None, now: datetime | None = None) -> list[Heartbeat]:
    """The processes (of ``role``) that beat within ``ALIVE_SECONDS`` of ``now``."""
    now = now or timezone.now()
    found = Heartbeat.objects.filter(beat_at__gt=now - timedelta(seconds=ALIVE_SECONDS))
    if role is not None:
        found = found.filter(role=role)
    return list(found.order_by("role", "holder"))


_role: str = Heartbeat.Role.APP  # what this process beats as; ``run_jobs`` sets "worker"


def role_set(role: str) -> None:
    global _role
    _role = role
