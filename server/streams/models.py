"""A player's account events, numbered 1, 2, 3, ... per player, and the counter that numbers
them.

The counter is one row per player, taken with an upsert (``INSERT ... ON CONFLICT DO
UPDATE``) in the transaction that stores the events: the upsert locks the row until that
transaction ends, so two writers for one player are numbered one after the other, and a
transaction that rolls back gives its numbers back with its events. The unique (player,
number) constraint backs it: no number is ever stored twice.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class AccountCounter(models.Model):
    player = models.OneToOneField(settings.AUTH_USER_MODEL, primary_key=True,
                                  on_delete=models.CASCADE, related_name="+")
    last = models.PositiveBigIntegerField(default=0,
                                          help_text="The number of the player's latest event.")

    def __str__(self) -> str:
        return f"{self.player_id}'s events up to {self.last}"


class AccountEvent(models.Model):
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="+")
    number = models.PositiveBigIntegerField()
    kind = models.CharField(max_length=32)
    payload = models.JSONField(help_text="The event's fields besides number, kind and "
                                         "created_at: game, match and the kind's own.")
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "number"], name="streams_event_number"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}'s event {self.number} ({self.kind})"
