"""Bearer tokens: made here, stored hashed, and checked by the API's authentication class."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.utils import timezone
from rest_framework import authentication, exceptions

from server.players.models import AccessToken, Player

TOKEN_BYTES = 32
LAST_USED_RESOLUTION = timedelta(minutes=5)  # don't write on every request


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_issue(*, player: Player, label: str = "") -> str:
    """A new token for ``player``; the plain text exists only in this return value."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    AccessToken.objects.create(player=player, key_hash=hash_token(token), label=label[:64])
    return token


class BearerTokenAuthentication(authentication.BaseAuthentication):
    """``Authorization: Bearer <token>``. Cookies never authenticate the API, so CSRF can't
    be used against it."""

    keyword = "Bearer"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("Send 'Authorization: Bearer <token>'.")
        try:
            token = header[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        access = (
            AccessToken.objects.select_related("player")
            .filter(key_hash=hash_token(token))
            .first()
        )
        if access is None or not access.player.is_active:
            raise exceptions.AuthenticationFailed("Invalid or revoked token.")
        now = timezone.now()
        if access.last_used_at is None or now - access.last_used_at > LAST_USED_RESOLUTION:
            AccessToken.objects.filter(pk=access.pk).update(last_used_at=now)
        return access.player, access

    def authenticate_header(self, request):
        return f'{self.keyword} realm="api"'
