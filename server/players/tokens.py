"""Bearer tokens: made here, stored hashed, and checked by the API's authentication class."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from django.db import connection
from django.utils import timezone
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from server.api.sweeps import Sweep
from server.core.queries import one_or_none
from server.players.models import SCOPES, AccessToken, Player

TOKEN_BYTES = 32
LAST_USED_RESOLUTION = timedelta(minutes=5)  # don't write on every request


# Every API request authenticates; the ORM spent longer building this query than PostgreSQL
# spends answering it, so it is written out once.
_PLAYER_FIELDS = [field.attname for field in Player._meta.concrete_fields]
_TOKEN_SQL = (
    'SELECT t."id", t."last_used_at", t."scopes", '
    + ", ".join(f'p."{field.column}"' for field in Player._meta.concrete_fields)
    + f' FROM "{AccessToken._meta.db_table}" t '
    f'JOIN "{Player._meta.db_table}" p ON p."id" = t."player_id" WHERE t."key_hash" = %s'
)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def last_use_due(last_used_at: datetime | None) -> bool:
    """Whether a token's last use is old enough to be written again."""
    return last_used_at is None or timezone.now() - last_used_at > LAST_USED_RESOLUTION


def token_create(*, player: Player, label: str = "",
                 scopes: tuple[str, ...] = SCOPES) -> tuple[AccessToken, str]:
    """A new token for ``player`` allowed ``scopes``: its row and its plain text, which exists
    only in this return value."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    access = AccessToken.objects.create(
        player=player, key_hash=hash_token(token), label=label[:64],
        scopes=" ".join(scope for scope in SCOPES if scope in scopes))
    return access, token


def scope_require(request: Request, scope: str) -> None:
    """Refuse the request (403 ``insufficient_scope``) unless its token allows ``scope``."""
    # Imported here: the problems import DRF's views, which import this module's
    # authentication class (DEFAULT_AUTHENTICATION_CLASSES).
    from server.players.problems import InsufficientScope

    access = request.auth
    if isinstance(access, AccessToken) and not access.allows(scope):
        raise InsufficientScope(
            f"This token's scopes ({access.scopes or 'none'}) do not include {scope!r}: use a "
            f"token with it (one from signing in, POST /api/v1/sessions).",
            scopes=access.scopes.split(), required=scope)


def authenticated_player(request: Request) -> Player:
    """The player a request authenticated as, in a view whose permissions require one (the
    checker knows ``request.user`` only as a user or an anonymous one)."""
    user = request.user
    if not isinstance(user, Player):
        raise exceptions.NotAuthenticated()
    return user


def authenticated_token(request: Request) -> AccessToken:
    """The token a request authenticated with, likewise (DRF's stubs expect its own Token)."""
    access = request.auth
    if not isinstance(access, AccessToken):
        raise exceptions.NotAuthenticated()
    return access


def token_issue(*, player: Player, label: str = "") -> str:
    """A new token for ``player``; the plain text exists only in this return value."""
    return token_create(player=player, label=label)[1]


class BearerTokenAuthentication(authentication.BaseAuthentication):
    """``Authorization: Bearer <token>``. Cookies never authenticate the API, so CSRF can't
    be used against it."""

    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[Player, AccessToken] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("Send 'Authorization: Bearer <token>'.")
        try:
            token = header[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        access = access_of(token)
        if access is None:
            raise exceptions.AuthenticationFailed("Invalid or revoked token.")
        return access.player, access

    def authenticate_header(self, request: Request) -> str:
        return f'{self.keyword} realm="api"'


def access_of(token: str) -> AccessToken | None:
    """The token's row with its player, its use recorded; None for a token that is unknown or
    revoked, or whose player is deactivated. The API and the live sockets both ask here."""
    access = _token_with_player(hash_token(token))
    if access is None or not access.player.is_active:
        return None
    if last_use_due(access.last_used_at):
        AccessToken.objects.filter(pk=access.pk).update(last_used_at=timezone.now())
    return access


def _token_with_player(key_hash: str) -> AccessToken | None:
    """The token with this hash (only its id and last use loaded) and its player, or None."""
    if connection.vendor != "postgresql":
        # The hand-written statement relies on psycopg returning UUIDs and aware datetimes;
        # other databases (SQLite for `make run`) need the ORM's converters.
        return _token_with_player_orm(key_hash)
    with connection.cursor() as cursor:
        cursor.execute(_TOKEN_SQL, [key_hash])
        row = cursor.fetchone()
    if row is None:
        return None
    token_id, last_used_at, scopes, *player_values = row
    player = Player.from_db(connection.alias, _PLAYER_FIELDS, player_values)
    access = AccessToken.from_db(connection.alias, ["id", "player_id", "last_used_at", "scopes"],
                                 [token_id, player.pk, last_used_at, scopes])
    access._state.fields_cache["player"] = player
    return access


def _token_with_player_orm(key_hash: str) -> AccessToken | None:
    return one_or_none(
        AccessToken.objects.select_related("player")
        .only("id", "player_id", "last_used_at", "scopes",
              *(f"player__{name}" for name in _PLAYER_FIELDS))
        .filter(key_hash=key_hash)
    )


def tokens_alive(token_ids: set) -> dict:
    """Of ``token_ids``, the tokens still valid for an active player (``{id: True}``): what
    ``token_sweep`` asks for every open socket of a process at once."""
    return dict.fromkeys(AccessToken.objects.filter(pk__in=token_ids, player__is_active=True)
                         .values_list("pk", flat=True), True)


def _token_check_seconds() -> float:
    from django.conf import settings

    return settings.LIVE_TOKEN_CHECK_SECONDS


# Every open socket's token, checked in one query per process every LIVE_TOKEN_CHECK_SECONDS:
# a socket whose token is gone (signed out, revoked, its player deactivated) is closed.
token_sweep = Sweep("tokens", _token_check_seconds, tokens_alive)
