"""Version 1 of the REST API, under /api/v1/."""

from django.urls import include, path

from server.boards import views as boards
from server.games import views as games
from server.leagues import views as leagues
from server.players import views as players
from server.spitemalice import urls as spite_malice

app_name = "api"

urlpatterns = [
    path("players", players.PlayerCreateView.as_view(), name="players"),
    path("players/me", players.MeView.as_view(), name="me"),
    path("players/me/claim", players.ClaimView.as_view(), name="claim"),
    path("players/me/tokens", players.TokenListView.as_view(), name="tokens"),
    path("players/me/tokens/<uuid:token_id>", players.TokenDetailView.as_view(), name="token"),
    path("sessions", players.SessionCreateView.as_view(), name="sessions"),
    path("sessions/current", players.SessionCurrentView.as_view(), name="session-current"),
    path("games", games.GameListCreateView.as_view(), name="games"),
    path("games/<uuid:game_id>", games.GameDetailView.as_view(), name="game"),
    path("games/<uuid:game_id>/moves", games.MoveCreateView.as_view(), name="moves"),
    path("games/<uuid:game_id>/record", games.RecordView.as_view(), name="record"),
    path("games/<uuid:game_id>/analysis", games.AnalysisView.as_view(), name="analysis"),
    path("games/<uuid:game_id>/hint", games.HintView.as_view(), name="hint"),
    path("challenges/<uuid:game_id>", games.ChallengeView.as_view(), name="challenge"),
    path("players/me/stats", boards.MyStatsView.as_view(), name="my-stats"),
    path("players/<uuid:player_id>", boards.PlayerProfileView.as_view(), name="player"),
    path("daily", boards.DailyView.as_view(), name="daily"),
    path("daily/<str:day>/leaderboard", boards.DailyBoardView.as_view(), name="daily-board"),
    path("leaderboard", boards.BoardView.as_view(), name="board"),
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
    path("spite-malice/", include(spite_malice)),
]
