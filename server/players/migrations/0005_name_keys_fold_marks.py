"""Names are compared without their combining marks ("Adam Smith" with an acute accent over
its h is "Adam Smith"), and a name stacks at most three of them on a character.

Every player's ``name_key`` is computed again as 0003 did, oldest player first: a name that no
longer counts as a name (more marks stacked than allowed) or whose new key is already an older
player's is replaced by a fresh guest name, which its player can change; the older player
keeps the name. The keys are first set apart (each player's id), so no new key meets an old
one under the unique index while they change.
"""

from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from importlib import import_module

from django.db import migrations
from django.db.models import F
from django.db.models.functions import Cast, Concat
from django.db.models import CharField, Value


def recompute_keys(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Player = apps.get_model("players", "Player")
    Player.objects.update(name_key=Concat(Value("~"), Cast(F("pk"), CharField())))
    import_module("server.players.migrations.0003_name_and_username_keys").recompute_keys(
        apps, schema_editor)


class Migration(migrations.Migration):

    dependencies = [
        ("players", "0004_challenges_and_bots"),
    ]

    operations = [
        migrations.RunPython(recompute_keys, migrations.RunPython.noop, elidable=True),
    ]
