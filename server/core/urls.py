from django.urls import path

from server.core import views

urlpatterns = [
    path("", views.front_page, name="front-page"),
    path("healthz", views.healthz, name="healthz"),
]
