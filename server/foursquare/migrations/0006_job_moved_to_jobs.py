"""The job table now belongs to the jobs app (``server.jobs``): only Django's record of the
model moves; the table, its rows and its admin permissions stay as they are."""

from django.db import migrations


def content_type_move(apps, schema_editor, source="games", target="jobs"):
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label=target, model="job").exists():
        ContentType.objects.filter(app_label=source, model="job").update(app_label=target)


def content_type_back(apps, schema_editor):
    content_type_move(apps, schema_editor, source="jobs", target="games")


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('games', '0005_daily_left_unfinished'),
        ('jobs', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='Job')],
            database_operations=[],
        ),
        migrations.RunPython(content_type_move, content_type_back),
    ]
