"""Spite & Malice's background work, declared to the job queue (``server.jobs.background``)
when the app is ready: the bot's long turns, the turn clocks, the dailies' closing."""

from __future__ import annotations

from datetime import timedelta

from server.jobs import background

HOUSEKEEPING_SECONDS = 3600
# A bot turn takes seconds (docs/BOT.md); one still running after this was cut short by its
# process's end, and is played again (its attempt counted) rather than waiting 15 minutes.
BOT_TURN_STALE_AFTER = timedelta(minutes=2)


def register() -> None:
    from server.jobs import liveness
    from server.spitemalice import bot_ratings, clocks, fairness, services

    background.register_task(services.BOT_JOB, services.bot_turn_job,
                             given_up=services.bot_turn_give_up,
                             stale_after=BOT_TURN_STALE_AFTER)
    # Safe in every process at once (clocks.py says why): no lease, every process watches,
    # on its clock thread.
    background.register_periodic("spite-malice clocks", clocks.SWEEP_SECONDS, clocks.sweep,
                                 report="{} Spite & Malice matches ended on time or "
                                        "invitations expired", clock=True)
    liveness.register_outage("spite-malice deadlines", clocks.deadlines_move)
    background.register_periodic(
        "spite-malice dailies", HOUSEKEEPING_SECONDS, services.dailies_close, once=True,
        report="closed {} Spite & Malice dailies left unfinished")
    background.register_periodic(
        "spite-malice dailies ahead", HOUSEKEEPING_SECONDS, fairness.dailies_ahead, once=True,
        report="dealt and committed {} Spite & Malice dailies ahead")
    # The house bot's levels against one another, an hour's games at a time, on the bulk lane:
    # nothing waits on them (docs/RATINGS.md, "Bots").
    background.register_task(bot_ratings.LEVELS_JOB, bot_ratings.levels_play,
                             priority=background.BULK)
    background.register_periodic(
        "spite-malice levels", bot_ratings.LEVELS_SECONDS, bot_ratings.levels_enqueue,
        once=True, report="queued {} games between the house bot's levels")
