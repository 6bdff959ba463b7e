"""The live sockets' routes: like ``server.urls``, the one place that names every game's
socket (each app's consumer stays its own; neither game imports the other)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from channels.security.websocket import WebsocketDenier
from django.urls import path, re_path

from server.foursquare.races.consumers import RaceConsumer
from server.spitemalice.live.consumers import MatchConsumer
from server.streams.consumers import AccountConsumer

if TYPE_CHECKING:
    from channels.routing import URLRouter, _ExtendedURLPattern


def _route(route: str, application: Any, *, pattern: bool = False) -> _ExtendedURLPattern:
    """A socket's route, as Channels' ``URLRouter`` takes it: Django's ``path`` and
    ``re_path``, whose types know only views, to an ASGI application."""
    return cast("_ExtendedURLPattern", (re_path if pattern else path)(route, application))


websocket_urlpatterns: list[_ExtendedURLPattern | URLRouter] = [
    _route("ws/spite-malice/matches/<uuid:match_id>", MatchConsumer.as_asgi()),
    _route("ws/account", AccountConsumer.as_asgi()),
    _route("ws/races/<uuid:race_id>", RaceConsumer.as_asgi()),
    # Any other socket's handshake is refused (403), not an error in the log.
    _route(r"", WebsocketDenier.as_asgi(), pattern=True),
]
