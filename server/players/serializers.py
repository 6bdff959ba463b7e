"""Input validation for the players' endpoints, and the shapes they return."""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from server.api.fields import StrictCharField
from server.api.formats import iso_datetime
from server.api.inputs import StrictInput, StrictQuery
from server.players import names, usernames
from server.players.models import SCOPES, AccessToken, Player

NAME_HELP = (
    f"Display name. {names.NAME_RULE} Unique ignoring case, spaces and look-alike characters "
    "(their Unicode TR39 confusable skeleton): a name that looks like another player's is "
    "taken (409 `name_taken`, whose `suggestion` is a free name like it, \"Ada 2\", when one "
    "of the first few numbered variants is free)."
)


@extend_schema_field({"type": "string", "format": names.NAME_FORMAT})
class NicknameField(StrictCharField):
    """A name under the PRECIS Nickname profile (``names.clean_text``); its value is the name
    as the profile enforces it. The schema has a looser pattern and states the rule."""

    def __init__(self, *, subject: str, min_length: int, max_length: int,
                 **options: Any) -> None:
        self.subject = subject
        self.lengths = (min_length, max_length)  # DRF's own attributes may be None
        rule = names.name_rule(subject, min_length, max_length)
        options.setdefault("help_text", rule)
        super().__init__(trim_whitespace=False, min_length=min_length, max_length=max_length,
                         validators=[RegexValidator(names.LOOSE_PATTERN, rule)], **options)

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        try:
            return names.clean_text(value, subject=self.subject, min_length=self.lengths[0],
                                    max_length=self.lengths[1])
        except names.InvalidName as error:
            raise serializers.ValidationError(str(error)) from None


def name_field(**options: Any) -> NicknameField:
    return NicknameField(subject="A name", min_length=names.MIN_LENGTH,
                         max_length=names.MAX_LENGTH, help_text=NAME_HELP, **options)


TOKEN_LABEL_MAX_LENGTH = 64


# Printable text that neither starts nor ends with a space: what is sent is what is listed. The
# schema publishes this pattern, so it says only what reads alike in Python's re and in
# ECMA-262 (OpenAPI's dialect): the controls (C0, DEL, C1) and the white space (Unicode's
# White_Space beyond them) are spelled out, as \s means other characters in each, and \A \Z
# (published as ^ $) end at the string's end, where Python's $ also lets a final newline by.
_CONTROLS = r"\u0000-\u001f\u007f-\u009f"
_SPACES = r" \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
# The bidirectional controls (marks, embeddings, overrides, isolates): U+202E RIGHT-TO-LEFT
# OVERRIDE would show a label in the list of tokens backwards ("Phone" as "enohP"), or make one
# read as another; a device's label needs none of them.
_BIDI = r"\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
TOKEN_LABEL_PATTERN = (rf"\A[^{_CONTROLS}{_BIDI}{_SPACES}]"
                       rf"(?:[^{_CONTROLS}{_BIDI}]*[^{_CONTROLS}{_BIDI}{_SPACES}])?\Z")


def token_label_field() -> StrictCharField:
    return StrictCharField(
        required=False, trim_whitespace=False, min_length=1, max_length=TOKEN_LABEL_MAX_LENGTH,
        validators=[RegexValidator(TOKEN_LABEL_PATTERN,
                                   "No control or bidirectional control characters, and "
                                   "no space at either end.")],
        help_text="Names this device in your list of tokens (default: its User-Agent). No "
                  "control characters (U+0000-U+001F, U+007F-U+009F), no bidirectional "
                  "controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), and no "
                  "white space at either end.",
    )


class PlayerCreateInput(StrictInput):
    name = name_field(required=False)
    label = token_label_field()  # type: ignore[assignment]  # DRF's metaclass takes it off the class: not Field.label


class PlayerUpdateInput(StrictInput):
    name = name_field(required=False)
    challenges = serializers.ChoiceField(
        choices=Player.Challenges.choices, required=False,
        help_text="Who may challenge you directly (invite you by id): `anyone`, "
                  "`league_mates` (the default) or `nobody`. An invitation's code still "
                  "works for anyone, and a rematch is offered whatever this says.")
    bot = serializers.BooleanField(
        required=False,
        help_text="True marks this account as played by a program through the API, for good "
                  "(409 `bot_permanent` for false afterwards). Only an account with no "
                  "finished match between people and none being played may (else 409 "
                  "`bot_not_allowed`). A bot account's matches with people are never rated.")


@extend_schema_field({"type": "string", "format": usernames.USERNAME_FORMAT})
class UsernameField(StrictCharField):
    """A username; claiming checks it against the PRECIS profile (``usernames``), signing in
    only looks it up."""

    def __init__(self, **options: Any) -> None:
        super().__init__(min_length=usernames.MIN_LENGTH, max_length=usernames.MAX_LENGTH,
                         validators=[RegexValidator(usernames.LOOSE_PATTERN,
                                                    usernames.USERNAME_RULE)],
                         help_text=usernames.USERNAME_RULE, **options)


@extend_schema_field({"type": "string", "format": "password"})
class PasswordField(StrictCharField):
    def __init__(self, **options: Any) -> None:
        super().__init__(
            min_length=1, max_length=200, trim_whitespace=False,
            style={"input_type": "password"},
            help_text="Claiming: not the username or the display name, nor too like either "
                      "(400 `password_too_similar`), and Django's password rules (422 "
                      "`weak_password`).", **options)


class CredentialsInput(StrictInput):
    username = UsernameField()
    password = PasswordField()


class SessionCreateInput(CredentialsInput):
    label = token_label_field()  # type: ignore[assignment]  # DRF's metaclass takes it off the class: not Field.label


class PlayerByNameQuery(StrictQuery):
    name = NicknameField(subject="A name", min_length=names.MIN_LENGTH,
                         max_length=names.MAX_LENGTH,
                         help_text="The display name to look up (the display names' rule).")


class PlayerRef(serializers.Serializer):
    """A player as others see it."""

    id = serializers.UUIDField()
    name = serializers.CharField()


class PlayerOutput(PlayerRef):
    """A player as others see it, with whether the account is a bot."""

    bot = serializers.BooleanField(help_text="A bot account: played by a program through "
                                             "the API (`PATCH /players/me {\"bot\": true}`).")


class PlayerWithToken(PlayerOutput):
    token = serializers.CharField(help_text="Send as 'Authorization: Bearer <token>'.")


class PlayerProfileOutput(PlayerOutput):
    username = serializers.CharField(allow_null=True)
    guest = serializers.BooleanField(help_text="True until the account is claimed.")
    created_at = serializers.DateTimeField()
    challenges = serializers.ChoiceField(
        choices=Player.Challenges.choices,
        help_text="Who may challenge you directly: `anyone`, `league_mates` or `nobody`.")


class TokenOutput(serializers.Serializer):
    id = serializers.UUIDField(help_text="Random; revoke the token with DELETE "
                                         "/api/v1/players/me/tokens/{id}.")
    label = serializers.CharField(  # type: ignore[assignment]  # (as in PlayerCreateInput)
        help_text="The `label` sent when the token was issued (guest creation or sign-in), "
                  "else the User-Agent of that request; may be empty.")
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)
    current = serializers.BooleanField(help_text="The token this request was made with.")
    scopes = serializers.ListField(
        child=serializers.ChoiceField(choices=list(SCOPES)),
        help_text="What it may do: `account` (your name, password, settings, bot mark and "
                  "tokens) and `play` (everything else).")


@extend_schema_field({"type": "array", "minItems": 1, "maxItems": len(SCOPES),
                      "uniqueItems": True, "items": {"type": "string", "enum": list(SCOPES)}})
class ScopesField(serializers.ListField):
    pass


class TokenCreateInput(StrictInput):
    label = token_label_field()  # type: ignore[assignment]  # DRF's metaclass takes it off the class: not Field.label
    scopes = ScopesField(
        child=serializers.ChoiceField(choices=list(SCOPES)), min_length=1, max_length=2,
        help_text="What the new token may do: `[\"play\"]` for a bot's token, which cannot "
                  "change your name, password or settings, nor see or make tokens.")

    def validate_scopes(self, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise serializers.ValidationError("Name each scope once.")
        return value


class TokenWithSecretOutput(TokenOutput):
    token = serializers.CharField(help_text="Send as 'Authorization: Bearer <token>'; shown "
                                            "only once.")


def player_ref(player: Player) -> dict:
    return {"id": str(player.pk), "name": player.name, "bot": player.bot}


def player_with_token(player: Player, token: str) -> dict:
    return {**player_ref(player), "token": token}


def player_profile(player: Player) -> dict:
    return {
        **player_ref(player),
        "username": player.username,
        "guest": player.is_guest,
        "created_at": iso_datetime(player.created_at),
        "challenges": player.challenges,
    }


def token_output(token: AccessToken, current: AccessToken | None) -> dict:
    return {
        "id": str(token.public_id),
        "label": token.label,
        "created_at": iso_datetime(token.created_at),
        "last_used_at": iso_datetime(token.last_used_at),
        "current": current is not None and token.pk == current.pk,
        "scopes": token.scopes.split(),
    }
