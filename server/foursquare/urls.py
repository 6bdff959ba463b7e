"""Foursquare's routes under /api/v1/ (names in the ``api`` namespace: ``server/urls.py``).
They predate the second game, so they carry no prefix."""

from django.urls import path

from server.foursquare import board_views as boards
from server.foursquare import views as games
from server.foursquare.races import urls as races

urlpatterns = [
    path("games", games.GameListCreateView.as_view(), name="games"),
    path("games/<uuid:game_id>", games.GameDetailView.as_view(), name="game"),
    path("games/<uuid:game_id>/moves", games.MoveCreateView.as_view(), name="moves"),
    path("games/<uuid:game_id>/record", games.RecordView.as_view(), name="record"),
    path("games/<uuid:game_id>/analysis", games.AnalysisView.as_view(), name="analysis"),
    path("games/<uuid:game_id>/hint", games.HintView.as_view(), name="hint"),
    path("challenges/<uuid:game_id>", games.ChallengeView.as_view(), name="challenge"),
    path("daily", boards.DailyView.as_view(), name="daily"),
    path("daily/<str:day>/leaderboard", boards.DailyBoardView.as_view(), name="daily-board"),
    path("leaderboard", boards.BoardView.as_view(), name="board"),
    *races.urlpatterns,
]
