"""Turn clocks that only an outage of the whole service stops (issue 36, section 1): the
heartbeats of every process, the sweep on a clock thread of its own, and urgent jobs first.

Time is a fake clock (``FakeClock`` patches ``django.utils.timezone.now``), moved on by the
test; nothing waits for real minutes."""

from __future__ import annotations

import dataclasses
import threading
from datetime import datetime, timedelta

import pytest
from django.db import connection
from django.utils import timezone

from server.jobs import background, liveness
from server.jobs.models import Heartbeat, Job, Liveness
from server.ratings.models import RatedMatch
from server.spitemalice import clocks
from server.spitemalice.models import Event, Match
from tests.server.concurrently import race
from tests.server.jobs.support import eventually
from tests.server.spitemalice.friend_support import pair, whose_turn
from tests.server.spitemalice.support import url

pytestmark = pytest.mark.sqlite

TURN = 60


class FakeClock:
    """``timezone.now()`` for every caller, moved on only by ``advance``; safe across threads."""

    def __init__(self, start: datetime) -> None:
        self._now = start
        self._lock = threading.Lock()

    def __call__(self) -> datetime:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> datetime:
        with self._lock:
            self._now += timedelta(seconds=seconds)
            return self._now


@pytest.fixture
def clock(monkeypatch) -> FakeClock:
    fake = FakeClock(timezone.now())
    monkeypatch.setattr(timezone, "now", fake)
    return fake


def stalled_match(make_trusted_player, clock: FakeClock, names=("Ada", "Bob")):
    """A 60-second match past both first turns whose seat to play has just begun its turn
    (at the fake clock's now) and stalls."""
    apis, views = pair(make_trusted_player, turn_seconds=TURN, names=names, first_turns=True)
    deadline = clock() + timedelta(seconds=TURN)
    Match.objects.filter(pk=views[0]["id"]).update(turn_started_at=clock(), deadline=deadline)
    return apis, views, deadline


def worker_stopped(clock: FakeClock) -> None:
    """A worker that beat long ago and has not since (stopped), beside the service that was
    alive until now."""
    Heartbeat.objects.create(holder="worker-host:1", role=Heartbeat.Role.WORKER,
                             started_at=clock() - timedelta(hours=1),
                             beat_at=clock() - timedelta(minutes=5))
    Liveness.objects.update_or_create(pk=1, defaults={"alive_at": clock()})


def over(match_id) -> tuple[str, str]:
    stored = Match.objects.get(pk=match_id)
    return stored.status, stored.reason


def test_with_the_worker_stopped_the_app_times_a_stalled_seat_out_on_time(
        make_trusted_player, clock):
    """The reproduction: app up, worker stopped, a seat stalls on a 60 s turn; every read
    bridged the sweep's silence and moved the deadline on, 5 times in 4 minutes."""
    apis, views, deadline = stalled_match(make_trusted_player, clock)
    worker_stopped(clock)
    seat = whose_turn(views)
    ticker = background.clock_ticker(Heartbeat.Role.APP)  # what the app's clock thread runs

    for second in range(TURN + 2):
        ticker.run_due(float(second))
        if second % 5 == 0:  # the opponent watches the match
            seen = apis[1 - seat].get(url(views[0])).json()
            if seen["status"] == "playing":
                assert seen["deadline"] == deadline.isoformat().replace("+00:00", "Z")
        if second < TURN:
            assert over(views[0]["id"]) == ("playing", "")
            assert Match.objects.get(pk=views[0]["id"]).deadline == deadline
        clock.advance(1)

    assert over(views[0]["id"]) == ("finished", "timeout")
    assert Match.objects.get(pk=views[0]["id"]).winner == 1 - seat
    assert [alive.role for alive in liveness.alive()] == ["app"]  # the worker is not


def test_a_read_never_moves_a_deadline_while_an_app_process_is_alive(make_trusted_player,
                                                                      clock):
    apis, views, deadline = stalled_match(make_trusted_player, clock)
    worker_stopped(clock)
    for step in range(TURN // 2):  # another app process beats; this one only reads
        clock.advance(2)
        liveness.beat(role=Heartbeat.Role.APP, process="app-host:2")
        if step % 5 == 0:
            apis[0].get(url(views[0]))
            assert Match.objects.get(pk=views[0]["id"]).deadline == deadline
    clock.advance(1)
    liveness.beat(role=Heartbeat.Role.APP, process="app-host:2")
    apis[0].get(url(views[0]))  # the first read past the deadline applies it
    assert over(views[0]["id"]) == ("finished", "timeout")
    assert Match.objects.get(pk=views[0]["id"]).deadline is None
    assert Event.objects.filter(match_id=views[0]["id"], kind="match_over").count() == 1


def test_a_true_outage_still_moves_every_deadline_on_once(make_trusted_player, clock):
    """Every process stopped for 95 s: the deadlines move on by the outage, by the first
    process that beats again, and once however many start at once."""
    apis, views, deadline = stalled_match(make_trusted_player, clock)
    worker_stopped(clock)
    clock.advance(95)

    ended = [liveness.beat(role=Heartbeat.Role.APP, process=f"app-host:{n}") for n in (1, 2)]
    ended.append(liveness.beat(role=Heartbeat.Role.WORKER, process="worker-host:1"))

    assert ended == [timedelta(seconds=95), None, None]
    assert Match.objects.get(pk=views[0]["id"]).deadline == deadline + timedelta(seconds=95)
    assert clocks.sweep() == 0
    seen = apis[0].get(url(views[0])).json()
    assert seen["status"] == "playing"


def test_a_stalled_worker_beside_live_app_processes_moves_nothing(make_trusted_player, clock):
    """A 40-second job holds the worker's loop: the app processes beat meanwhile, so the
    service was never down and no deadline moves; the stalled seat times out on time."""
    _, views, deadline = stalled_match(make_trusted_player, clock)
    worker_stopped(clock)
    for _ in range(TURN // 2 + 1):
        clock.advance(2)
        liveness.beat(role=Heartbeat.Role.APP, process="app-host:1")
        clocks.sweep()
        if clock() < deadline:
            assert Match.objects.get(pk=views[0]["id"]).deadline == deadline
    assert over(views[0]["id"]) == ("finished", "timeout")


# --- The clock thread and the lanes, for real ---------------------------------------------------

LONG = "test_long"
URGENT = "test_urgent"


@pytest.fixture
def long_job(settings, monkeypatch):
    """A bulk task that runs until the test releases it (a 40-second analysis), and an urgent
    one (a bot's turn); the runner threads and the clock thread stopped after. The clock
    thread ticks often in real time: the fake clock is what says how much time has passed."""
    settings.FOURSQUARE_BACKGROUND = "thread"
    monkeypatch.setattr(background, "TICK_SECONDS", 0.02)
    monkeypatch.setattr(liveness, "HEARTBEAT_SECONDS", 0.01)
    monkeypatch.setattr(background, "_periodic", {
        name: dataclasses.replace(periodic, seconds=0.01) if periodic.clock else periodic
        for name, periodic in background._periodic.items()})
    release = threading.Event()
    started = threading.Event()
    done: list[str] = []

    def long(key: str) -> None:
        started.set()
        release.wait(120)

    background.register_task(LONG, long, priority=background.BULK)
    background.register_task(URGENT, done.append)
    try:
        yield release, started, done
    finally:
        release.set()
        background.runner_stop()
        background.clocks_stop()
        background._tasks.pop(LONG, None)
        background._tasks.pop(URGENT, None)


@pytest.mark.django_db(transaction=True)
def test_a_long_job_delays_no_clock_and_a_bot_turn_starts_before_twelve_analyses(
        make_trusted_player, clock, long_job):
    _release, started, done = long_job
    _, views, deadline = stalled_match(make_trusted_player, clock)
    worker_stopped(clock)
    background.clocks_start(Heartbeat.Role.WORKER)  # the worker's clock thread
    for number in range(12):
        background.job_enqueue(kind=LONG, key=str(number))
    assert started.wait(10)  # the first analysis runs, and holds the bulk lane
    background.job_enqueue(kind=URGENT, key="bot-turn")

    assert eventually(lambda: done == ["bot-turn"])  # started at once, beside the analysis
    assert Job.objects.filter(kind=LONG, status=Job.Status.PENDING).count() == 11
    for _ in range(TURN // 2 + 1):  # 62 s of the long job, in steps the clock thread sees
        now = clock.advance(2)
        assert eventually(lambda now=now: Heartbeat.objects.filter(beat_at__gte=now).exists())
        if now < deadline:
            assert Match.objects.get(pk=views[0]["id"]).deadline == deadline
    assert eventually(lambda: over(views[0]["id"]) == ("finished", "timeout"))
    assert Job.objects.get(kind=LONG, key="0").status == Job.Status.RUNNING  # still held


@pytest.mark.django_db
def test_a_bot_turn_queued_behind_twelve_analyses_is_claimed_first(settings):
    settings.FOURSQUARE_BACKGROUND = "off"
    ran: list[str] = []
    background.register_task(LONG, lambda key: ran.append(f"analysis {key}"),
                             priority=background.BULK)
    background.register_task(URGENT, lambda key: ran.append(f"bot {key}"))
    try:
        for number in range(12):
            background.job_enqueue(kind=LONG, key=str(number))
        background.job_enqueue(kind=URGENT, key="turn")
        background.job_run_next()
        assert ran == ["bot turn"]
        assert background.job_run_next(background.LANES[0].jobs()) is None  # urgent lane: none
        background.job_run_next(background.LANES[-1].jobs())
        assert ran == ["bot turn", "analysis 0"]
    finally:
        background._tasks.pop(LONG, None)
        background._tasks.pop(URGENT, None)


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_two_workers_and_two_app_processes_time_each_match_out_exactly_once(
        make_trusted_player, clock):
    matches = [stalled_match(make_trusted_player, clock, names=names)
               for names in (("Ada", "Bob"), ("Cy", "Dee"), ("Eve", "Fay"))]
    worker_stopped(clock)
    processes = [(Heartbeat.Role.APP, "app-host:1"), (Heartbeat.Role.APP, "app-host:2"),
                 (Heartbeat.Role.WORKER, "worker-host:1"),
                 (Heartbeat.Role.WORKER, "worker-host:2")]

    def clock_pass(index: int) -> int:
        role, process = processes[index]
        liveness.beat(role=role, process=process)
        return clocks.sweep()

    ended = 0
    for _ in range(TURN // 2 + 1):
        clock.advance(2)
        ended += sum(race(clock_pass, count=len(processes)))
    connection.close()

    assert ended == len(matches)
    for _, views, _ in matches:
        assert over(views[0]["id"]) == ("finished", "timeout")
        assert Event.objects.filter(match_id=views[0]["id"], kind="match_over").count() == 1
        assert RatedMatch.objects.filter(match_id=views[0]["id"]).count() == 1
    assert len(liveness.alive()) == 4
