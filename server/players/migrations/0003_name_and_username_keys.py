"""Names are compared by their confusable skeleton, usernames by their PRECIS case-mapped form.

Every player's ``name_key`` is computed again (``server.players.names.name_key``), oldest player
first. A name that no longer counts as a name (it holds characters the PRECIS Nickname profile
refuses: variation selectors, tags, fillers...) or whose new key is already an older player's
(it looks like that player's name) is replaced by a fresh guest name, ``Player XXXXXX``, which
its player can change; the older player keeps the name. A valid name is stored as the profile
enforces it (NFKC, spaces trimmed). Claimed players get a ``username_key``, the case-mapped
username.
"""

from django.db import migrations, models

BATCH = 1_000


def _free_guest_name(names, taken: set[str]) -> tuple[str, str]:
    while True:
        name = names.guest_name()
        key = names.name_key(name)
        if key not in taken:
            return name, key


def recompute_keys(apps, schema_editor):
    from server.players import names, usernames

    Player = apps.get_model("players", "Player")
    connection = schema_editor.connection
    quote = connection.ops.quote_name
    # One UPDATE per row, sent as a batch (psycopg pipelines executemany): bulk_update's
    # CASE over a thousand ids costs ten times as much on a large table.
    update = (f"UPDATE {quote(Player._meta.db_table)} SET {quote('name')} = %s, "
              f"{quote('name_key')} = %s, {quote('username_key')} = %s WHERE {quote('id')} = %s")
    taken: set[str] = set()
    changed = []
    players = Player.objects.order_by("created_at", "pk").values_list("pk", "name", "username")
    for pk, old_name, username in players.iterator(chunk_size=BATCH):
        try:
            name = names.clean_name(old_name)
            key = names.name_key(name)
        except names.InvalidName:
            name = key = None
        if key is None or key in taken:
            name, key = _free_guest_name(names, taken)
        taken.add(key)
        # A username the profile refuses (only createsuperuser could make one) keeps its
        # lower-cased form, which was already unique.
        username_key = (None if username is None
                        else usernames.username_key(username) or username.lower())
        changed.append((name, key, username_key,
                        Player._meta.pk.get_db_prep_value(pk, connection)))
        if len(changed) >= BATCH:
            _write(connection, update, changed)
            changed = []
    _write(connection, update, changed)


def _write(connection, update: str, rows: list) -> None:
    if rows:
        with connection.cursor() as cursor:
            cursor.executemany(update, rows)


class Migration(migrations.Migration):

    dependencies = [
        ("players", "0002_accesstoken_public_id"),
    ]

    operations = [
        # Without its unique index while the keys change: an old key may equal a new one for a
        # moment. ``recompute_keys`` keeps the new ones unique, and the index comes back.
        migrations.AlterField(
            model_name="player",
            name="name_key",
            field=models.CharField(max_length=255),
        ),
        migrations.AddField(
            model_name="player",
            name="username_key",
            field=models.CharField(blank=True, editable=False, max_length=64, null=True),
        ),
        migrations.RunPython(recompute_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="name_key",
            field=models.CharField(max_length=255, unique=True),
        ),
        migrations.AlterField(
            model_name="player",
            name="username_key",
            field=models.CharField(blank=True, editable=False, max_length=64, null=True,
                                   unique=True),
        ),
        migrations.RemoveConstraint(
            model_name="player",
            name="player_username_ci_unique",
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.CheckConstraint(
                condition=models.Q(("username__isnull", True), ("username_key__isnull", True))
                | models.Q(("username__isnull", False), ("username_key__isnull", False)),
                name="player_username_has_key"),
        ),
    ]
