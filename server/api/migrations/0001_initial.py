"""The Idempotency-Key store moves from the Foursquare app (label ``games``) to this one as it
stands: only Django's record of it changes; the table, its rows and its index stay."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('games', '0006_job_moved_to_jobs'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='IdempotencyRecord',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('key', models.CharField(max_length=255)),
                        ('request_hash', models.CharField(max_length=64)),
                        ('response_status', models.PositiveSmallIntegerField()),
                        ('response_body', models.TextField()),
                        ('created_at', models.DateTimeField(auto_now_add=True, db_index=True)),
                        ('player', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'games_idempotencyrecord',
                        'constraints': [models.UniqueConstraint(fields=('player', 'key'), name='idempotency_key_once')],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
