"""League names follow the PRECIS Nickname profile (``server.leagues.limits``).

A name the profile accepts is stored as it enforces it (NFKC, spaces trimmed); one it refuses
(invisible or formatting characters, once allowed) becomes "League", which its owner can change.
"""

from django.db import migrations

BATCH = 1_000
PLACEHOLDER = "League"


def enforce_names(apps, schema_editor):
    from server.leagues import limits
    from server.players.names import InvalidName

    League = apps.get_model("leagues", "League")
    changed = []
    for league in League.objects.only("pk", "name").iterator(chunk_size=BATCH):
        try:
            name = limits.clean_league_name(league.name)
        except InvalidName:
            name = PLACEHOLDER
        if name != league.name:
            league.name = name
            changed.append(league)
        if len(changed) >= BATCH:
            League.objects.bulk_update(changed, ["name"])
            changed = []
    League.objects.bulk_update(changed, ["name"])


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(enforce_names, migrations.RunPython.noop),
    ]
