"""Errors that escape an API view leave as problem+json, whatever DEBUG says.

Django answers an uncaught exception with its debug page (stack trace, settings) when DEBUG is
on, and with ``handler500`` otherwise; under /api/ neither is right. A database that cannot be
reached is not a bug but an outage: ``503 service_unavailable`` with ``Retry-After``, so clients
back off and retry, and the request fails in the time it took to notice, not after a hang.
"""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError

from server.api.handlers import API_PREFIX, InternalError
from server.api.problems import ServiceUnavailable, problem_json_response

logger = logging.getLogger("django.request")

RETRY_AFTER_SECONDS = 2


class ApiErrorMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception: Exception):
        if not request.path.startswith(API_PREFIX):
            return None
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
