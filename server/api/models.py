"""The API's shared store: the first answer to each request sent with an Idempotency-Key
(``server.api.idempotency``), for both games' writes."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class IdempotencyRecord(models.Model):
    """The first response to a request sent with an ``Idempotency-Key``, for its retries."""

    # No index of its own: the unique (player, key) index serves every lookup by player.
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               db_index=False)
    key = models.CharField(max_length=255)
    request_hash = models.CharField(max_length=64)
    response_status = models.PositiveSmallIntegerField()
    # Text, not JSON: a replay must return the first response byte for byte (jsonb reorders).
    response_body = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        # The table it was made with, in the Foursquare app that kept it before (the games
        # label): only Django's record of the model moved.
        db_table = "games_idempotencyrecord"
        constraints = [
            models.UniqueConstraint(fields=["player", "key"], name="idempotency_key_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}'s Idempotency-Key {self.key!r}"
