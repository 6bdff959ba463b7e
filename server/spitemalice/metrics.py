"""Spite & Malice's own metrics, in the service's registry (``server.core.metrics``): the
actions stored and refused, the house bot's CPU a turn, and the turn clocks' sweep read at
scrape time.
docs/OPERATIONS.md, "Metrics", describes them."""

from __future__ import annotations

from collections.abc import Iterator

from django.utils import timezone
from prometheus_client import Counter, Histogram
from prometheus_client.core import GaugeMetricFamily, Metric

from server.core.metrics import PREFIX, REGISTRY

actions_stored = Counter(
    f"{PREFIX}_actions_stored", "Spite & Malice actions stored (a player's, each with the bot's "
    "reply if any), by the path that answered them (fast: the two-statement path; full: the "
    "view).", ["path"], registry=REGISTRY)
actions_refused = Counter(
    f"{PREFIX}_actions_refused", "Spite & Malice actions refused as illegal (422 "
    "illegal_action), stale (409 stale_action) or out of turn (409 not_your_turn).",
    ["reason"], registry=REGISTRY)

# The limits of the bot's CPU a turn are stated per level (docs/SPITE_MALICE_BOT.md): 5 ms at
# easy, 50 ms at normal, 1 s at p95 and 2 s at most at hard and expert; each is a bucket's edge.
BOT_TURN_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0)
bot_turn_cpu = Histogram(
    f"{PREFIX}_bot_turn_cpu_seconds", "CPU seconds of the house bot's search for one of its "
    "turns (its thread's CPU time over the calls that played the turn), by level and where "
    "the turn was played (request: within a person's action; job: the background job).",
    ["level", "where"], buckets=BOT_TURN_BUCKETS, registry=REGISTRY)

actions_stored_fast = actions_stored.labels("fast")
actions_stored_full = actions_stored.labels("full")
actions_illegal = actions_refused.labels("illegal")
actions_stale = actions_refused.labels("stale")
actions_out_of_turn = actions_refused.labels("not_your_turn")


def clock_sweep_families() -> Iterator[Metric]:
    """The seconds since the turn clocks' sweep last ran (``clocks``): a few when it runs
    every ``SWEEP_SECONDS``; a growing number when no process sweeps. The sweep keeps no mark
    of its own since the heartbeats replaced it (migration 0009): it runs on every process's
    clock thread beside that process's heartbeat, so the newest heartbeat of any process is
    when a sweep last ran, give or take a beat."""
    from django.db.models import Max

    from server.jobs.models import Heartbeat

    ran_at = Heartbeat.objects.aggregate(newest=Max("beat_at"))["newest"]
    if ran_at is None:
        return  # no process has beaten: nothing to say yet
    family = GaugeMetricFamily(
        f"{PREFIX}_clock_sweep_lag_seconds", "Seconds since Spite & Malice's turn-clock sweep "
        "last ran (it runs every 2 s; a silence past SPITE_MALICE_CLOCK_GAP_SECONDS moves "
        "every deadline on).")
    family.add_metric([], max(0.0, (timezone.now() - ran_at).total_seconds()))
    yield family
