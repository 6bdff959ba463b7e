"""The live sockets' routes: like ``server.urls``, the one place that names every game's
socket (each app's consumer stays its own; neither game imports the other)."""

from __future__ import annotations

from channels.security.websocket import WebsocketDenier
from django.urls import path, re_path

from server.foursquare.races.consumers import RaceConsumer
from server.spitemalice.live.consumers import MatchConsumer
from server.streams.consumers import AccountConsumer

websocket_urlpatterns = [
    path("ws/spite-malice/matches/<uuid:match_id>", MatchConsumer.as_asgi()),
    path("ws/account", AccountConsumer.as_asgi()),
    path("ws/races/<uuid:race_id>", RaceConsumer.as_asgi()),
    # Any other socket's handshake is refused (403), not an error in the log.
    re_path(r"", WebsocketDenier.as_asgi()),
]
