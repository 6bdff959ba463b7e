"""Leaderboards, kept up to date by the transaction that starts or finishes a daily game.

A ``Board`` is one ranking: a daily, an ISO week or all time (see ``periods``), in two
versions: every player's dailies (what leagues read) and the ranked dailies only (the global
boards). Each player
who started a daily of the period has one ``Standing`` on it; a player who won at least one
holds a rank. ``ScoreCount`` counts the ranked standings by result, so a rank is "one plus
the players with a better result": a sum over a handful of counters, never a scan.

Ranking order, on every board: ``total`` (the sum of winning scores; on a day board the
score) highest first, then ``wins`` most first (this only matters on week and all-time
boards). Players equal on both share a rank (competition ranking: 1, 2, 2, 4); among them,
whoever reached that result first (``reached_at``) is listed first, then by player id.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

MAX_SCORE = 24


class Board(models.Model):
    class Kind(models.TextChoices):
        DAY = "day"
        WEEK = "week"
        ALL = "all"

    key = models.CharField(
        max_length=40,
        help_text="2026-11-29 (a daily), 2026-W48 (an ISO week) or all: every player's "
                  "dailies; with :ranked (2026-11-29:ranked) only the ranked dailies. Another "
                  "game's keys start with its prefix (spite-malice/2026-11-29).")
    kind = models.CharField(max_length=4, choices=Kind.choices)
    players = models.PositiveIntegerField(default=0, help_text="Players who started a daily.")
    winners = models.PositiveIntegerField(default=0, help_text="Players who won at least one.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["key"], name="board_key_unique"),
            models.CheckConstraint(condition=Q(winners__lte=F("players")),
                                   name="board_winners_are_players"),
        ]

    def __str__(self) -> str:
        return self.key


class Standing(models.Model):
    """One player's result on one board."""

    # The unique (board, player) and ranking indexes serve every lookup by board.
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="standings",
                              db_index=False)
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="standings")
    games = models.PositiveIntegerField(default=0, help_text="Dailies started.")
    wins = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0, help_text="Sum of the winning scores.")
    best = models.PositiveSmallIntegerField(null=True, blank=True)
    reached_at = models.DateTimeField(null=True, blank=True,
                                      help_text="When the last win was recorded.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["board", "player"], name="standing_once_per_board"),
            models.CheckConstraint(condition=Q(wins__lte=F("games")),
                                   name="standing_wins_are_games"),
            models.CheckConstraint(
                condition=Q(wins=0, total=0, best__isnull=True, reached_at__isnull=True)
                | Q(wins__gt=0, best__lte=MAX_SCORE, total__lte=F("wins") * MAX_SCORE,
                    reached_at__isnull=False),
                name="standing_result_only_with_wins",
            ),
        ]
        indexes = [
            # The ranking order, ascending in every column so that a page after a cursor is
            # one row comparison on the index: (−total, −wins, reached_at, player) > (...).
            models.Index(F("board"), F("total") * -1, F("wins") * -1, F("reached_at"),
                         F("player"), condition=Q(wins__gt=0), name="standing_rank_order"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} on {self.board_id}: {self.total} in {self.wins} wins"


class ScoreCount(models.Model):
    """How many ranked players of a board share one result (``total``, ``wins``)."""

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="score_counts",
                              db_index=False)
    total = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["board", "total", "wins"],
                                    name="score_count_once_per_result"),
            models.CheckConstraint(condition=Q(wins__gt=0), name="score_count_only_winners"),
        ]

    def __str__(self) -> str:
        return f"{self.board_id}: {self.count} with {self.total} in {self.wins} wins"
