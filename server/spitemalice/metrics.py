"""Spite & Malice's own metrics, in the service's registry (``server.core.metrics``): the
actions stored and refused, and the turn clocks' sweep read at scrape time.
docs/OPERATIONS.md, "Metrics", describes them."""

from __future__ import annotations

from collections.abc import Iterator

from django.utils import timezone
from prometheus_client import Counter
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
