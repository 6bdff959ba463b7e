"""Which daily games rank on the global boards: those whose player's account was trusted when
they started - claimed by then, and created before the daily's date (in UTC)."""

from datetime import UTC

from django.db import migrations, models
from django.db.models import F
from django.utils import timezone


def rank_earlier_games(apps, schema_editor):
    game_model = apps.get_model("games", "Game")
    with timezone.override(UTC):  # the account's creation date in UTC, as the service decides
        game_model.objects.filter(
            mode="daily", player__claimed_at__isnull=False,
            player__claimed_at__lte=F("created_at"),
            player__created_at__date__lt=F("daily_id"),
        ).update(ranked=True)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0002_daily_preparation_jobs_analyses"),
        ("players", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="ranked",
            field=models.BooleanField(default=False, help_text="A daily game on the global boards: its player's account was trusted when it started (claimed, and created before the daily's date)."),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(condition=models.Q(("ranked", False), ("mode", "daily"), _connector="OR"), name="game_ranked_only_daily"),
        ),
        migrations.RunPython(rank_earlier_games, migrations.RunPython.noop),
    ]
