"""Input validation for the players' endpoints, and the shapes they return."""

from __future__ import annotations

from rest_framework import serializers

from server.api.fields import StrictCharField
from server.api.formats import iso_datetime
from server.players.models import AccessToken, Player


class PlayerCreateInput(serializers.Serializer):
    name = StrictCharField(required=False, allow_blank=False, trim_whitespace=False,
                                 max_length=200, help_text="Display name (2-24 characters).")


class PlayerUpdateInput(serializers.Serializer):
    name = StrictCharField(trim_whitespace=False, max_length=200,
                                 help_text="Display name (2-24 characters).")


class CredentialsInput(serializers.Serializer):
    username = StrictCharField(max_length=200)
    password = StrictCharField(max_length=200, trim_whitespace=False,
                                     style={"input_type": "password"})


class PlayerRef(serializers.Serializer):
    """A player as others see it."""

    id = serializers.UUIDField()
    name = serializers.CharField()


class PlayerWithToken(PlayerRef):
    token = serializers.CharField(help_text="Send as 'Authorization: Bearer <token>'.")


class PlayerProfileOutput(PlayerRef):
    username = serializers.CharField(allow_null=True)
    guest = serializers.BooleanField(help_text="True until the account is claimed.")
    created_at = serializers.DateTimeField()


class TokenOutput(serializers.Serializer):
    id = serializers.IntegerField()
    label = serializers.CharField()
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)
    current = serializers.BooleanField(help_text="The token this request was made with.")


def player_ref(player: Player) -> dict:
    return {"id": str(player.pk), "name": player.name}


def player_with_token(player: Player, token: str) -> dict:
    return {**player_ref(player), "token": token}


def player_profile(player: Player) -> dict:
    return {
        **player_ref(player),
        "username": player.username,
        "guest": player.is_guest,
        "created_at": iso_datetime(player.created_at),
    }


def token_output(token: AccessToken, current: AccessToken | None) -> dict:
    return {
        "id": token.pk,
        "label": token.label,
        "created_at": iso_datetime(token.created_at),
        "last_used_at": iso_datetime(token.last_used_at),
        "current": current is not None and token.pk == current.pk,
    }
