"""The API's edges in Django's middleware: whole request bodies, errors as problem+json, and
the browser's middleware kept to the pages.

``ProblemResponseMiddleware`` (outermost) turns an error answered as HTML or empty (a 405 from
``require_safe``, a page of another middleware) into problem+json where
``handlers.wants_problem`` says so. ``RequestBodyMiddleware`` reads a chunked body, which
Django alone would see as empty.

Errors that escape an API view leave as problem+json, whatever DEBUG says.

Django answers an uncaught exception with its debug page (stack trace, settings) when DEBUG is
on, and with ``handler500`` otherwise; under /api/ neither is right. A database that cannot be
reached is not a bug but an outage: ``503 service_unavailable`` with ``Retry-After``, so clients
back off and retry, and the request fails in the time it took to notice, not after a hang.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable

from django.conf import settings
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.core.handlers.wsgi import LimitedStream
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest
from django.http.multipartparser import MultiPartParserError
from django.http.response import HttpResponseBase
from django.utils.deprecation import MiddlewareMixin

from server.api.handlers import API_PREFIX, InternalError, as_problem, error_response
from server.api.problems import (
    LengthRequired,
    PayloadTooLarge,
    ServiceUnavailable,
    problem_json_response,
)

logger = logging.getLogger("django.request")

RETRY_AFTER_SECONDS = 2
# What Django itself answers with a 4xx (handler400, handler403, handler404), not a bug: too
# many query parameters, a disallowed Host, a body over the limit, a malformed upload.
CLIENT_ERRORS = (Http404, PermissionDenied, BadRequest, SuspiciousOperation,
                 MultiPartParserError)


class ProblemResponseMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return as_problem(request, self.get_response(request))


_READ_SIZE = 64 * 1024


class RequestBodyMiddleware:
    """A body sent with ``Transfer-Encoding: chunked`` (and so no Content-Length) is read whole.

    Django reads ``CONTENT_LENGTH`` bytes of ``wsgi.input`` and no more: without a length a body
    is empty, so a chunked ``PATCH /leagues/{id} {"name": ...}`` would be read as ``{}`` and
    answer 200 with nothing renamed. gunicorn, the server of ``make run`` and production,
    removes the chunk framing and ends ``wsgi.input`` where the body ends, so the body is read to
    its end here (at most ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes, else ``413
    payload_too_large``) and handed to Django with its length, as if the client had sent one.
    A server that passes nothing on (Django's ``runserver`` does not read chunked bodies) or a
    transfer coding other than chunked leaves nothing to read: ``411 length_required``.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        transfer = request.META.get("HTTP_TRANSFER_ENCODING")
        if transfer is not None:
            refusal = self._read_whole_body(request, transfer)
            if refusal is not None:
                return refusal
        return self.get_response(request)

    def _read_whole_body(self, request: HttpRequest, transfer: str) -> HttpResponseBase | None:
        if [coding.strip().lower() for coding in transfer.split(",")] != ["chunked"]:
            return error_response(request, LengthRequired(
                f"Transfer-Encoding {transfer[:40]!r} cannot be read; send the body with a "
                "Content-Length (or Transfer-Encoding: chunked alone)."))
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        stream, size = request.META["wsgi.input"], 0
        parts: list[bytes] = []
        while size <= limit:
            part = stream.read(min(_READ_SIZE, limit + 1 - size))
            if not part:
                break
            parts.append(part)
            size += len(part)
        if size > limit:
            return error_response(request, PayloadTooLarge(
                f"A request body may have at most {limit} bytes."))
        if size == 0:
            return error_response(request, LengthRequired(
                "The chunked body arrived empty; send it with a Content-Length."))
        body = b"".join(parts)
        request.META["CONTENT_LENGTH"] = str(size)
        # What WSGIRequest would have made of the body had its length been sent.
        # The stubs type the stream as a BinaryIO; WSGIRequest itself keeps a LimitedStream.
        request._stream = LimitedStream(io.BytesIO(body), size)  # type: ignore[assignment]
        return None


class ApiErrorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest,
                          exception: Exception) -> HttpResponseBase | None:
        if not request.path.startswith(API_PREFIX) or isinstance(exception, CLIENT_ERRORS):
            return None  # Django answers these with a 4xx through the handlers
        if isinstance(exception, OperationalError | InterfaceError):
            logger.warning("Database unavailable: %s %s answered 503 (%s: %s)", request.method,
                           request.path, type(exception).__name__,
                           " ".join(str(exception).split()))
            response = problem_json_response(
                ServiceUnavailable("The database cannot be reached; retry in a few seconds.")
            )
            response["Retry-After"] = str(RETRY_AFTER_SECONDS)
            return response
        logger.error("Internal Server Error: %s", request.path, exc_info=exception,
                     extra={"status_code": 500, "request": request})
        return problem_json_response(
            InternalError("The error was logged; please try again later.")
        )


class PagesOnly(MiddlewareMixin):
    """A browser's middleware that lets the API's requests pass untouched.

    The API authenticates by bearer token alone (``BearerTokenAuthentication``: no cookie
    authenticates it), and none of its views reads a session, Django's user or a message, so
    under ``/api/`` the session store, the lazy user and the message store were made and put
    away on every request for nothing (docs/OPERATIONS.md, "The browser's middleware, kept to
    the pages", measures it: ``make bench-moves BENCH_MOVES_COMPARE=pages-only``). The pages
    (the admin, the front end) keep each of them as before, in the same order, and Django's
    admin still finds the middleware its checks ask for (these are subclasses). CSRF's own
    middleware stays on every path: Django's deploy check asks for it by name, and a view
    under ``/api/`` that were not exempt would still be checked.
    """

    def __call__(self, request: HttpRequest
                 ) -> HttpResponseBase | Awaitable[HttpResponseBase]:  # MiddlewareMixin's
        if request.path_info.startswith(API_PREFIX):
            return self.get_response(request)
        return super().__call__(request)


class PagesSessionMiddleware(PagesOnly, SessionMiddleware):
    pass


class PagesAuthenticationMiddleware(PagesOnly, AuthenticationMiddleware):
    pass


class PagesMessageMiddleware(PagesOnly, MessageMiddleware):
    pass
