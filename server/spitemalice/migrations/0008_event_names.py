"""Events stored before one name meant one type: a ``dealt`` event's list of both pay-off tops
is ``payoff_tops`` (``payoff_top`` is a single card wherever else it appears), and a
``game_over`` of a resigned or timed-out game scores 0 points (it said null). Rewritten in
Python, row by row in batches, so that it runs on every database the app runs on."""

from django.db import migrations

SEATS = ("seat0", "seat1")
BATCH = 1000


def renamed(seen: dict) -> dict | None:
    """``seen`` (a seat's copy) in the new names, or None if it is already."""
    if "payoff_top" in seen and isinstance(seen["payoff_top"], list):
        seen = {("payoff_tops" if key == "payoff_top" else key): value
                for key, value in seen.items()}
        return seen
    if "points" in seen and seen["points"] is None and seen.get("status") in (
            "resigned", "timeout"):
        return {**seen, "points": 0}
    return None


def named_back(seen: dict) -> dict | None:
    if "payoff_tops" in seen:
        return {("payoff_top" if key == "payoff_tops" else key): value
                for key, value in seen.items()}
    if seen.get("points") == 0 and seen.get("status") in ("resigned", "timeout"):
        return {**seen, "points": None}
    return None


def _rewrite(apps, change) -> None:
    Event = apps.get_model("spitemalice", "Event")
    rows = Event.objects.filter(kind__in=["dealt", "game_over"]).order_by("pk")
    changed = []
    for event in rows.iterator(chunk_size=BATCH):
        touched = False
        for seat in SEATS:
            new = change(getattr(event, seat))
            if new is not None:
                setattr(event, seat, new)
                touched = True
        if touched:
            changed.append(event)
        if len(changed) >= BATCH:
            Event.objects.bulk_update(changed, SEATS)
            changed = []
    if changed:
        Event.objects.bulk_update(changed, SEATS)


def forward(apps, schema_editor) -> None:
    _rewrite(apps, renamed)


def backward(apps, schema_editor) -> None:
    _rewrite(apps, named_back)


class Migration(migrations.Migration):

    dependencies = [
        ("spitemalice", "0007_challenges_and_bots"),
    ]

    operations = [
        migrations.RunPython(forward, backward),
    ]
