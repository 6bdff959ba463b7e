"""Spite & Malice's routes, under /api/v1/spite-malice/ (names in the ``api`` namespace)."""

from django.urls import path

from server.spitemalice import views

urlpatterns = [
    path("matches", views.MatchListCreateView.as_view(), name="sm-matches"),
    path("matches/join", views.MatchJoinView.as_view(), name="sm-join"),
    path("bot-commitment", views.BotCommitmentView.as_view(), name="sm-bot-commitment"),
    path("invitations/<str:code>", views.InvitationView.as_view(), name="sm-invitation"),
    path("matches/<uuid:match_id>", views.MatchDetailView.as_view(), name="sm-match"),
    path("matches/<uuid:match_id>/cancel", views.MatchCancelView.as_view(), name="sm-cancel"),
    path("matches/<uuid:match_id>/accept", views.MatchAcceptView.as_view(), name="sm-accept"),
    path("matches/<uuid:match_id>/decline", views.MatchDeclineView.as_view(),
         name="sm-decline"),
    path("seeks", views.SeekListCreateView.as_view(), name="sm-seeks"),
    path("seeks/<uuid:match_id>", views.SeekDetailView.as_view(), name="sm-seek"),
    path("seeks/<uuid:match_id>/accept", views.SeekAcceptView.as_view(), name="sm-seek-accept"),
    path("matches/<uuid:match_id>/rematch", views.MatchRematchView.as_view(),
         name="sm-rematch"),
    path("matches/<uuid:match_id>/actions", views.ActionCreateView.as_view(),
         name="sm-actions"),
    path("matches/<uuid:match_id>/events", views.EventsView.as_view(), name="sm-events"),
    path("matches/<uuid:match_id>/resign", views.ResignView.as_view(), name="sm-resign"),
    path("matches/<uuid:match_id>/fairness", views.MatchFairnessView.as_view(),
         name="sm-fairness"),
    path("matches/<uuid:match_id>/games/<int:number>/record", views.RecordView.as_view(),
         name="sm-record"),
    path("matches/<uuid:match_id>/hint", views.HintView.as_view(), name="sm-hint"),
    path("daily", views.DailyView.as_view(), name="sm-daily"),
    path("daily/<str:day>/leaderboard", views.DailyBoardView.as_view(), name="sm-daily-board"),
    path("ratings", views.SpiteMaliceRatingsView.as_view(), name="sm-ratings"),
    path("bots", views.BotsView.as_view(), name="sm-bots"),
]
