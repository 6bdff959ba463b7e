"""The players' routes under /api/v1/ (names in the ``api`` namespace: ``server/urls.py``)."""

from django.urls import path

from server.players import views as players

urlpatterns = [
    path("players", players.PlayerCreateView.as_view(), name="players"),
    path("players/me", players.MeView.as_view(), name="me"),
    path("players/by-name", players.PlayerByNameView.as_view(), name="player-by-name"),
    path("players/me/claim", players.ClaimView.as_view(), name="claim"),
    path("players/me/tokens", players.TokenListView.as_view(), name="tokens"),
    path("players/me/tokens/<uuid:token_id>", players.TokenDetailView.as_view(), name="token"),
    path("sessions", players.SessionCreateView.as_view(), name="sessions"),
    path("sessions/current", players.SessionCurrentView.as_view(), name="session-current"),
]
