"""The clocks' sweep no longer marks when the clocks were watched: the heartbeats of every
process of the service do (``server.jobs.liveness``). The sweep's last run becomes the
service's last sign of life, so an outage that spans the upgrade is still bridged."""

from django.db import migrations


def carry_the_mark(apps, schema_editor):
    ClockSweep = apps.get_model("spitemalice", "ClockSweep")
    Liveness = apps.get_model("jobs", "Liveness")
    sweep = ClockSweep.objects.filter(pk=1).first()
    if sweep is not None and not Liveness.objects.filter(pk=1).exists():
        Liveness.objects.create(pk=1, alive_at=sweep.ran_at)


class Migration(migrations.Migration):

    dependencies = [
        ('spitemalice', '0008_event_names'),
        ('jobs', '0002_priority_and_heartbeats'),
    ]

    operations = [
        migrations.RunPython(carry_the_mark, migrations.RunPython.noop),
        migrations.DeleteModel(
            name='ClockSweep',
        ),
    ]
