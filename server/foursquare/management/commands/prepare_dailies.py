"""manage.py prepare_dailies: deal the coming dailies ahead of time, proven winnable."""

from __future__ import annotations

from datetime import date, timedelta

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from server.dailies.calendar import utc_today
from server.foursquare.models import Daily
from server.foursquare.preparation import daily_prepare


def _progress(items, **options):
    """tqdm's progress bar when it is installed; the plain items otherwise."""
    try:
        from tqdm import tqdm
    except ImportError:
        return items
    return tqdm(items, **options)


class Command(BaseCommand):
    help = ("Prepare the dailies of the coming days: prove each deal winnable with the solver "
            "(dealing again from the next seed if no win is found) and record the bot's score.")

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=7, help="How many days (default 7).")
        parser.add_argument("--horizon", action="store_true",
                            help="Every day the housekeeping asks to have prepared: from the "
                                 "first date through FAIRNESS_DAYS_AHEAD days on (in place of "
                                 "--days).")
        parser.add_argument("--from", dest="start", type=date.fromisoformat, default=None,
                            help="The first date, YYYY-MM-DD (default: today in UTC).")
        parser.add_argument("--time-budget", type=float, default=None,
                            help="The solver's seconds per deal (default: "
                                 "FOURSQUARE_PREPARE_TIME_BUDGET).")
        parser.add_argument("--force", action="store_true",
                            help="Prepare again the days already prepared.")

    def handle(self, *args, days, horizon, start, time_budget, force, **options):
        if horizon:
            days = settings.FAIRNESS_DAYS_AHEAD + 1
        if days < 1:
            raise CommandError("--days must be at least 1.")
        start = start or utc_today()
        dates = [start + timedelta(days=offset) for offset in range(days)]
        if not force:
            done = set(Daily.objects.filter(date__in=dates, prepared_at__isnull=False)
                       .values_list("date", flat=True))
            dates = [day for day in dates if day not in done]
        for day in _progress(dates, desc="dailies", unit="day", file=self.stderr._out):
            daily, costs = daily_prepare(day, time_budget=time_budget)
            proof = ("no win found" if daily.proof_score is None else
                     f"won with {daily.proof_score}"
                     + (" (optimal)" if daily.proof_optimal else ""))
            bot = daily.bot_status + (f" {daily.bot_score}" if daily.bot_score is not None
                                      else "")
            self.stdout.write(
                f"#{daily.number} {day.isoformat()}: attempt {daily.attempt}, solver {proof} "
                f"in {costs['solver']:.1f} s, bot {bot} in {costs['bot']:.1f} s"
            )
