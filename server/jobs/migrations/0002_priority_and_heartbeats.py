"""Jobs gain a priority (urgent ones claimed first) and a second run for work recorded while
they ran; the heartbeats of the service's processes and its last sign of life
(``server.jobs.liveness``) are new."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('jobs', '0001_initial'),
    ]

    operations = [
        migrations.CreateModel(
            name='Heartbeat',
            fields=[
                ('holder', models.CharField(help_text='The host and process id.', max_length=64, primary_key=True, serialize=False)),
                ('role', models.CharField(choices=[('app', 'App'), ('worker', 'Worker')], max_length=8)),
                ('started_at', models.DateTimeField()),
                ('beat_at', models.DateTimeField()),
            ],
        ),
        migrations.CreateModel(
            name='Liveness',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('alive_at', models.DateTimeField()),
            ],
        ),
        migrations.AddField(
            model_name='job',
            name='again',
            field=models.BooleanField(default=False, help_text='New work was recorded for it while it ran: it runs once more.'),
        ),
        migrations.AddField(
            model_name='job',
            name='priority',
            field=models.PositiveSmallIntegerField(default=0, help_text="Claimed before every job of a higher number: 0 for what a match waits on (a bot's turn), more for analyses and preparation."),
        ),
        migrations.AddIndex(
            model_name='job',
            index=models.Index(fields=['status', 'priority', 'created_at'], name='job_status_priority_created'),
        ),
    ]
