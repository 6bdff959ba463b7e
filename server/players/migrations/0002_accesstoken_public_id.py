"""Tokens get a random public id: the API stops showing their sequential primary keys."""

from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

import uuid

from django.db import migrations, models

BATCH = 1_000


def give_existing_tokens_a_public_id(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    AccessToken = apps.get_model("players", "AccessToken")
    tokens = AccessToken.objects.filter(public_id__isnull=True).only("pk")
    while batch := list(tokens[:BATCH]):
        for token in batch:
            token.public_id = uuid.uuid4()
        AccessToken.objects.bulk_update(batch, ["public_id"])


class Migration(migrations.Migration):

    dependencies = [
        ("players", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="accesstoken",
            name="public_id",
            field=models.UUIDField(editable=False, null=True),
        ),
        migrations.RunPython(give_existing_tokens_a_public_id, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="accesstoken",
            name="public_id",
            field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True),
        ),
    ]
