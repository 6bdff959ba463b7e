from django.db import migrations, models


def declines_named(apps, schema_editor):
    """A waiting match its invitee declined was stored as cancelled; its ``cancelled`` event
    names the seat that closed it (1, the invitee's)."""
    Match = apps.get_model("spitemalice", "Match")
    Event = apps.get_model("spitemalice", "Event")
    declined = Event.objects.filter(kind="cancelled", seat0__by=1).values("match_id")
    Match.objects.filter(status="cancelled", reason="cancelled", pk__in=declined).update(
        reason="declined")


def declines_unnamed(apps, schema_editor):
    Match = apps.get_model("spitemalice", "Match")
    Match.objects.filter(reason="declined").update(reason="cancelled")


class Migration(migrations.Migration):

    dependencies = [
        ("spitemalice", "0005_ratings_recomputed"),
    ]

    operations = [
        migrations.AlterField(
            model_name="match",
            name="reason",
            field=models.CharField(blank=True, choices=[("target", "a seat reached the target"), ("tied", "the single game was tied"), ("resigned", "a seat resigned"), ("unfinished", "its daily's date closed before the game ended"), ("timeout", "a seat let its turn's deadline pass"), ("cancelled", "its creator cancelled it, unjoined; or a seat left it before the first turns (aborted)"), ("declined", "its invitee declined it, unjoined"), ("expired", "nobody joined it within the invitation's days")], default="", max_length=10),
        ),
        migrations.RunPython(declines_named, declines_unnamed),
    ]
