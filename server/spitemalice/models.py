"""Matches of Spite & Malice, their games, every action played and the event log.

A game's truth is its seed plus its actions: the position is rebuilt by the engine by
replaying them. ``Match`` and ``MatchGame`` keep a few derived columns (whose turn, how many
actions, scores) so that a read is a couple of queries and a stale action is refused before
any replay; every action is also an ``Action`` row with its seat, card and time, and
everything that happened is an ``Event`` row, numbered per match, stored once as each seat
may see it.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q

LEVELS = ("easy", "normal", "hard", "expert")
MAX_POINTS = 20  # a win scores the cards left in the loser's pay-off pile: 1-20
TARGETS = (50, 25, 1)
# How long each turn of a match between people may take (seconds): a minute, an hour, a day
# (the default) or three days. The first turn begins when the second player joins.
TURN_SECONDS = (60, 3600, 86400, 259200)
DEFAULT_TURN_SECONDS = 86400
# Each seat's first turn of a match between people gets at least this long (seconds): the
# creator of an invitation may be away when it is joined, and a 60-second clock should not end
# a match before both have sat down. A first turn's timeout aborts the match (below).
FIRST_TURN_SECONDS = 300
# A rated match rates only once each seat has completed this many turns of its first game
# (docs/RATINGS.md, "Aborted, not lost"): left earlier, it is aborted. A result needs play by
# both seats, not a resignation after the opening discards.
RATED_MIN_TURNS = 3
INVITE_DAYS = 7  # a waiting match nobody joined is cancelled (reason "expired") after this
INVITE_CODE_LENGTH = 8


class Daily(models.Model):
    """The deal of one date's Spite & Malice daily, kept once it is first dealt: rotating the
    secret then changes only dailies not yet dealt."""

    date = models.DateField(primary_key=True)
    seed = models.CharField(max_length=64, editable=False,
                            help_text="The match seed (hex): HMAC of the secret and the date.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date"]
        verbose_name_plural = "dailies"

    def __str__(self) -> str:
        return f"Spite & Malice daily of {self.date}"


class Match(models.Model):
    class Mode(models.TextChoices):
        BOT = "bot"
        DAILY = "daily"
        FRIEND = "friend"

    class Status(models.TextChoices):
        WAITING = "waiting"
        PLAYING = "playing"
        FINISHED = "finished"
        CANCELLED = "cancelled"
        # Ended (a resignation, a timeout, a cancel) before each seat had completed its first
        # turn: no winner, never rated (docs/RATINGS.md, "Aborted").
        ABORTED = "aborted"

    class Unrated(models.TextChoices):
        """Why a match does not count on the ratings board (empty when it does)."""
        BOT = "bot", "against the house bot or a bot account, or a daily"
        CASUAL = "casual", "a player asked for an unrated match"
        NEW_ACCOUNT = "new_account", "an account claimed less than 24 h before the match"
        PAIR_LIMIT = "pair_limit", "the two players' rated matches of the last 24 h are used"
        DAILY_LIMIT = "daily_limit", "a player's rated matches of the last 24 h are used"

    class Reason(models.TextChoices):
        TARGET = "target", "a seat reached the target"
        TIED = "tied", "the single game was tied"
        RESIGNED = "resigned", "a seat resigned"
        UNFINISHED = "unfinished", "its daily's date closed before the game ended"
        TIMEOUT = "timeout", "a seat let its turn's deadline pass"
        CANCELLED = "cancelled", ("its creator cancelled it, unjoined; or a seat left it "
                                  "before the first turns (aborted)")
        DECLINED = "declined", "its invitee declined it, unjoined"
        EXPIRED = "expired", "nobody joined it within the invitation's days"

    class DeclineReason(models.TextChoices):
        """Why an invitee declined a direct invitation (they choose; ``generic`` if unsaid)."""
        GENERIC = "generic", "I am not accepting this challenge"
        LATER = "later", "not now, please ask later"
        TOO_FAST = "too_fast", "the turns are too short"
        TOO_SLOW = "too_slow", "the turns are too long"
        TOO_LONG = "too_long", "the match is too long (its target)"
        TOO_SHORT = "too_short", "the match is too short (its target)"
        RATED = "rated", "I would rather play a rated match"
        CASUAL = "casual", "I would rather play a casual match"
        NO_BOT = "no_bot", "I do not play bot accounts"
        ONLY_BOT = "only_bot", "I play only bot accounts"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    mode = models.CharField(max_length=8, choices=Mode.choices)
    level = models.CharField(max_length=8, blank=True, default="",
                             choices=[(level, level) for level in LEVELS],
                             help_text="The bot's level; empty between two people.")
    seed = models.CharField(max_length=64, editable=False,
                            help_text="The match seed (hex); each game's seed derives from it. "
                                      "Never sent before the match is over.")
    target = models.PositiveSmallIntegerField(default=50)
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.PLAYING)
    player0 = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                on_delete=models.CASCADE, related_name="+")
    player1 = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                on_delete=models.CASCADE, related_name="+")
    bot_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    score0 = models.PositiveSmallIntegerField(default=0)
    score1 = models.PositiveSmallIntegerField(default=0)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    reason = models.CharField(max_length=10, blank=True, default="", choices=Reason.choices)
    # The current game: its number (1, 2, ...), whose turn (null when over) and how many
    # actions it has, for the optimistic check before anything is replayed.
    game_number = models.PositiveSmallIntegerField(default=1)
    turn = models.PositiveSmallIntegerField(null=True, blank=True)
    actions_played = models.PositiveIntegerField(default=0)
    event = models.PositiveIntegerField(default=0, help_text="The latest event's number.")
    daily = models.DateField(null=True, blank=True, help_text="The daily's date.")
    ranked = models.BooleanField(default=False, help_text="A daily on the global boards.")
    bot_pending = models.BooleanField(
        default=False, help_text="The bot's turn continues in the background.")
    # Between people: the turn's time, when the current turn began and so when it ends (null
    # when no turn runs: waiting, over, or against the bot).
    turn_seconds = models.PositiveIntegerField(
        null=True, blank=True, choices=[(seconds, str(seconds)) for seconds in TURN_SECONDS])
    turn_started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True,
                                    help_text="turn_started_at + turn_seconds.")
    invite_code = models.CharField(max_length=INVITE_CODE_LENGTH, null=True, blank=True,
                                   unique=True, editable=False,
                                   help_text="The invitation's code (Crockford base32).")
    invitee = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                on_delete=models.CASCADE, related_name="+",
                                help_text="The only player who may join, if invited directly.")
    # Chosen when the match is created (and checked again when the second player joins): only
    # a match between two established people, within the pair's daily allowance, is rated.
    rated = models.BooleanField(default=False, help_text="Counts on the ratings board.")
    unrated_reason = models.CharField(max_length=11, blank=True, default="bot",
                                      choices=Unrated.choices,
                                      help_text="Why not rated; empty when rated.")
    # An open seek: a waiting match anyone but its creator may take (no invitee, its code
    # never shown), listed by GET /seeks.
    seek = models.BooleanField(default=False)
    decline_reason = models.CharField(max_length=10, blank=True, default="",
                                      choices=DeclineReason.choices,
                                      help_text="Why the invitee declined, if they said.")
    # Whether each seat's player is a bot account (``Player.bot``), kept on the match as its
    # seats are filled (seat 1's from the invitee's when invited directly), so that the match
    # is shown from its own row.
    player0_bot = models.BooleanField(default=False)
    player1_bot = models.BooleanField(default=False)
    rematch_of = models.OneToOneField("self", null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="rematch")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True,
                                      help_text="When its first game was dealt (a friend "
                                                "match: when the second player joined).")
    updated_at = models.DateTimeField(auto_now=True, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True,
                                       help_text="When it finished or was cancelled.")

    class Meta:
        ordering = ["-updated_at"]
        indexes = [
            models.Index(fields=["player0", "-updated_at"], name="sm_match_player0_recent"),
            models.Index(fields=["player1", "-updated_at"], name="sm_match_player1_recent"),
            models.Index(fields=["invitee", "-updated_at"], name="sm_match_invitee_recent"),
            # The worker's sweeps: turns past their deadline, invitations past their days.
            models.Index(fields=["deadline"], condition=Q(status="playing"),
                         name="sm_match_deadline"),
            models.Index(fields=["created_at"], condition=Q(status="waiting"),
                         name="sm_match_waiting_since"),
            models.Index(fields=["-created_at", "-id"], condition=Q(status="waiting", seek=True),
                         name="sm_match_open_seeks"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["player0", "daily"], condition=Q(mode="daily"),
                                    name="sm_match_one_daily_per_player_and_date"),
            models.CheckConstraint(condition=Q(mode="daily", daily__isnull=False, target=1)
                                   | (~Q(mode="daily") & Q(daily__isnull=True)),
                                   name="sm_match_daily_has_a_date"),
            models.CheckConstraint(condition=Q(ranked=False) | Q(mode="daily"),
                                   name="sm_match_ranked_only_daily"),
            models.CheckConstraint(condition=Q(bot_seat__isnull=True) | Q(bot_seat__lte=1),
                                   name="sm_match_bot_seat"),
            models.CheckConstraint(condition=Q(winner__isnull=True) | Q(winner__lte=1),
                                   name="sm_match_winner_is_a_seat"),
            models.CheckConstraint(condition=Q(turn__isnull=True) | Q(turn__lte=1),
                                   name="sm_match_turn_is_a_seat"),
            models.CheckConstraint(
                condition=Q(status="finished", finished_at__isnull=False, turn__isnull=True)
                | Q(status__in=["cancelled", "aborted"], finished_at__isnull=False,
                    turn__isnull=True, winner__isnull=True)
                | (Q(status__in=["waiting", "playing"])
                   & Q(winner__isnull=True, finished_at__isnull=True)),
                name="sm_match_finished_has_an_end"),
            models.CheckConstraint(
                condition=Q(mode="friend", turn_seconds__isnull=False)
                | (~Q(mode="friend") & Q(turn_seconds__isnull=True, invite_code__isnull=True,
                                         deadline__isnull=True)),
                name="sm_match_clock_only_between_people"),
            models.CheckConstraint(condition=Q(game_number__gte=1), name="sm_match_game_number"),
            models.CheckConstraint(condition=Q(seek=False)
                                   | Q(mode="friend", invitee__isnull=True),
                                   name="sm_match_seek_has_no_invitee"),
            models.CheckConstraint(condition=Q(decline_reason="") | Q(reason="declined"),
                                   name="sm_match_decline_reason_only_declined"),
            models.CheckConstraint(
                condition=Q(rated=True, unrated_reason="", mode="friend")
                | Q(rated=False) & ~Q(unrated_reason=""),
                name="sm_match_rated_or_why_not"),
        ]

    def __str__(self) -> str:
        return f"{self.mode} match {self.pk}"

    def player_of(self, seat: int):
        return self.player0_id if seat == 0 else self.player1_id

    def seat_of(self, player) -> int | None:
        if self.player0_id == player.pk:
            return 0
        if self.player1_id == player.pk:
            return 1
        return None

    def may_view(self, player) -> bool:
        """A seated player, or the invitee of a direct invitation (who sees it as seat 1)."""
        return self.seat_of(player) is not None or (
            self.invitee_id is not None and self.invitee_id == player.pk)

    def viewer_seat(self, player) -> int:
        """The seat ``player`` sees the match from: theirs, or 1 for the invitee."""
        seat = self.seat_of(player)
        return 1 if seat is None else seat

    def clock_start(self, now: datetime, *, first_turn: bool = False) -> None:
        """A new turn begins ``now`` (between people): its deadline follows from it. A seat's
        first turn of the match gets at least ``FIRST_TURN_SECONDS``."""
        if self.turn_seconds is None:
            raise ValueError("An untimed match has no clock.")
        seconds = max(self.turn_seconds, FIRST_TURN_SECONDS) if first_turn else self.turn_seconds
        self.turn_started_at = now
        self.deadline = now + timedelta(seconds=seconds)

    def clock_stop(self) -> None:
        self.deadline = None

    def is_overdue(self, now: datetime) -> bool:
        return (self.status == self.Status.PLAYING and self.deadline is not None
                and self.deadline <= now)

    @property
    def invite_expires_at(self) -> datetime:
        return self.created_at + timedelta(days=INVITE_DAYS)

    def is_expired(self, now: datetime) -> bool:
        return self.status == self.Status.WAITING and self.invite_expires_at <= now

    @property
    def scores(self) -> list[int]:
        return [self.score0, self.score1]

    @property
    def is_over(self) -> bool:
        """Played out, or aborted: no action can follow."""
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)

    def is_abortable(self, game: MatchGame | None) -> bool:
        """Whether ending this match now aborts it rather than loses it: a match between people
        being played whose seats have not both completed their first turn (in game 1, turn 1
        is the first seat's and turn 2 the second's), or, for a rated match, their first
        ``RATED_MIN_TURNS`` turns each: a rated result needs real play by both seats."""
        turns = RATED_MIN_TURNS if self.rated else 1
        return (self.mode == self.Mode.FRIEND and self.status == self.Status.PLAYING
                and game is not None and game.number == 1 and game.turn_number <= 2 * turns)


class MatchGame(models.Model):
    """One game of a match: its seed, its actions in order, and how it ended."""

    class Status(models.TextChoices):
        PLAYING = "playing"
        WON = "won"
        TIED = "tied"
        RESIGNED = "resigned"
        TIMEOUT = "timeout"
        ABORTED = "aborted"

    # The unique (match, number) index serves every lookup by match.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games",
                              db_index=False)
    number = models.PositiveSmallIntegerField(help_text="1 for the match's first game.")
    seed = models.CharField(max_length=64, help_text="The game's seed (hex).")
    actions = models.JSONField(default=list, help_text="[[source, target], ...] in order.")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_number = models.PositiveSmallIntegerField(default=1)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="sm_game_once_per_number"),
            models.CheckConstraint(
                condition=Q(points__isnull=True) | Q(status="won", points__gte=1,
                                                      points__lte=MAX_POINTS)
                | Q(status="tied", points=0),
                name="sm_game_points_only_when_over"),
            models.CheckConstraint(condition=Q(winner__isnull=True) | Q(winner__lte=1),
                                   name="sm_game_winner_is_a_seat"),
        ]

    def __str__(self) -> str:
        return f"game {self.number} of {self.match_id}"

    @property
    def is_over(self) -> bool:
        return self.status != self.Status.PLAYING


class Action(models.Model):
    """One action played, by a person or the bot: enough to rebuild every game."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="action_rows",
                              db_index=False)
    game = models.PositiveSmallIntegerField(help_text="The game's number in the match.")
    number = models.PositiveIntegerField(help_text="0 for the game's first action.")
    seat = models.PositiveSmallIntegerField()
    source = models.CharField(max_length=2)
    target = models.CharField(max_length=2)
    card = models.CharField(max_length=2)
    played_at = models.DateTimeField()

    class Meta:
        ordering = ["match", "game", "number"]
        constraints = [
            # Two requests racing to store the same action: the database lets one through.
            models.UniqueConstraint(fields=["match", "game", "number"],
                                    name="sm_action_once_per_number"),
            models.CheckConstraint(condition=Q(seat__lte=1), name="sm_action_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.source}>{self.target} ({self.card}): {self.number} of game {self.game}"


class Event(models.Model):
    """One numbered event of a match, as each seat may see it (``seat0``, ``seat1``)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events",
                              db_index=False)
    number = models.PositiveIntegerField(help_text="1 for the match's first event.")
    kind = models.CharField(max_length=16)
    seat0 = models.JSONField(help_text="The event as seat 0 sees it.")
    seat1 = models.JSONField(help_text="The event as seat 1 sees it.")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="sm_event_once_per_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="sm_event_number"),
        ]

    def __str__(self) -> str:
        return f"event {self.number} of {self.match_id}: {self.kind}"


class BotSeedOffer(models.Model):
    """The server seed of a player's next match against the house bot, drawn and committed in
    the fairness log before the player sends the client seed it is mixed with
    (docs/FAIRNESS.md, "Against the house bot"): the server cannot pick its seed after seeing
    the player's. One per player, taken by the match created with its commitment; the match
    gets the id its subject names."""

    player = models.OneToOneField(settings.AUTH_USER_MODEL, primary_key=True,
                                  on_delete=models.CASCADE, related_name="+")
    match_id = models.UUIDField(unique=True, help_text="The id of the match it will deal.")
    entry = models.OneToOneField("fairness.LogEntry", on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"the next bot match of {self.player_id}: match/{self.match_id}"
