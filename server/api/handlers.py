"""Django-level error pages for the API: problem+json instead of HTML.

DRF's exception handler covers errors raised inside API views; these cover what happens before
a view is found (an unknown URL) or outside DRF (an unexpected 500, a request too large).
A 500 body never carries a stack trace or settings, whatever DEBUG says.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views import defaults

from server.api.problems import (
    InvalidRequest,
    NotFound,
    PermissionDenied,
    Problem,
    problem_json_response,
)

API_PREFIX = "/api/"


class InternalError(Problem):
    code, status, title = "internal_error", 500, "Something went wrong on our side"


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return problem_json_response(InvalidRequest("The request could not be read."))
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return problem_json_response(PermissionDenied())
    return defaults.permission_denied(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return problem_json_response(NotFound(f"Nothing at {request.path}."))
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return problem_json_response(
            InternalError("The error was logged; please try again later.")
        )
    return defaults.server_error(request)
