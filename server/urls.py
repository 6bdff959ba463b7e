"""The project's routes: the one place that names every game. The API's version 1 is under
/api/v1/, each app's routes in the ``api`` namespace (``reverse("api:games")``); a new game
adds its routes here, and its board and statistics by registering with the boards app."""

from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from server.api.asyncapi import AsyncApiView
from server.boards import urls as boards
from server.fairness import urls as fairness
from server.foursquare import urls as foursquare
from server.foursquare.races import asyncapi as race_socket
from server.leagues import urls as leagues
from server.players import urls as players
from server.spitemalice import urls as spite_malice
from server.spitemalice.live import asyncapi as spite_malice_sockets
from server.streams import asyncapi as account_socket
from server.streams import urls as streams

api_v1: list[URLPattern | URLResolver] = [
    # First: Spite & Malice's routes share no prefix with the rest, and its action (as frequent
    # a request as a move) is then resolved after a dozen patterns rather than fifty (22 µs
    # rather than 46); a move's route is no slower for one prefix more to pass.
    path("spite-malice/", include(spite_malice)),
    *players.urlpatterns,
    *foursquare.urlpatterns,
    *boards.urlpatterns,
    *leagues.urlpatterns,
    *streams.urlpatterns,
    *fairness.urlpatterns,
]

urlpatterns = [
    path("", include("server.core.urls")),
    path("api/v1/", include((api_v1, "api"))),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    # The sockets' AsyncAPI document: each app's socket, its events the schema's own.
    path("api/asyncapi/", AsyncApiView.as_view(
        sections=[account_socket.SECTION, spite_malice_sockets.SECTION, race_socket.SECTION]),
        name="api-asyncapi"),
    path("admin/", admin.site.urls),
]

handler400 = "server.api.handlers.bad_request"
handler403 = "server.api.handlers.permission_denied"
handler404 = "server.api.handlers.page_not_found"
handler500 = "server.api.handlers.server_error"
