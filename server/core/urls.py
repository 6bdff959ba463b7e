from django.urls import path, re_path

from server.core import metrics, views

urlpatterns = [
    path("", views.front_page, name="front-page"),
    path("healthz", views.healthz, name="healthz"),
    path("metrics", metrics.metrics_view, name="metrics"),
    re_path(r"^spite-malice/join/(?P<code>[0-9A-Za-z]{1,32})$", views.invitation_link,
            {"screen": "spite-malice/join"}, name="spite-malice-join"),
    re_path(r"^races/join/(?P<code>[0-9A-Za-z]{1,32})$", views.invitation_link,
            {"screen": "races/join"}, name="race-join"),
]
