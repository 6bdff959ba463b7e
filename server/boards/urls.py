"""The boards' shared routes under /api/v1/: a player's statistics, every registered game's
section in them (names in the ``api`` namespace: ``server/urls.py``)."""

from django.urls import path

from server.boards import views as boards

urlpatterns = [
    path("players/me/stats", boards.MyStatsView.as_view(), name="my-stats"),
    path("players/<uuid:player_id>", boards.PlayerProfileView.as_view(), name="player"),
]
