"""One error shape for the whole API: RFC 9457 ``application/problem+json``.

Every domain error declares its ``code``, HTTP status and title once, as a subclass of
``Problem``. The exception handler turns those, and DRF's own exceptions, into
``{"type", "title", "status", "detail", "code"}`` (plus ``errors`` for field validation).
Unknown exceptions are not caught here: they stay honest 500s (rendered without a stack
trace by ``server_error``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

PROBLEM_CONTENT_TYPE = "application/problem+json"
PROBLEM_TYPE_BASE = "/api/problems/"


class Problem(Exception):
    """A client error with a stable code. Subclasses set the class attributes."""

    code: ClassVar[str] = "invalid"
    status: ClassVar[int] = status.HTTP_400_BAD_REQUEST
    title: ClassVar[str] = "Invalid request"

    def __init__(self, detail: str | None = None, **extra: Any) -> None:
        self.detail = detail or self.title
        self.extra = extra
        super().__init__(self.detail)


class UnexpectedClientError(Problem):
    """An error DRF raised that has no code of its own here; keeps DRF's status."""

    def __init__(self, status_code: int, detail: str | None) -> None:
        self.status = status_code  # type: ignore[misc]
        self.code = "error"  # type: ignore[misc]
        self.title = "Request failed"  # type: ignore[misc]
        super().__init__(detail)


class InvalidRequest(Problem):
    code, status, title = "invalid", 400, "The request is malformed or has wrong types"


class NotAuthenticated(Problem):
    code, status, title = "not_authenticated", 401, "Authentication is required"


class InvalidCredentials(Problem):
    code, status, title = "invalid_credentials", 401, "Wrong username or password"


class PermissionDenied(Problem):
    code, status, title = "permission_denied", 403, "You may not do this"


class NotFound(Problem):
    code, status, title = "not_found", 404, "Not found"


class MethodNotAllowed(Problem):
    code, status, title = "method_not_allowed", 405, "Method not allowed"


class NotAcceptable(Problem):
    code, status, title = "not_acceptable", 406, "Not acceptable"


class Conflict(Problem):
    code, status, title = "conflict", 409, "Conflict"


class LengthRequired(Problem):
    code, status, title = "length_required", 411, "Send the body with a Content-Length"


class PayloadTooLarge(Problem):
    code, status, title = "payload_too_large", 413, "The request body is too large"


class UnsupportedMediaType(Problem):
    code, status, title = "unsupported_media_type", 415, "Send JSON (application/json)"


class Unprocessable(Problem):
    code, status, title = "unprocessable", 422, "The request cannot be carried out"


class Throttled(Problem):
    code, status, title = "throttled", 429, "Too many requests"


class ServiceUnavailable(Problem):
    code, status, title = "service_unavailable", 503, "The service is briefly unavailable"


def problem_body(problem: Problem) -> dict[str, Any]:
    return _printable({
        "type": f"{PROBLEM_TYPE_BASE}{problem.code}",
        "title": problem.title,
        "status": problem.status,
        "detail": problem.detail,
        "code": problem.code,
        **problem.extra,
    })


def _printable(value: Any) -> Any:
    """``value`` with any lone surrogate in its strings written as ``\\udXXX``: a detail that
    quotes the client's input must still encode as UTF-8, or the error itself would be a 500."""
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {_printable(key): _printable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_printable(item) for item in value]
    return value


# --- Codes both games use (each game raises them with details of its own) -------------------


class GameOver(Conflict):
    code, title = "game_over", "The game is over"


class GameInProgress(Conflict):
    code, title = "game_in_progress", "The record is revealed only once the game is over"


class DailyUnavailable(Unprocessable):
    code, title = "daily_unavailable", "That daily cannot be played now"


class IdempotencyKeyReused(Unprocessable):
    code, title = "idempotency_key_reused", "This Idempotency-Key was used for another request"


class HintsNotAllowed(PermissionDenied):
    code, title = "hints_not_allowed", "No hints in this game"


class ProblemResponse(Response):
    """A problem is JSON whatever renderer the view negotiated: the schema view's YAML or
    Swagger UI's HTML would otherwise write it in their format under a problem+json label."""

    @property
    def rendered_content(self) -> Any:
        self.accepted_renderer = _PROBLEM_RENDERER
        self.accepted_media_type = PROBLEM_CONTENT_TYPE
        return super().rendered_content


_PROBLEM_RENDERER = JSONRenderer()


def problem_response(problem: Problem, headers: dict[str, str] | None = None) -> Response:
    return ProblemResponse(
        problem_body(problem), status=problem.status, headers=headers,
        content_type=PROBLEM_CONTENT_TYPE,
    )


def problem_json_response(problem: Problem) -> JsonResponse:
    """The same body from plain Django views (404/500 handlers, middleware)."""
    response = JsonResponse(problem_body(problem), status=problem.status)
    response["Content-Type"] = PROBLEM_CONTENT_TYPE
    return response


def _flatten_errors(detail: Any, prefix: str = "") -> list[dict[str, str]]:
    """DRF's nested validation errors as a flat list of ``{"field", "message"}``."""
    if isinstance(detail, dict):
        return [
            error
            for key, value in detail.items()
            for error in _flatten_errors(value, f"{prefix}.{key}" if prefix else str(key))
        ]
    if isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            return [{"field": prefix or "body", "message": str(item)} for item in detail]
        return [
            error
            for index, item in enumerate(detail)
            for error in _flatten_errors(item, f"{prefix}[{index}]")
        ]
    return [{"field": prefix or "body", "message": str(detail)}]


_DRF_PROBLEMS: list[tuple[type[exceptions.APIException], type[Problem]]] = [
    (exceptions.ParseError, InvalidRequest),
    (exceptions.NotAuthenticated, NotAuthenticated),
    (exceptions.AuthenticationFailed, NotAuthenticated),
    (exceptions.PermissionDenied, PermissionDenied),
    (exceptions.NotFound, NotFound),
    (exceptions.MethodNotAllowed, MethodNotAllowed),
    (exceptions.NotAcceptable, NotAcceptable),
    (exceptions.UnsupportedMediaType, UnsupportedMediaType),
    (exceptions.Throttled, Throttled),
]


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER: every handled error leaves as problem+json."""
    if isinstance(exc, Problem):
        return problem_response(exc)
    if isinstance(exc, RequestDataTooBig):
        return problem_response(PayloadTooLarge())
    # Django's own, raised in DRF views (drf-spectacular's ?format= of a format it lacks):
    # DRF answers them too, and they have codes of their own here, never the catch-all.
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or None)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    if isinstance(exc, exceptions.ValidationError):
        errors = _flatten_errors(exc.detail)
        summary = "; ".join(f"{error['field']}: {error['message']}" for error in errors)
        return problem_response(InvalidRequest(summary, errors=errors))
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # not an API error: let it be a 500
    raw = exc.detail if isinstance(exc, exceptions.APIException) else None
    detail = str(raw) if isinstance(raw, str) else None
    for drf_class, problem_class in _DRF_PROBLEMS:
        if isinstance(exc, drf_class):
            problem: Problem = problem_class(detail)
            break
    else:
        problem = UnexpectedClientError(response.status_code, detail)
    headers = {
        name: value for name, value in response.items()
        if name in ("WWW-Authenticate", "Retry-After", "Allow")
    }
    return problem_response(problem, headers=headers)
