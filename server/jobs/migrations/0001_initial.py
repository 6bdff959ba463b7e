"""The job table moves from the games app to this one as it stands (only Django's record of
it changes), gains ``run_after`` for retries that wait, and the leases are new."""

from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('games', '0005_daily_left_unfinished'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Job',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(help_text='The task, as its app registered it.', max_length=16)),
                        ('key', models.CharField(help_text="What it works on: a daily's date, a game's or a match's id.", max_length=64)),
                        ('status', models.CharField(choices=[('pending', 'Pending'), ('running', 'Running'), ('done', 'Done'), ('failed', 'Failed')], default='pending', max_length=8)),
                        ('attempts', models.PositiveSmallIntegerField(default=0, help_text='Claims so far.')),
                        ('error', models.TextField(blank=True, default='', help_text='Why the last attempt failed.')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('started_at', models.DateTimeField(blank=True, null=True)),
                        ('finished_at', models.DateTimeField(blank=True, null=True)),
                    ],
                    options={
                        'db_table': 'games_job',
                        'ordering': ['created_at'],
                        'indexes': [models.Index(fields=['status', 'created_at'], name='job_status_created')],
                        'constraints': [models.UniqueConstraint(fields=('kind', 'key'), name='job_once_per_kind_and_key')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.AddField(
            model_name='job',
            name='run_after',
            field=models.DateTimeField(blank=True, help_text='A retry waits until then.', null=True),
        ),
        migrations.CreateModel(
            name='Lease',
            fields=[
                ('name', models.CharField(max_length=64, primary_key=True, serialize=False)),
                ('holder', models.CharField(blank=True, default='', help_text='The host and process id that took it last.', max_length=64)),
                ('expires_at', models.DateTimeField()),
            ],
        ),
    ]
