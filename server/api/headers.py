"""Response headers every view follows: where a created resource lives, and what a cache may
keep.

- A ``201 Created`` names the new resource's absolute URL in ``Location``.
- An answer that carries a bearer token is ``Cache-Control: no-store``: no browser or proxy
  may keep a copy of a credential.
- A read whose answer depends on the token it was sent with (your games, your entry on a
  board, your game of the daily, and a 401 for a bad token) says ``Vary: Authorization``, so a
  cache never hands one player's answer to another.
- An answer of a rate-limited route carries the IETF RateLimit fields: ``RateLimit-Policy``
  (its limits) and, when the request was counted, ``RateLimit`` (where it stands):
  ``server.api.throttling``.

``ApiView`` applies the last three from its class attributes; the OpenAPI schema declares all
four from the same facts (``server.api.schema.ApiAutoSchema``).
"""

from __future__ import annotations

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from rest_framework.views import APIView

from server.api import throttling

LOCATION = "Location"
CACHE_CONTROL = "Cache-Control"
NO_STORE = "no-store"
VARY = "Vary"
AUTHORIZATION = "Authorization"
READS = frozenset({"GET", "HEAD"})


def absolute_url(request: HttpRequest, viewname: str, **kwargs: object) -> str:
    """The absolute URL of the view ``viewname`` with these URL arguments."""
    return request.build_absolute_uri(reverse(viewname, kwargs=kwargs))


def varies_by_token(view: APIView, method: str) -> bool:
    """Whether ``view``'s answers to ``method`` depend on the request's token: every read of a
    view that authenticates."""
    return method.upper() in READS and bool(view.authentication_classes)


def apply(view: APIView, request: HttpRequest, response: HttpResponseBase) -> None:
    """The cache headers ``view`` owes ``response``."""
    if getattr(view, "issues_tokens", False):
        response[CACHE_CONTROL] = NO_STORE
    method = request.method or ""  # Django sets it on every request it serves
    if varies_by_token(view, method):
        patch_vary_headers(response, [AUTHORIZATION])
    scope = getattr(view, "throttle_scope", None)  # a DRF convention APIView does not declare
    if scope is not None and throttling.counts(view, method):
        throttling.fields_apply(scope, request, response)
