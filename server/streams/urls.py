from django.urls import path

from server.streams import views

urlpatterns = [
    path("stream", views.stream_view, name="stream"),
    path("stream/events", views.StreamEventsView.as_view(), name="stream-events"),
]
