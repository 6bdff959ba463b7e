"""The races' routes under /api/v1/ (names in the ``api`` namespace), included by Foursquare's
``urls``."""

from django.urls import path

from server.foursquare.races import views

urlpatterns = [
    path("races", views.RaceListCreateView.as_view(), name="races"),
    path("races/join", views.RaceJoinCodeView.as_view(), name="race-join-code"),
    path("races/<uuid:race_id>", views.RaceDetailView.as_view(), name="race"),
    path("races/<uuid:race_id>/join", views.RaceJoinView.as_view(), name="race-join"),
    path("races/<uuid:race_id>/leave", views.RaceLeaveView.as_view(), name="race-leave"),
    path("races/<uuid:race_id>/start", views.RaceStartView.as_view(), name="race-start"),
    path("races/<uuid:race_id>/again", views.RaceAgainView.as_view(), name="race-again"),
    path("races/<uuid:race_id>/replays", views.RaceReplaysView.as_view(), name="race-replays"),
]
