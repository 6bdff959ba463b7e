"""The base class of the API's views."""

from __future__ import annotations

from typing import Any, ClassVar

from django.db import DatabaseError
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from server.api import headers
from server.api.negotiation import ApiContentNegotiation
from server.api.problems import InvalidRequest, UnsupportedMediaType
from server.core import replicas

BODILESS_METHODS = frozenset({"GET", "HEAD", "DELETE", "OPTIONS"})


class ApiView(APIView):
    """An ``APIView`` that refuses query parameters it does not know, and sets the cache
    headers of ``server.api.headers``.

    A misspelt parameter (``?limt=5``) is an error the client wants to hear about, and the
    OpenAPI schema promises no others. Views list theirs in ``query_parameters``.
    """

    content_negotiation_class = ApiContentNegotiation
    query_parameters: ClassVar[frozenset[str]] = frozenset()
    # Whether this view's POST and PATCH take a JSON body; GET and DELETE never do. A body sent
    # where none is taken is refused: a client that sends one expects it to mean something.
    takes_body: ClassVar[bool] = True
    # True for a view whose answers carry a new bearer token: they are Cache-Control: no-store.
    issues_tokens: ClassVar[bool] = False
    # True for a view whose reads may lag (boards, profiles, statistics): with a read replica
    # configured they go there, unless the token has just written (server.core.replicas).
    reads_replica: ClassVar[bool] = False

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        try:
            return super().dispatch(request, *args, **kwargs)
        finally:
            if self.reads_replica:
                replicas.request_end()

    def handle_exception(self, exc: Exception) -> Response:
        if (self.reads_replica and isinstance(exc, DatabaseError)
                and replicas.request_used_replica() and not getattr(self, "_on_primary", False)):
            # The replica failed this read: the same read again on the primary, once.
            self._on_primary = True
            replicas.mark_down(exc)
            replicas.request_on_primary()
            method = self.request.method or ""  # set on every request Django serves
            handler = getattr(self, method.lower(), self.http_method_not_allowed)
            try:
                return handler(self.request, *self.args, **self.kwargs)
            except Exception as again:  # noqa: BLE001 - handled below like the first
                exc = again
        return super().handle_exception(exc)

    def finalize_response(self, request: Request, response: Response, *args: Any,
                          **kwargs: Any) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        headers.apply(self, request, response)
        return response

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        self._check_query(request)
        self._check_body(request)
        if self.reads_replica:  # authenticated by now: the token's own writes are known
            replicas.request_start(request.method or "", request.META.get("HTTP_AUTHORIZATION", ""))

    def _check_query(self, request: Request) -> None:
        unknown = sorted(set(request.query_params) - self.query_parameters)
        if unknown:
            raise InvalidRequest(
                f"Unknown query parameter(s): {', '.join(unknown)}.",
                errors=[{"field": name, "message": "Unknown query parameter."}
                        for name in unknown],
            )
        repeated = sorted(name for name, values in request.query_params.lists()
                          if len(values) > 1)
        if repeated:
            raise InvalidRequest(
                f"Give each query parameter once: {', '.join(repeated)}.",
                errors=[{"field": name, "message": "Given more than once."}
                        for name in repeated],
            )

    def _check_body(self, request: Request) -> None:
        meta = request.META
        length = meta.get("CONTENT_LENGTH") or "0"
        if not length.isascii() or not length.isdigit():
            message = f"Content-Length is a number of bytes, not {length[:40]!r}."
            raise InvalidRequest(message,
                                 errors=[{"field": "Content-Length", "message": message}])
        if int(length) == 0:
            return
        if request.method in BODILESS_METHODS or not self.takes_body:
            raise InvalidRequest(
                f"{request.method} {request.path} takes no request body; send none.",
                errors=[{"field": "body", "message": "Takes no request body; send none."}])
        encoding = meta.get("HTTP_CONTENT_ENCODING", "").strip().lower()
        if encoding not in ("", "identity"):
            raise UnsupportedMediaType(
                f"Send the body as it is, without a Content-Encoding ({encoding[:40]}).")
