"""Leagues: a few friends who compare their dailies among themselves.

A league is joined with its ``code``; the owner can rename it, rotate the code (the old one
stops working) and remove members. Limits (``limits``) keep a league's board a small sort.
"""

from __future__ import annotations

import secrets
import uuid

from django.conf import settings
from django.db import models
from django.db.models.functions import Length
from django.db.models.lookups import Exact, GreaterThanOrEqual

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread
CODE_LENGTH = 8


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class League(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=40)
    code = models.CharField(max_length=CODE_LENGTH, default=new_code)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="leagues_owned")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(fields=["code"], name="league_code_unique"),
            models.CheckConstraint(condition=Exact(Length("code"), CODE_LENGTH),
                                   name="league_code_length"),
            models.CheckConstraint(condition=GreaterThanOrEqual(Length("name"), 2),
                                   name="league_name_length"),
        ]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships",
                               db_index=False)  # the unique (league, player) index serves
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="league_memberships")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="membership_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.league_id}"
