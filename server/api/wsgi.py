"""The WSGI application gunicorn runs, with a request that cannot fail while it is built.

Django's ``WSGIRequest`` reads a ``charset`` from Content-Type as it is constructed, and setting
the encoding parses the query string to reset it. A query past
``DATA_UPLOAD_MAX_NUMBER_FIELDS`` then raises ``TooManyFieldsSent`` before any middleware or
error handler exists to answer it, and gunicorn answers its own HTML 500. Here the encoding is
set without that parse, so the same request reaches the handlers and gets its ``400 invalid``
when a view first reads the query.
"""

from __future__ import annotations

import codecs
from typing import Any

import django
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.utils.http import parse_header_parameters


class ApiWSGIRequest(WSGIRequest):
    def _set_content_type_params(self, meta: dict[str, Any]) -> None:
        self.content_type, self.content_params = parse_header_parameters(
            meta.get("CONTENT_TYPE", "")
        )
        charset = self.content_params.get("charset")
        if charset:
            try:
                codecs.lookup(charset)
            except (LookupError, ValueError):  # ValueError: a NUL in the name
                return
            # Not through the ``encoding`` setter, which parses the query to reset it: nothing
            # has read the query of a request still being built.
            self._encoding = charset


class ApiWSGIHandler(WSGIHandler):
    request_class = ApiWSGIRequest


def get_wsgi_application() -> ApiWSGIHandler:
    """``django.core.wsgi.get_wsgi_application``, with the request above."""
    django.setup(set_prefix=False)
    return ApiWSGIHandler()
