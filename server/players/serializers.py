"""Input validation for the players' endpoints, and the shapes they return."""

from __future__ import annotations

from django.core.validators import RegexValidator
from rest_framework import serializers

from server.api.fields import StrictCharField
from server.api.formats import iso_datetime
from server.api.inputs import StrictInput
from server.players import names
from server.players.models import AccessToken, Player

USERNAME_PATTERN = r"^[A-Za-z0-9_.\-]{3,32}$"


NAME_HELP = (
    "Display name: 2 to 24 characters, no leading or trailing space, no control or invisible "
    "formatting characters. Unique ignoring case and spaces."
)


def name_field(**options) -> StrictCharField:
    return StrictCharField(
        trim_whitespace=False, min_length=names.MIN_LENGTH, max_length=names.MAX_LENGTH,
        validators=[RegexValidator(names.NAME_PATTERN, names.NAME_RULE)], help_text=NAME_HELP,
        **options,
    )


TOKEN_LABEL_MAX_LENGTH = 64


def token_label_field() -> StrictCharField:
    return StrictCharField(
        required=False, min_length=1, max_length=TOKEN_LABEL_MAX_LENGTH,
        help_text="Names this device in your list of tokens (default: its User-Agent).",
    )


class PlayerCreateInput(StrictInput):
    name = name_field(required=False)
    label = token_label_field()


class PlayerUpdateInput(StrictInput):
    name = name_field(required=False)


class CredentialsInput(StrictInput):
    username = StrictCharField(
        min_length=3, max_length=32, validators=[RegexValidator(USERNAME_PATTERN)],
        help_text="3 to 32 letters, digits, '.', '_' or '-'; case is ignored when signing in.",
    )
    password = StrictCharField(min_length=1, max_length=200, trim_whitespace=False,
                               style={"input_type": "password"})


class SessionCreateInput(CredentialsInput):
    label = token_label_field()


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
    id = serializers.UUIDField(help_text="Random; revoke the token with DELETE "
                                         "/api/v1/players/me/tokens/{id}.")
    label = serializers.CharField(
        help_text="The `label` sent when the token was issued (guest creation or sign-in), "
                  "else the User-Agent of that request; may be empty.")
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
        "id": str(token.public_id),
        "label": token.label,
        "created_at": iso_datetime(token.created_at),
        "last_used_at": iso_datetime(token.last_used_at),
        "current": current is not None and token.pk == current.pk,
    }
