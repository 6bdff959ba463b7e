"""Writes on players: creating guests, naming, claiming, signing in, revoking tokens."""

from __future__ import annotations

from uuid import UUID

from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from server.api.problems import InvalidRequest
from server.core.queries import one_or_none
from server.players import names, usernames
from server.players.models import AccessToken, Player
from server.players.problems import (
    AlreadyClaimed,
    InvalidCredentials,
    InvalidName,
    NameTaken,
    PasswordTooSimilar,
    UsernameTaken,
    WeakPassword,
)
from server.players.tokens import token_create, token_issue

_GUEST_NAME_ATTEMPTS = 5
# How many numbered variants of a taken name are tried for a free one to suggest.
_SUGGESTION_TRIES = 20


def _clean_name(raw: object) -> str:
    try:
        return names.clean_name(raw)
    except names.InvalidName as error:
        raise InvalidName(str(error), errors=[{"field": "name", "message": str(error)}]) from None


def name_suggestion(name: str, *, player: Player | None = None) -> str | None:
    """A free name like ``name`` ("Ada 2", "Ada 3", ...), as the uniqueness rule compares
    names (their keys: case, spacing and look-alikes aside); None if the first few are all
    taken. Free when asked: a join racing for it may still find it taken."""
    variants = {names.name_key(variant): variant for variant in names.numbered_names(
        name, _SUGGESTION_TRIES)}
    taken = Player.objects.filter(name_key__in=variants)
    if player is not None and player.pk is not None:
        taken = taken.exclude(pk=player.pk)
    used = set(taken.values_list("name_key", flat=True))
    return next((variant for key, variant in variants.items() if key not in used), None)


def _save_name(player: Player, name: str) -> None:
    player.name, player.name_key = name, names.name_key(name)
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError:
        raise NameTaken(f"Another player's name is or looks like {name!r}; choose another "
                        "name.", suggestion=name_suggestion(name, player=player)) from None


@transaction.atomic
def player_create(*, name: str | None = None, token_label: str = "") -> tuple[Player, str]:
    """A guest player and its first token. Without a name, a fresh ``Player XXXXXX``."""
    player = Player(username=None)
    player.set_unusable_password()
    if name is not None:
        _save_name(player, _clean_name(name))
    else:
        for _ in range(_GUEST_NAME_ATTEMPTS):
            try:
                _save_name(player, names.guest_name())
                break
            except NameTaken:
                continue
        else:
            raise NameTaken("Could not find a free guest name; please choose one.")
    return player, token_issue(player=player, label=token_label)


def player_rename(*, player: Player, name: object | None) -> Player:
    if name is not None:
        _save_name(player, _clean_name(name))
    return player


def player_challenges_set(*, player: Player, challenges: str) -> Player:
    """Who may challenge ``player`` directly (``Player.Challenges``)."""
    player.challenges = challenges
    player.save(update_fields=["challenges"])
    return player


@transaction.atomic
def player_claim(*, player: Player, username: str, password: str) -> Player:
    """Give a guest a username and password so it can sign in on other devices."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if not player.is_guest:
        raise AlreadyClaimed()
    try:
        username = usernames.clean_username(username)
    except usernames.InvalidUsername as error:
        raise InvalidRequest(str(error), errors=[{"field": "username", "message": str(error)}]
                             ) from None
    player.username, player.username_key = username, usernames.username_key(username)
    if likeness := usernames.password_likeness(password, player):
        raise PasswordTooSimilar(likeness, errors=[{"field": "password", "message": likeness}])
    try:
        password_validation.validate_password(password, user=player)
    except ValidationError as error:
        raise WeakPassword(
            " ".join(error.messages),
            errors=[{"field": "password", "message": message} for message in error.messages],
        ) from None
    if Player.objects.filter(username_key=player.username_key).exists():
        raise UsernameTaken()
    player.set_password(password)
    player.claimed_at = timezone.now()
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError:
        raise UsernameTaken() from None
    return player


def session_create(*, username: str, password: str,
                   token_label: str = "") -> tuple[AccessToken, str]:
    """Sign in with a claimed account: a new token for this device (its row, whose ``player``
    is the account, and its plain text)."""
    key = usernames.username_key(username)
    player = None if key is None else one_or_none(
        Player.objects.filter(username_key=key, is_active=True))
    if player is None:
        Player().set_password(password)  # spend the same time as a real check
        raise InvalidCredentials()
    if not player.check_password(password):
        raise InvalidCredentials()
    return token_create(player=player, label=token_label)


def token_revoke(*, player: Player, token: AccessToken) -> None:
    """Revoke one of ``player``'s tokens (the one a request was made with, to sign out)."""
    AccessToken.objects.filter(player=player, pk=token.pk).delete()


def token_revoke_by_id(*, player: Player, public_id: UUID) -> bool:
    """Revoke the token of ``player`` with this public id; False if it has none."""
    deleted, _ = AccessToken.objects.filter(player=player, public_id=public_id).delete()
    return bool(deleted)


def tokens_revoke_all(*, player: Player, keep: AccessToken | None = None) -> int:
    tokens = AccessToken.objects.filter(player=player)
    if keep is not None:
        tokens = tokens.exclude(pk=keep.pk)
    deleted, _ = tokens.delete()
    return deleted
