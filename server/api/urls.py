"""Version 1 of the REST API, under /api/v1/."""

from django.urls import path

from server.games import views as games
from server.players import views as players

app_name = "api"

urlpatterns = [
    path("players", players.PlayerCreateView.as_view(), name="players"),
    path("players/me", players.MeView.as_view(), name="me"),
    path("players/me/claim", players.ClaimView.as_view(), name="claim"),
    path("players/me/tokens", players.TokenListView.as_view(), name="tokens"),
    path("players/me/tokens/<int:token_id>", players.TokenDetailView.as_view(), name="token"),
    path("sessions", players.SessionCreateView.as_view(), name="sessions"),
    path("sessions/current", players.SessionCurrentView.as_view(), name="session-current"),
    path("games", games.GameListCreateView.as_view(), name="games"),
    path("games/<uuid:game_id>", games.GameDetailView.as_view(), name="game"),
    path("games/<uuid:game_id>/moves", games.MoveCreateView.as_view(), name="moves"),
    path("games/<uuid:game_id>/record", games.RecordView.as_view(), name="record"),
]
