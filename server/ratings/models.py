"""Glicko-2 ratings of two-player games, one per (player, game), and the matches they count.

A shared app: the game is data (``game = "spite-malice"``), so another two-player game rates
its players on its own board with the same tables and code. ``rating``, ``deviation`` and
``volatility`` are the library's own values (``server.ratings.glicko``), kept unrounded; the
API rounds them when it shows them.

``RatedMatch`` holds one row per rated match, unique per (game, match): the finishing
transaction inserts it before it touches a rating, so a retried or raced finish of the same
match can never rate it twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from server.ratings import glicko

# A rating with fewer matches, or a wider deviation, is provisional: listed apart on the board.
# Stored with each rating as of its last match (``Rating.provisional``).
PROVISIONAL_MATCHES = 5
PROVISIONAL_DEVIATION = 200.0


class Rating(models.Model):
    game = models.CharField(max_length=32, help_text='The game rated, e.g. "spite-malice".')
    # The unique (player, game) index serves every lookup by player.
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="ratings", db_index=False)
    rating = models.FloatField(default=glicko.INITIAL_RATING)
    deviation = models.FloatField(default=glicko.INITIAL_DEVIATION,
                                  help_text="Glicko's RD: how uncertain the rating is.")
    volatility = models.FloatField(default=glicko.INITIAL_VOLATILITY)
    matches = models.PositiveIntegerField(default=0, help_text="Rated matches played.")
    provisional = models.BooleanField(
        default=True, help_text="Fewer than PROVISIONAL_MATCHES matches, or a deviation above "
                                "PROVISIONAL_DEVIATION, as of the last rated match.")
    updated_at = models.DateTimeField(help_text="When the last rated match finished.")
    held = models.BooleanField(
        default=False, db_default=False,
        help_text="Held off the board: the player is in a ring (``Ring``) that is held or was "
                  "removed. Kept from the rings by ``server.ratings.rings.holds_apply``.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="rating_once_per_game"),
            models.CheckConstraint(condition=Q(deviation__gt=0, volatility__gt=0),
                                   name="rating_uncertainty_positive"),
        ]
        indexes = [
            # The board's order: established players first, then by rating, highest first;
            # held players are a range of their own, never read by the board.
            models.Index(F("game"), F("held"), F("provisional"), F("rating").desc(),
                         F("player"), name="rating_board_order"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} on {self.game}: {self.rating:.0f} ± {self.deviation:.0f}"


class RatedMatch(models.Model):
    """A match that was rated: who played, its result, and each player's rating before and
    after it."""

    game = models.CharField(max_length=32)
    match_id = models.UUIDField(help_text="The game's own match id.")
    player_a = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                 related_name="+")
    player_b = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                 related_name="+")
    score_a = models.FloatField(help_text="1 a win for player_a, 0.5 a draw, 0 a loss.")
    rating_a_before = models.FloatField()
    rating_a_after = models.FloatField()
    rating_b_before = models.FloatField()
    rating_b_after = models.FloatField()
    # Set where player_b was only the measure: a bot rated against a person, whose values
    # (rating_b_before, the same after, and this deviation) stood on their own board and did
    # not move (``services.result_rate_against``); what a replay needs to rate it again.
    reference_deviation = models.FloatField(
        null=True, blank=True,
        help_text="player_b's deviation if player_b was only the measure, not rated; "
                  "null when both were rated.")
    rated_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "match_id"], name="rated_match_once"),
            models.CheckConstraint(condition=Q(score_a__in=[0.0, 0.5, 1.0]),
                                   name="rated_match_score"),
            models.CheckConstraint(condition=~Q(player_a=F("player_b")),
                                   name="rated_match_two_players"),
        ]

    def __str__(self) -> str:
        return f"{self.game} match {self.match_id}"

    @property
    def b_rated(self) -> bool:
        return self.reference_deviation is None


class Ring(models.Model):
    """A closed cluster of accounts on one game's board: nearly all of their rated matches in
    the detection's window were among themselves (``server.ratings.rings``). Its accounts are
    held off the board until an administrator reviews it: cleared (not a ring: back on the
    board) or removed (a ring: its matches among themselves no longer count, every rating is
    computed again without them, and its accounts stay off the board)."""

    class Status(models.TextChoices):
        HELD = "held", "held off the board until reviewed"
        CLEARED = "cleared", "reviewed: not a ring, back on the board"
        REMOVED = "removed", "reviewed: a ring, its matches struck from the ratings"

    game = models.CharField(max_length=32)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.HELD)
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="+")
    matches = models.PositiveIntegerField(
        help_text="Rated matches among the members in the window when it was detected.")
    closed_share = models.FloatField(
        help_text="The share of the members' rated matches in the window played among "
                  "themselves, when it was detected.")
    detected_at = models.DateTimeField()
    reviewed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["game", "status"], name="ring_game_status")]

    def __str__(self) -> str:
        return f"{self.game} ring {self.pk} ({self.get_status_display()})"


def held_players(game: str, player_ids: Iterable[Any] | None = None) -> set[Any]:
    """The ids of the players (of ``player_ids``, or all) held off ``game``'s board: members
    of a ring held or removed."""
    memberships = Ring.members.through.objects.filter(
        ring__game=game, ring__status__in=[Ring.Status.HELD, Ring.Status.REMOVED])
    if player_ids is not None:
        memberships = memberships.filter(player_id__in=list(player_ids))
    return set(memberships.values_list("player_id", flat=True))
