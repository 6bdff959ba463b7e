"""The views that are not part of the game API: the health probe and the front-end page."""

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from server.core.frontpage import front_page_html

logger = logging.getLogger(__name__)


@csrf_exempt  # it changes nothing and reads no cookie: a POST is a 405, not a CSRF 403
@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Ready to serve: the process answers and the database runs a query."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.warning("Health check failed: the database is unavailable", exc_info=True)
        return JsonResponse({"status": "unavailable"}, status=503)
    return JsonResponse({"status": "ok"})


# The front end is static files from this origin and talks only to this origin's API: no inline
# script or style, no third-party host, no framing.
FRONT_PAGE_CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])


@require_safe
def front_page(request: HttpRequest) -> HttpResponse:
    """The single-page front end: index.html pointing at the hashed names of its scripts and
    styles (server.core.frontpage), which are static files served beside it."""
    response = HttpResponse(front_page_html(), content_type="text/html; charset=utf-8")
    # Revalidate on every visit so a deploy reaches players at once; the files it names are
    # hashed, so they are cached for good.
    response["Cache-Control"] = "no-cache"
    response["Content-Security-Policy"] = FRONT_PAGE_CSP
    return response


@require_safe
def invitation_link(request: HttpRequest, code: str, screen: str) -> HttpResponseRedirect:
    """An invitation's link (a waiting Spite & Malice match's `invite.url`, a race's `link`): a
    real path, so it reads well when shared, that hands over to the app's join screen, a hash
    route only the browser sees. The code is only letters and digits (the route allows nothing
    else), so it goes into the address as it is."""
    return HttpResponseRedirect(f"/#/{screen}/{code}")
