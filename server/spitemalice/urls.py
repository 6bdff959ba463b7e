"""Spite & Malice's routes, under /api/v1/spite-malice/ (names in the ``api`` namespace)."""

from django.urls import path

from server.spitemalice.views import (
    bots,
    daily,
    invitations,
    matches,
    play,
    ratings,
    records,
    seeks,
)

urlpatterns = [
    path("matches", matches.MatchListCreateView.as_view(), name="sm-matches"),
    path("matches/join", invitations.MatchJoinView.as_view(), name="sm-join"),
    path("bot-commitment", records.BotCommitmentView.as_view(), name="sm-bot-commitment"),
    path("invitations/<str:code>", invitations.InvitationView.as_view(), name="sm-invitation"),
    path("matches/<uuid:match_id>", matches.MatchDetailView.as_view(), name="sm-match"),
    path("matches/<uuid:match_id>/cancel", matches.MatchCancelView.as_view(), name="sm-cancel"),
    path("matches/<uuid:match_id>/accept", invitations.MatchAcceptView.as_view(), name="sm-accept"),
    path("matches/<uuid:match_id>/decline", invitations.MatchDeclineView.as_view(),
         name="sm-decline"),
    path("seeks", seeks.SeekListCreateView.as_view(), name="sm-seeks"),
    path("seeks/<uuid:match_id>", seeks.SeekDetailView.as_view(), name="sm-seek"),
    path("seeks/<uuid:match_id>/accept", seeks.SeekAcceptView.as_view(), name="sm-seek-accept"),
    path("matches/<uuid:match_id>/rematch", invitations.MatchRematchView.as_view(),
         name="sm-rematch"),
    path("matches/<uuid:match_id>/actions", play.ActionCreateView.as_view(),
         name="sm-actions"),
    path("matches/<uuid:match_id>/events", play.EventsView.as_view(), name="sm-events"),
    path("matches/<uuid:match_id>/resign", matches.ResignView.as_view(), name="sm-resign"),
    path("matches/<uuid:match_id>/fairness", records.MatchFairnessView.as_view(),
         name="sm-fairness"),
    path("matches/<uuid:match_id>/games/<int:number>/record", records.RecordView.as_view(),
         name="sm-record"),
    path("matches/<uuid:match_id>/hint", play.HintView.as_view(), name="sm-hint"),
    path("daily", daily.DailyView.as_view(), name="sm-daily"),
    path("daily/<str:day>/leaderboard", daily.DailyBoardView.as_view(), name="sm-daily-board"),
    path("ratings", ratings.SpiteMaliceRatingsView.as_view(), name="sm-ratings"),
    path("bots", bots.BotsView.as_view(), name="sm-bots"),
]
