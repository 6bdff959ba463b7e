"""The players' API: guests, names, claiming an account, signing in and out, tokens."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db import transaction
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.authentication import BaseAuthentication
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from server.api.headers import absolute_url
from server.api.problems import NotFound
from server.api.schema import problems
from server.api.views import ApiView
from server.core.queries import one_or_none
from server.players import bots, names, services
from server.players import serializers as s
from server.players.models import AccessToken, Player
from server.players.problems import PlayerNotFound
from server.players.tokens import (
    authenticated_player,
    authenticated_token,
    scope_require,
    token_create,
)

TAG = ["players"]


def _label(request: Request, values: dict[str, Any]) -> str:
    """The label the client chose for its new token, else its User-Agent."""
    return values.get("label") or request.headers.get("User-Agent", "")[:s.TOKEN_LABEL_MAX_LENGTH]


class PlayerCreateView(ApiView):
    permission_classes = [AllowAny]
    authentication_classes: list[type[BaseAuthentication]] = []
    issues_tokens = True
    throttle_scope = "players"

    @extend_schema(
        tags=TAG,
        operation_id="players_create",
        summary="Create a guest player",
        description="No password needed. Keep the returned token: it is shown only once.",
        request=s.PlayerCreateInput,
        responses={201: s.PlayerWithToken, **problems(
            400, 409, 413, 415, 429,
            s409="`name_taken`; `suggestion` is a free name like it (\"Ada 2\"), if any.")},
        examples=[OpenApiExample("named", value={"name": "Ada"}, request_only=True)],
    )
    def post(self, request: Request) -> Response:
        data = s.PlayerCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        player, token = services.player_create(
            name=data.validated_data.get("name"), token_label=_label(request, data.validated_data)
        )
        return Response(s.player_with_token(player, token), status=status.HTTP_201_CREATED,
                        headers={"Location": absolute_url(request, "api:player",
                                                          player_id=player.pk)})


class MeView(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=TAG, operation_id="players_me", summary="Your profile",
                   responses={200: s.PlayerProfileOutput, **problems(401)})
    def get(self, request: Request) -> Response:
        return Response(s.player_profile(authenticated_player(request)))

    @extend_schema(tags=TAG, operation_id="players_me_update",
                   summary="Change your display name, who may challenge you, or mark the "
                           "account a bot",
                   description="Each member sent is changed; those left out stay as they are. "
                               "The bot mark is checked first: a refused one changes nothing.",
                   request=s.PlayerUpdateInput,
                   responses={200: s.PlayerProfileOutput, **problems(
                       400, 401, 403, 409, 415,
                       s403="`insufficient_scope`: a token without the `account` scope.",
                       s409="`name_taken` (`suggestion` is a free name like it, \"Ada 2\", "
                            "if any), `bot_not_allowed` (a match between people finished or "
                            "being played) or `bot_permanent` (false for a bot account).")},
                   examples=[OpenApiExample("challenges from anyone",
                                            value={"challenges": "anyone"}, request_only=True),
                             OpenApiExample("a bot account", value={"bot": True},
                                            request_only=True)])
    def patch(self, request: Request) -> Response:
        scope_require(request, "account")
        data = s.PlayerUpdateInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        with transaction.atomic():
            player = authenticated_player(request)
            if "bot" in values:
                player = bots.player_bot_set(player=player, bot=values["bot"])
            player = services.player_rename(player=player, name=values.get("name"))
            if "challenges" in values:
                player = services.player_challenges_set(player=player,
                                                        challenges=values["challenges"])
        return Response(s.player_profile(player))


class ClaimView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "claims"  # claimed accounts in bulk from one address feed a ring

    @extend_schema(
        tags=TAG, operation_id="players_me_claim",
        summary="Claim this guest account with a username and password",
        description="Afterwards, sign in on another device with POST /api/v1/sessions.",
        request=s.CredentialsInput,
        responses={200: s.PlayerProfileOutput, **problems(
            400, 401, 403, 409, 415, 422, 429, s409="`already_claimed` or `username_taken`.",
            s403="`insufficient_scope`: a token without the `account` scope.",
            s429="`throttled`: this address's claims of the day are used "
                 "(`FOURSQUARE_RATE_CLAIMS_ADDRESS`, 10 a day).",
            s400="`invalid` (the body, or a username the PRECIS profile refuses), or "
                 "`password_too_similar`: the password is the username or the display name, or "
                 "too like either; `errors` names the field.",
            s422="`weak_password`: Django's password rules (8+ characters, not common, not "
                 "all digits).")},
    )
    def post(self, request: Request) -> Response:
        scope_require(request, "account")
        data = s.CredentialsInput(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.player_claim(player=authenticated_player(request), **data.validated_data)
        return Response(s.player_profile(player))


class SessionCreateView(ApiView):
    permission_classes = [AllowAny]
    authentication_classes: list[type[BaseAuthentication]] = []
    issues_tokens = True
    throttle_scope = "sessions"  # password guessing

    @extend_schema(
        tags=TAG, operation_id="sessions_create",
        summary="Sign in with a username and password: a new token for this device",
        request=s.SessionCreateInput,
        responses={201: s.PlayerWithToken, **problems(
            400, 401, 415, 429, s401="Wrong username or password (`invalid_credentials`).")},
    )
    def post(self, request: Request) -> Response:
        data = s.SessionCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        access, token = services.session_create(
            username=values["username"], password=values["password"],
            token_label=_label(request, values))
        return Response(s.player_with_token(access.player, token), status=status.HTTP_201_CREATED,
                        headers={"Location": absolute_url(request, "api:token",
                                                          token_id=access.public_id)})


class SessionCurrentView(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=TAG, operation_id="sessions_delete_current",
                   summary="Sign out: revoke the token this request was made with",
                   request=None, responses={204: None, **problems(401)})
    def delete(self, request: Request) -> Response:
        services.token_revoke(player=authenticated_player(request),
                              token=authenticated_token(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenListView(ApiView):
    permission_classes = [IsAuthenticated]
    issues_tokens = True  # POST answers with a new token: never stored by a cache

    @extend_schema(tags=TAG, operation_id="tokens_list", summary="Your signed-in devices",
                   responses={200: s.TokenOutput(many=True), **problems(401, 403)})
    def get(self, request: Request) -> Response:
        scope_require(request, "account")
        tokens = AccessToken.objects.filter(player=authenticated_player(request))
        return Response([s.token_output(token, authenticated_token(request)) for token in tokens])

    @extend_schema(
        tags=TAG, operation_id="tokens_create",
        summary="Issue a token with the scopes you choose (a bot's: play only)",
        description=(
            "A new token of your account allowed `scopes`: `[\"play\"]` gives a program a "
            "token that plays (matches, actions, streams, leagues, boards) but cannot change "
            "your name, password or settings, mark the account, nor list, make or revoke "
            "tokens (403 `insufficient_scope`). Needs a token with the `account` scope."),
        request=s.TokenCreateInput,
        responses={201: s.TokenWithSecretOutput, **problems(400, 401, 403, 415)},
        examples=[OpenApiExample("a bot's token", value={"label": "my bot",
                                                         "scopes": ["play"]},
                                 request_only=True)],
    )
    def post(self, request: Request) -> Response:
        scope_require(request, "account")
        data = s.TokenCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        access, token = token_create(player=authenticated_player(request),
                                     label=_label(request, values),
                                     scopes=tuple(values["scopes"]))
        return Response({**s.token_output(access, authenticated_token(request)), "token": token},
                        status=status.HTTP_201_CREATED,
                        headers={"Location": absolute_url(request, "api:token",
                                                          token_id=access.public_id)})


class TokenDetailView(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=TAG, operation_id="tokens_retrieve", summary="One of your tokens",
                   responses={200: s.TokenOutput, **problems(401, 403, 404)})
    def get(self, request: Request, token_id: UUID) -> Response:
        scope_require(request, "account")
        token = one_or_none(AccessToken.objects.filter(player=authenticated_player(request),
                                                       public_id=token_id))
        if token is None:
            raise NotFound("You have no token with that id.")
        return Response(s.token_output(token, authenticated_token(request)))

    @extend_schema(tags=TAG, operation_id="tokens_delete", summary="Revoke one of your tokens",
                   request=None, responses={204: None, **problems(401, 403, 404)})
    def delete(self, request: Request, token_id: UUID) -> Response:
        scope_require(request, "account")
        if not services.token_revoke_by_id(player=authenticated_player(request),
                                           public_id=token_id):
            raise NotFound("You have no token with that id.")
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayerByNameView(ApiView):
    """A player by display name, compared as names are (``names.name_key``)."""

    permission_classes = [AllowAny]
    throttle_scope = "boards"  # public, as a profile is
    throttle_reads = True
    query_parameters = frozenset({"name"})

    @extend_schema(
        tags=TAG, operation_id="players_by_name",
        summary="Look a player up by display name",
        description=(
            "The player whose display name is `name`, compared as names are compared for "
            "uniqueness (case, spacing, compatibility forms and look-alike characters aside: "
            "`ada`, `ADA` and `Ａｄａ` find Ada), so that a challenge (`invitee`) needs no id "  # noqa: RUF001 -- the look-alike is the example
            "copied by hand. At most one player has a name; 404 `not_found` when none has it. "
            "A name no player could have (outside the display-name rule) is 400 `invalid`. "
            "The profile is `GET /players/{id}`."),
        parameters=[s.PlayerByNameQuery],
        responses={200: s.PlayerOutput, **problems(400, 404, 429)},
    )
    def get(self, request: Request) -> Response:
        query = s.PlayerByNameQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        key = names.name_key(query.validated_data["name"])
        player = one_or_none(Player.objects.filter(name_key=key, is_active=True))
        if player is None:
            raise PlayerNotFound(f"No player is named {query.validated_data['name']!r}.")
        return Response(s.player_ref(player))
