"""The sockets' routes, and the check of a browser's Origin on the handshake."""

from __future__ import annotations

from channels.security.websocket import (
    AllowedHostsOriginValidator,
    OriginValidator,
    WebsocketDenier,
)
from django.urls import path, re_path

from server.spitemalice.live.consumers import MatchConsumer

websocket_urlpatterns = [
    path("ws/spite-malice/matches/<uuid:match_id>", MatchConsumer.as_asgi()),
    # Any other socket's handshake is refused (403), not an error in the log.
    re_path(r"", WebsocketDenier.as_asgi()),
]


class BrowserOriginValidator(OriginValidator):
    """A handshake that names an Origin must name one of ALLOWED_HOSTS, so another site's page
    cannot open a socket in its visitor's browser; it is refused with 403 before any message.
    One with no Origin at all is an API client (browsers always send it on a WebSocket) and
    goes on to authenticate with its token like any request."""

    def valid_origin(self, parsed_origin) -> bool:
        return parsed_origin is None or super().valid_origin(parsed_origin)


def origin_checked(application) -> BrowserOriginValidator:
    """``application`` behind Channels' AllowedHostsOriginValidator, less its refusal of a
    handshake without Origin."""
    return BrowserOriginValidator(application,
                                  AllowedHostsOriginValidator(application).allowed_origins)
