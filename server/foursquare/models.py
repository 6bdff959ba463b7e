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

    def __str__(self) -> str:
        return self.id

    @property
    def deck(self) -> tuple[Card, ...]:
        return parse_deck(self.cards.split())

    @classmethod
    def from_deck(cls, deck) -> Deal:
        return cls(cards=" ".join(str(card) for card in deck))


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
        RACE = "race"

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
    race = models.ForeignKey("Race", null=True, blank=True, on_delete=models.CASCADE,
                             related_name="games")
    opens_at = models.DateTimeField(null=True, blank=True,
                                    help_text="No move is accepted before it (a race's start).")
    closes_at = models.DateTimeField(null=True, blank=True,
                                     help_text="No move is accepted from it (a race's end).")
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
            models.CheckConstraint(
                condition=(Q(mode="race", daily__isnull=True, race__isnull=False)
                           | (~Q(mode="race") & Q(race__isnull=True))),
                name="game_race_has_a_race_and_no_daily",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.mode} game {self.pk}"

    @property
    def is_over(self) -> bool:
        return self.status != self.Status.PLAYING


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

    def __str__(self) -> str:
        return f"analysis of game {self.game_id}"


RACE_SIZES = range(2, 9)
RACE_MINUTES = (3, 5, 10)


class Race(models.Model):
    """Friends playing one fresh deal at the same time, each in a game of their own
    (``Game.Mode.RACE``). Created ``waiting``; the host's start (or the last seat taken) deals
    it and sets the clock: ``countdown`` until ``starts_at``, ``playing`` until every game is
    over or ``ends_at``, then ``finished`` with each racer's place. The start stores
    ``countdown``; from then on ``countdown`` and ``playing`` are told apart by ``starts_at``
    and now (``status_at``), never by a write."""

    class Status(models.TextChoices):
        WAITING = "waiting"
        COUNTDOWN = "countdown"
        PLAYING = "playing"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    code = models.CharField(max_length=8, unique=True,
                            help_text="The invitation code (server.core.codes).")
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="races_hosted")
    size = models.PositiveSmallIntegerField(help_text="Seats, 2-8.")
    minutes = models.PositiveSmallIntegerField(help_text="The time limit: 3, 5 or 10.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    deal = models.ForeignKey(Deal, null=True, blank=True, on_delete=models.PROTECT,
                             related_name="races")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True, help_text="The host's start.")
    starts_at = models.DateTimeField(null=True, blank=True,
                                     help_text="The end of the countdown: moves from then.")
    ends_at = models.DateTimeField(null=True, blank=True, help_text="starts_at + minutes.")
    finished_at = models.DateTimeField(null=True, blank=True)
    next_race = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="previous_races", help_text="Race again.")
    bot_status = models.CharField(max_length=8, blank=True, default="",
                                  help_text="won or lost; empty until the bot has played.")
    bot_score = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(size__gte=2, size__lte=8),
                                   name="race_size_2_to_8"),
            models.CheckConstraint(condition=Q(minutes__in=list(RACE_MINUTES)),
                                   name="race_minutes_3_5_or_10"),
            models.CheckConstraint(
                condition=(Q(status__in=["waiting", "cancelled"])
                           | Q(deal__isnull=False, started_at__isnull=False,
                               starts_at__isnull=False, ends_at__isnull=False)),
                name="race_started_has_its_deal_and_times",
            ),
            models.CheckConstraint(
                condition=Q(bot_score__isnull=True) | Q(bot_status="won", bot_score__lte=24),
                name="race_bot_score_only_when_won",
            ),
        ]

    def __str__(self) -> str:
        return f"race {self.code} ({self.status})"

    def status_at(self, now) -> str:
        """The status the API shows at ``now``: ``countdown`` before ``starts_at``."""
        if self.status in (self.Status.COUNTDOWN, self.Status.PLAYING):
            return (self.Status.COUNTDOWN if now < self.starts_at else self.Status.PLAYING)
        return self.status

    @property
    def is_started(self) -> bool:
        return self.status in (self.Status.PLAYING, self.Status.COUNTDOWN,
                               self.Status.FINISHED)


class Racer(models.Model):
    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="racers")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="racers")
    game = models.OneToOneField(Game, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="racer")
    joined_at = models.DateTimeField(auto_now_add=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True,
                                             help_text="1..n, set when the race finishes.")

    class Meta:
        ordering = ["race", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["race", "player"], name="racer_once_per_race"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.race_id}"


class RaceInvite(models.Model):
    """A league mate invited to a race directly (they may see it and join it by its id)."""

    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="invites")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="race_invites")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["race", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["race", "player"], name="race_invite_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} invited to {self.race_id}"
