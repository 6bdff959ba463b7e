"""Players and their access tokens.

A ``Player`` is Django's user model: a guest has no username and an unusable password; claiming
the account sets both. Staff who use the admin are players with ``is_staff``.
"""

from __future__ import annotations

import uuid
from typing import Any, ClassVar

from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.contrib.auth.models import PermissionsMixin
from django.db import models

from server.players import names, usernames


class PlayerManager(BaseUserManager["Player"]):
    def create_user(self, username: str | None = None, password: str | None = None,
                    **fields: Any) -> Player:
        player = self.model(username=username, **fields)
        if player.name:
            player.name = names.clean_name(player.name)
            player.name_key = names.name_key(player.name)
        if username is not None:  # the rule of the API's claim (raises InvalidUsername)
            player.username = usernames.clean_username(username)
            player.username_key = usernames.username_key(player.username)
        player.set_password(password)  # None gives an unusable password: a guest
        player.save(using=self._db)
        return player

    def get_by_natural_key(self, username: str | None) -> Player:
        """Signing in to the admin matches usernames the way the API does."""
        if username is None:  # Django's sign-in never asks for none; the stubs allow it
            raise self.model.DoesNotExist()
        # A username the profile refuses can only be an old one, keyed by its lower case.
        return self.get(username_key=usernames.username_key(username) or username.lower())

    def create_superuser(self, username: str, password: str | None, **fields: Any) -> Player:
        fields.setdefault("name", username)
        return self.create_user(username, password, is_staff=True, is_superuser=True, **fields)


class Player(AbstractBaseUser, PermissionsMixin):
    class Challenges(models.TextChoices):
        """Who may challenge the player directly (invite them by id to a match)."""
        ANYONE = "anyone", "any player"
        LEAGUE_MATES = "league_mates", "a fellow member of one of their leagues"
        NOBODY = "nobody", "nobody (an invitation's code still works)"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=32)
    # Display names are unique by their key: case, spacing and look-alikes aside (names.py).
    name_key = models.CharField(max_length=255, unique=True)
    username = models.CharField(max_length=32, unique=True, null=True, blank=True)
    # Usernames are unique, and matched at sign-in, by their case-mapped form (usernames.py).
    username_key = models.CharField(max_length=64, unique=True, null=True, blank=True,
                                    editable=False)
    is_staff = models.BooleanField(default=False)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    challenges = models.CharField(max_length=12, choices=Challenges.choices,
                                  default=Challenges.LEAGUE_MATES)
    bot = models.BooleanField(default=False,
                              help_text="An account played by a program through the API; "
                                        "once set, for good.")

    objects = PlayerManager()

    USERNAME_FIELD = "username"
    REQUIRED_FIELDS: ClassVar[list[str]] = []

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(username__isnull=True, username_key__isnull=True)
                | models.Q(username__isnull=False, username_key__isnull=False),
                name="player_username_has_key"),
        ]

    @property
    def is_guest(self) -> bool:
        return self.username is None

    def __str__(self) -> str:
        return self.name


# What a token may do (docs/API.md, "Token scopes"): ``account`` manages the account (its
# name, password, settings, bot mark and tokens), ``play`` everything else. A token issued by
# signing up or in has both; a bot's token can be issued with ``play`` alone.
SCOPES = ("account", "play")
ALL_SCOPES = " ".join(SCOPES)


class AccessToken(models.Model):
    """A bearer token. Only its SHA-256 is stored, so a database leak reveals no token.

    The API names a token by ``public_id``, a random UUID: the sequential primary key would
    tell anyone with a token how many tokens have been issued, and when.
    """

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="tokens")
    key_hash = models.CharField(max_length=64, unique=True)
    label = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    scopes = models.CharField(max_length=64, default=ALL_SCOPES,
                              help_text="What the token may do: scope names, space-separated "
                                        "(SCOPES).")

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"token {self.public_id} of {self.player_id}"

    def allows(self, scope: str) -> bool:
        return scope in self.scopes.split()
