"""Django-level error pages for the API: problem+json instead of HTML.

DRF's exception handler covers errors raised inside API views; these cover what happens before
a view is found (an unknown URL), outside DRF (an unexpected 500, a request too large, a CSRF
failure) and the answers of plain Django views (a 405 from ``require_safe``).
A 500 body never carries a stack trace or settings, whatever DEBUG says.

The rule: every error under /api/ and at /healthz is problem+json. Elsewhere (the app's page,
/admin/) an error is Django's HTML page, unless the request's Accept prefers JSON to HTML; then
it is problem+json too.
"""

from __future__ import annotations

from http import HTTPStatus

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.views import csrf, defaults

from server.api.problems import (
    InvalidRequest,
    LengthRequired,
    MethodNotAllowed,
    NotAcceptable,
    NotFound,
    PayloadTooLarge,
    PermissionDenied,
    Problem,
    ServiceUnavailable,
    Throttled,
    UnsupportedMediaType,
    problem_json_response,
)

API_PREFIX = "/api/"
HEALTH_PATH = "/healthz"
_JSON_TYPES = ("application/json", "application/problem+json")
_HTML_TYPES = ("text/html", "application/xhtml+xml")


class InternalError(Problem):
    code, status, title = "internal_error", 500, "Something went wrong on our side"


def wants_problem(request: HttpRequest) -> bool:
    """Whether an error answers this request as problem+json (the rule above)."""
    path = request.path
    if path.startswith(API_PREFIX) or path == HEALTH_PATH:
        return True
    return _prefers_json(request.META.get("HTTP_ACCEPT", ""))


def _prefers_json(accept: str) -> bool:
    json_q = html_q = 0.0
    for token in accept.split(",")[:64]:
        media_type, *parameters = token.split(";")
        media_type = media_type.strip().lower()
        q = 1.0
        for parameter in parameters:
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if media_type in _JSON_TYPES or media_type.endswith("+json"):
            json_q = max(json_q, q)
        elif media_type in _HTML_TYPES:
            html_q = max(html_q, q)
    return json_q > 0 and json_q > html_q


_PROBLEMS_BY_STATUS: dict[int, type[Problem]] = {
    400: InvalidRequest, 403: PermissionDenied, 404: NotFound, 405: MethodNotAllowed,
    406: NotAcceptable, 411: LengthRequired, 413: PayloadTooLarge, 415: UnsupportedMediaType,
    429: Throttled, 500: InternalError, 503: ServiceUnavailable,
}
_KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate")


def as_problem(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """``response``, if it is an error that is not JSON, as the problem+json of its status,
    for a request that ``wants_problem``; any other response as it is."""
    content_type = response.get("Content-Type", "").split(";")[0].strip().lower()
    if (response.status_code < 400 or content_type in _JSON_TYPES
            or content_type.endswith("+json") or not wants_problem(request)):
        return response
    status = response.status_code
    problem_class = _PROBLEMS_BY_STATUS.get(status)
    if status == 405:
        problem: Problem = MethodNotAllowed(
            f"{request.method} is not allowed at {request.path}; allowed: "
            f"{response.get('Allow', 'none')}.")
    elif problem_class is not None:
        problem = problem_class()
    else:
        problem = _UnmappedStatus(status)
    converted = problem_json_response(problem)
    for name in _KEPT_HEADERS:
        if name in response:
            converted[name] = response[name]
    return converted


class _UnmappedStatus(Problem):
    """An error status no view of ours answers on purpose; its code is the status's name."""

    def __init__(self, status: int) -> None:
        phrase = HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else ""
        self.status = status  # type: ignore[misc]
        self.code = "_".join(phrase.lower().replace("-", " ").split()) or "error"  # type: ignore[misc]
        self.title = phrase or "Request failed"  # type: ignore[misc]
        super().__init__()


def error_response(request: HttpRequest, problem: Problem) -> HttpResponse:
    """``problem`` as problem+json where the rule says so, else as plain text."""
    if wants_problem(request):
        return problem_json_response(problem)
    return HttpResponse(f"{problem.title}: {problem.detail}\n", status=problem.status,
                        content_type="text/plain; charset=utf-8")


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if wants_problem(request):
        if isinstance(exception, TooManyFieldsSent):
            return problem_json_response(InvalidRequest(
                f"At most {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS} query parameters or form "
                "fields."))
        if isinstance(exception, RequestDataTooBig):
            return problem_json_response(PayloadTooLarge(
                f"A request body may have at most {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} "
                "bytes."))
        return problem_json_response(InvalidRequest("The request could not be read."))
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if wants_problem(request):
        return problem_json_response(PermissionDenied())
    return defaults.permission_denied(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if wants_problem(request):
        return problem_json_response(NotFound(f"Nothing at {request.path}."))
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if wants_problem(request):
        return problem_json_response(
            InternalError("The error was logged; please try again later.")
        )
    return defaults.server_error(request)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW. The API authenticates by bearer token and is exempt; this answers a
    form post to the app's other pages (/admin/) that failed its CSRF check."""
    if wants_problem(request):
        return problem_json_response(PermissionDenied(f"CSRF check failed: {reason}"))
    return csrf.csrf_failure(request, reason)
