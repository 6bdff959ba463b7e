from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

urlpatterns = [
    path("", include("server.core.urls")),
    path("api/v1/", include("server.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("admin/", admin.site.urls),
]

handler400 = "server.api.handlers.bad_request"
handler403 = "server.api.handlers.permission_denied"
handler404 = "server.api.handlers.page_not_found"
handler500 = "server.api.handlers.server_error"
