"""The leagues' routes under /api/v1/ (names in the ``api`` namespace: ``server/urls.py``)."""

from django.urls import path

from server.leagues import views as leagues

urlpatterns = [
    path("leagues", leagues.LeagueListCreateView.as_view(), name="leagues"),
    path("leagues/join", leagues.LeagueJoinView.as_view(), name="league-join"),
    path("leagues/<uuid:league_id>", leagues.LeagueDetailView.as_view(), name="league"),
    path("leagues/<uuid:league_id>/code", leagues.LeagueCodeView.as_view(), name="league-code"),
    path("leagues/<uuid:league_id>/leave", leagues.LeagueLeaveView.as_view(),
         name="league-leave"),
    path("leagues/<uuid:league_id>/members/<uuid:player_id>", leagues.MemberView.as_view(),
         name="league-member"),
    path("leagues/<uuid:league_id>/leaderboard", leagues.LeagueBoardView.as_view(),
         name="league-board"),
]
