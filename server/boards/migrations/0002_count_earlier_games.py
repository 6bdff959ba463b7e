"""Count the daily games played before the boards existed."""

from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from django.db import migrations

from server.boards.services import boards_rebuild


def count_earlier_games(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    boards_rebuild(
        board_model=apps.get_model("boards", "Board"),
        standing_model=apps.get_model("boards", "Standing"),
        count_model=apps.get_model("boards", "ScoreCount"),
        game_model=apps.get_model("games", "Game"),
    )


class Migration(migrations.Migration):
    dependencies = [
        ("boards", "0001_initial"),
        ("games", "0001_initial"),
    ]

    operations = [migrations.RunPython(count_earlier_games, migrations.RunPython.noop)]
