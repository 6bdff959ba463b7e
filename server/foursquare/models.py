"""Deals, dailies, games and their moves.

A game's truth is its deal plus its moves: the position is rebuilt with the engine by
replaying them. ``Game`` keeps a copy of the move list and a few derived columns (status,
score, counts) so that reading a game is one query and boards can filter by them; every
move is also stored as a ``Move`` row with its card and time.
"""

from __future__ import annotations

import secrets
import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q

from foursquare import Card, parse_deck

DEAL_ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
DEAL_ID_LENGTH = 12


def new_deal_id() -> str:
    return "".join(secrets.choice(DEAL_ID_ALPHABET) for _ in range(DEAL_ID_LENGTH))


class Deal(models.Model):
    """One order of the 40 cards. Its id can be shared; its cards never leave the server
    while a game on it is being played."""

    id = models.CharField(primary_key=True, max_length=16, default=new_deal_id, editable=False)
    cards = models.CharField(max_length=120, help_text="40 card codes, first drawn first.")
    created_at = models.DateTimeField(auto_now_add=True)

    @property
    def deck(self) -> tuple[Card, ...]:
        return parse_deck(self.cards.split())

    @classmethod
    def from_deck(cls, deck) -> Deal:
        return cls(cards=" ".join(str(card) for card in deck))

    def __str__(self) -> str:
        return self.id


class Daily(models.Model):
    """The deal everyone plays on one date."""

    date = models.DateField(primary_key=True)
    number = models.PositiveIntegerField(unique=True)
    deal = models.OneToOneField(Deal, on_delete=models.PROTECT, related_name="daily")
    created_at = models.DateTimeField(auto_now_add=True)
    # Preparation (server.foursquare.preparation): the deal is ``daily_deck(date, attempt)``, the
    # first attempt the solver proved winnable; the bot's own game gives the board's reference.
    attempt = models.PositiveSmallIntegerField(default=0, help_text="The seed index dealt.")
    proof_score = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The best score the solver found; null: no win found.")
    proof_moves = models.JSONField(default=list, blank=True,
                                   help_text="The solver's winning record, [[row, col], ...].")
    proof_optimal = models.BooleanField(default=False,
                                        help_text="The solver proved no better score exists.")
    bot_status = models.CharField(max_length=8, blank=True, default="",
                                  help_text="won or lost; empty until the bot has played.")
    bot_score = models.PositiveSmallIntegerField(null=True, blank=True)
    prepared_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-date"]
        verbose_name_plural = "dailies"
        constraints = [
            models.CheckConstraint(
                condition=Q(bot_score__isnull=True) | Q(bot_status="won", bot_score__lte=24),
                name="daily_bot_score_only_when_won",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.number} ({self.date})"


class Game(models.Model):
    class Mode(models.TextChoices):
        DAILY = "daily"
        PRACTICE = "practice"
        ARCHIVE = "archive"

    class Status(models.TextChoices):
        PLAYING = "playing"
        WON = "won"
        LOST = "lost"
        # A daily whose date closed everywhere before it was finished: over, never ranked.
        UNFINISHED = "unfinished"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="games")
    mode = models.CharField(max_length=8, choices=Mode.choices)
    daily = models.ForeignKey(Daily, null=True, blank=True, on_delete=models.PROTECT,
                              related_name="games")
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="games")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    score = models.PositiveSmallIntegerField(null=True, blank=True)
    moves_played = models.PositiveSmallIntegerField(default=0)
    move_list = models.JSONField(default=list, help_text="[[row, col], ...] in order.")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    ranked = models.BooleanField(
        default=False,
        help_text="A daily game on the global boards: its player's account was trusted when "
                  "it started (claimed at least a day before the daily first opened).")

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["player", "-created_at"], name="game_player_recent")]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "daily"], condition=Q(mode="daily"),
                name="game_one_daily_per_player_and_date",
            ),
            models.CheckConstraint(
                condition=Q(mode="practice", daily__isnull=True) | ~Q(mode="practice"),
                name="game_practice_has_no_daily",
            ),
            models.CheckConstraint(
                condition=~Q(mode__in=["daily", "archive"]) | Q(daily__isnull=False),
                name="game_daily_and_archive_have_a_daily",
            ),
            models.CheckConstraint(
                condition=Q(score__isnull=True) | Q(status="won", score__lte=24),
                name="game_score_only_when_won",
            ),
            models.CheckConstraint(
                condition=Q(moves_played__lte=40), name="game_at_most_40_moves",
            ),
            models.CheckConstraint(
                condition=Q(ranked=False) | Q(mode="daily"), name="game_ranked_only_daily",
            ),
        ]

    @property
    def is_over(self) -> bool:
        return self.status != self.Status.PLAYING

    def __str__(self) -> str:
        return f"{self.mode} game {self.pk}"


class Move(models.Model):
    # No index of its own: the unique (game, number) index serves every lookup by game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves",
                             db_index=False)
    number = models.PositiveSmallIntegerField(help_text="0 for the first card.")
    row = models.SmallIntegerField()
    col = models.SmallIntegerField()
    card = models.CharField(max_length=2)
    played_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="move_once_per_number"),
            models.CheckConstraint(condition=Q(number__lt=40), name="move_number_in_deck"),
        ]

    def __str__(self) -> str:
        return f"move {self.number} of {self.game_id}: {self.card} at ({self.row}, {self.col})"


class GameAnalysis(models.Model):
    """The bot's review of a finished game, computed once."""

    game = models.OneToOneField(Game, primary_key=True, on_delete=models.CASCADE,
                                related_name="analysis")
    result = models.JSONField(help_text="The body of GET /games/{id}/analysis.")
    seconds = models.FloatField(help_text="CPU time the analysis took.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "game analyses"
