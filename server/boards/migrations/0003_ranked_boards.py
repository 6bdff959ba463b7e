"""The ranked boards: longer keys (``2026-11-29:ranked``), and every board counted again from
the games, now that each daily game says whether it is ranked."""

from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from django.db import migrations, models

from server.boards.services import boards_rebuild


def count_ranked_games(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    boards_rebuild(
        board_model=apps.get_model("boards", "Board"),
        standing_model=apps.get_model("boards", "Standing"),
        count_model=apps.get_model("boards", "ScoreCount"),
        game_model=apps.get_model("games", "Game"),
    )


class Migration(migrations.Migration):

    dependencies = [
        ("boards", "0002_count_earlier_games"),
        ("games", "0003_game_ranked"),
    ]

    operations = [
        migrations.AlterField(
            model_name="board",
            name="key",
            field=models.CharField(help_text="2026-11-29 (a daily), 2026-W48 (an ISO week) or all: every player's dailies; with :ranked (2026-11-29:ranked) only the ranked dailies.", max_length=20),
        ),
        migrations.RunPython(count_ranked_games, migrations.RunPython.noop),
    ]
