"""Stored account events in the shape the API gives since ``game`` has one meaning
(docs/API.md, "The account stream"): the game's name moves from ``game`` to ``game_name``;
``your_turn``'s ``game_number`` becomes ``game``, the match's game number as in the match's
own events; every player named gains ``bot`` (the account's flag now: it never goes back) and
``rating`` (null: these events were stored before ratings were told)."""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

PLAYER_MEMBERS = ("opponent", "from", "by", "player")
BATCH = 500


def _rewrite(payload: dict, bots: dict) -> dict:
    payload = dict(payload)
    if isinstance(payload.get("game"), str):
        payload["game_name"] = payload.pop("game")
    if "game_number" in payload:
        payload["game"] = payload.pop("game_number")
    for member in PLAYER_MEMBERS:
        player = payload.get(member)
        if isinstance(player, dict) and "bot" not in player:
            payload[member] = {**player, "bot": bots.get(player.get("id"), False),
                               "rating": None}
    return payload


def forwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    AccountEvent = apps.get_model("streams", "AccountEvent")
    Player = apps.get_model("players", "Player")
    bots = {str(pk): True for pk in Player.objects.filter(bot=True).values_list("pk", flat=True)}
    batch = []
    for event in AccountEvent.objects.order_by("pk").iterator(chunk_size=BATCH):
        rewritten = _rewrite(event.payload, bots)
        if rewritten != event.payload:
            event.payload = rewritten
            batch.append(event)
        if len(batch) >= BATCH:
            AccountEvent.objects.bulk_update(batch, ["payload"])
            batch = []
    if batch:
        AccountEvent.objects.bulk_update(batch, ["payload"])


class Migration(migrations.Migration):
    dependencies = [
        ("streams", "0001_initial"),
        ("players", "0005_name_keys_fold_marks"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop, elidable=True)]
