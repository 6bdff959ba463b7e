"""Foursquare's background work, declared to the job queue (``server.jobs.background``) when
the app is ready: its tasks, the races' closing on time and its share of the hourly housekeeping."""

from __future__ import annotations

from django.conf import settings

from server.jobs import background

DAILY_PREPARE = "daily_prepare"  # key: the daily's date
GAME_ANALYSE = "game_analyse"  # key: the game's id
HOUSEKEEPING_SECONDS = 3600


def register() -> None:
    from server.foursquare import analysis, fairness, preparation, services
    from server.foursquare.races import services as races

    # Minutes of solver CPU that no game waits on: after, and beside, what a game waits on.
    background.register_task(DAILY_PREPARE, preparation.daily_prepare_job,
                             priority=background.BULK)
    background.register_task(GAME_ANALYSE, analysis.game_analyse_job, priority=background.BULK)
    background.register_task(races.RACE_BOT, races.race_bot_job)
    # Closing a race is idempotent under its lock: safe in every process at once, no lease.
    background.register_periodic(
        "foursquare races", settings.RACE_SWEEP_SECONDS, races.races_close_due,
        report="closed {} Foursquare races whose time was up", clock=True)
    background.register_periodic(
        "foursquare dailies", HOUSEKEEPING_SECONDS, services.dailies_close, once=True,
        report="closed {} Foursquare dailies left unfinished")
    # Prepared (and so committed in the fairness log) a week and more ahead.
    background.register_periodic(
        "foursquare dailies ahead", HOUSEKEEPING_SECONDS, fairness.dailies_ahead, once=True,
        report="asked for {} Foursquare dailies to be prepared and committed ahead")
