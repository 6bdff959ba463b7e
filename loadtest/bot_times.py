"""The house bot's time a turn under the load, from the server's own histograms.

The levels' limits are stated in CPU a turn (docs/SPITE_MALICE_BOT.md: 5 ms at easy, 50 ms at
normal, 1 s at p95 and 2 s at most at hard and expert). The benchmark measures them alone
(``spitemalice.bot_bench``); under the load the server counts every turn it plays in
``foursquare_bot_turn_cpu_seconds`` (by level, and by where it ran: in the request of the
person's action, or in the background job), and the report reads them from the same scrape of
``/metrics`` as the routes' times (``loadtest.server_times``). The jobs worker writes its
metrics into the server's folder (``PROMETHEUS_MULTIPROC_DIR``), so its turns are counted too.

Each limit is one of the histogram's bucket edges, so the turns over a limit are counted
exactly; the quantiles are Prometheus's estimates inside a bucket. Beside them, the wait before
the bot's job started (``foursquare_job_start_delay_seconds``, kind ``sm_bot_turn``): what a
person waits for before the search begins, when the level's turns run in the background.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from loadtest.prometheus_check import histogram_quantile
from loadtest.server_times import histogram_buckets

BOT_TURN = "foursquare_bot_turn_cpu_seconds"
JOB_DELAY = "foursquare_job_start_delay_seconds"
BOT_JOB = "sm_bot_turn"  # server.spitemalice.services.BOT_JOB
# The levels' limits, in seconds: easy's 5 ms, normal's 50 ms, and the p95 and the longest turn
# allowed at hard and expert. Each is an edge of the server's buckets.
LIMITS = (0.005, 0.05, 1.0, 2.0)


@dataclass(frozen=True)
class BotTurns:
    level: str
    where: str  # "request" or "job"
    count: int
    p50_ms: float
    p95_ms: float
    over: tuple[int, ...]  # turns over each of LIMITS


@dataclass(frozen=True)
class Wait:
    count: int
    p50_ms: float
    p95_ms: float


def _over(cumulative: dict[float, float], limit: float) -> int:
    return int(cumulative.get(math.inf, 0) - cumulative.get(limit, 0))


def bot_turns(exposition: str) -> list[BotTurns]:
    """Each (level, where)'s turns over the run, by level then where."""
    return [BotTurns(level, where, int(cumulative.get(math.inf, 0)),
                     histogram_quantile(0.5, cumulative) * 1000,
                     histogram_quantile(0.95, cumulative) * 1000,
                     tuple(_over(cumulative, limit) for limit in LIMITS))
            for (level, where), cumulative
            in sorted(histogram_buckets(exposition, BOT_TURN, ("level", "where")).items())
            if cumulative.get(math.inf, 0)]


def bot_job_wait(exposition: str) -> Wait | None:
    """The bot jobs' wait to start over the run, or None when none ran."""
    cumulative = histogram_buckets(exposition, JOB_DELAY, ("kind",)).get((BOT_JOB,), {})
    if not cumulative.get(math.inf, 0):
        return None
    return Wait(int(cumulative[math.inf]), histogram_quantile(0.5, cumulative) * 1000,
                histogram_quantile(0.95, cumulative) * 1000)


def _seconds(limit: float) -> str:
    return f"{limit:g} s" if limit >= 1 else f"{limit * 1000:g} ms"


def report_lines(turns: list[BotTurns], wait: Wait | None) -> list[str]:
    if not turns:
        return []
    limits = " ".join(f"{'> ' + _seconds(limit):>7}" for limit in LIMITS)
    lines = ["the house bot's CPU a turn (the server's histogram; quantiles estimated in "
             "its buckets, turns over a limit exact), whole run:",
             f"{'level':8} {'where':8} {'turns':>7} {'p50 ms':>8} {'p95 ms':>8} {limits}"]
    for turn in turns:
        lines.append(f"{turn.level:8} {turn.where:8} {turn.count:7d} {turn.p50_ms:8.1f} "
                     f"{turn.p95_ms:8.1f} " + " ".join(f"{n:7d}" for n in turn.over))
    if wait is not None:
        lines.append(f"the bot's jobs waited to start: p50 {wait.p50_ms:.1f} ms, "
                     f"p95 {wait.p95_ms:.1f} ms over {wait.count} jobs")
    return lines
