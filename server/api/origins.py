"""The check of a browser's Origin on a socket's handshake, for every live socket of the API,
whichever game serves it (``server.asgi`` puts it in front of ``server.routing``)."""

from __future__ import annotations

from typing import Any

from channels.security.websocket import AllowedHostsOriginValidator, OriginValidator
from django.conf import settings

_DEFAULT_PORTS = {"http": 80, "https": 443}


class BrowserOriginValidator(OriginValidator):
    """A handshake that names an Origin must name a page of this site, so another site's page
    cannot open a socket in its visitor's browser; it is refused with 403 before any message.
    One with no Origin at all is an API client (browsers always send it on a WebSocket) and
    goes on to authenticate with its token like any request.

    A page of this site: its host one of ALLOWED_HOSTS (Channels' check, which looks at the
    host only), its scheme http or https, and in production https on the default port, unless
    the whole origin is one of CSRF_TRUSTED_ORIGINS (a site served on another port)."""

    def valid_origin(self, parsed_origin: Any) -> bool:
        if parsed_origin is None:
            return True
        scheme = parsed_origin.scheme
        if scheme not in _DEFAULT_PORTS or not super().valid_origin(parsed_origin):
            return False
        if not settings.PRODUCTION:
            return True
        try:
            port = parsed_origin.port or _DEFAULT_PORTS[scheme]
        except ValueError:  # a port that is not a number
            return False
        origin = f"{scheme}://{parsed_origin.netloc}".lower()
        trusted = {entry.rstrip("/").lower() for entry in settings.CSRF_TRUSTED_ORIGINS}
        return origin in trusted or (scheme == "https" and port == 443)


def origin_checked(application: Any) -> BrowserOriginValidator:
    """``application`` behind Channels' AllowedHostsOriginValidator, less its refusal of a
    handshake without Origin."""
    return BrowserOriginValidator(application,
                                  AllowedHostsOriginValidator(application).allowed_origins)
