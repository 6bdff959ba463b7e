"""The Idempotency-Key store now belongs to the shared api app (``server.api``): only Django's
record of the model moves; the table and its rows stay as they are."""

from django.db import migrations


def content_type_move(apps, schema_editor, source="games", target="api"):
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label=target, model="idempotencyrecord").exists():
        ContentType.objects.filter(app_label=source, model="idempotencyrecord").update(
            app_label=target)


def content_type_back(apps, schema_editor):
    content_type_move(apps, schema_editor, source="api", target="games")


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('games', '0006_job_moved_to_jobs'),
        ('api', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='IdempotencyRecord')],
            database_operations=[],
        ),
        migrations.RunPython(content_type_move, content_type_back),
    ]
