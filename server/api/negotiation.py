"""How the API picks a response's media type: by the Accept header only.

The API speaks JSON: a success is ``application/json``, an error ``application/problem+json``.
An Accept header that admits either (``application/json``, ``application/problem+json``,
``application/*``, ``*/*``, or none at all) gets the answer, whichever it is; one that admits
neither (``text/html``) is ``406 not_acceptable``. A client that names only problem+json, as
some error-handling libraries do, still gets its successes, as ``application/json``.

DRF's ``?format=`` override is off: a ``format`` parameter is an unknown query parameter like
any other (``400 invalid``), not a 404 for a format the API never offered.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.settings import api_settings

from server.api.problems import PROBLEM_CONTENT_TYPE

_JSON = "application/json"


class _NoFormatOverride:
    """DRF's settings, with URL_FORMAT_OVERRIDE off."""

    URL_FORMAT_OVERRIDE = None

    def __getattr__(self, name: str) -> Any:
        return getattr(api_settings, name)


class ApiContentNegotiation(DefaultContentNegotiation):
    # A stand-in for DRF's settings object (every other setting read through), not one.
    settings = _NoFormatOverride()  # type: ignore[assignment]

    def select_renderer(self, request: Request, renderers: Iterable[BaseRenderer],
                        format_suffix: str | None = None) -> tuple[BaseRenderer, str]:
        return super().select_renderer(request, renderers, None)

    def get_accept_list(self, request: Request) -> list[str]:
        accepted = []
        for token in super().get_accept_list(request):
            media_type, _, parameters = token.partition(";")
            if _refused(parameters):
                continue  # q=0 means "not this"
            if media_type.strip().lower() == PROBLEM_CONTENT_TYPE:
                token = _JSON + (";" + parameters if parameters else "")
            accepted.append(token)
        if not accepted and not request.headers.get("accept", "").strip():
            return ["*/*"]  # an empty Accept header asks for nothing in particular
        return accepted


def _refused(parameters: str) -> bool:
    for parameter in parameters.split(";"):
        name, _, value = parameter.partition("=")
        if name.strip().lower() == "q":
            try:
                return float(value.strip()) == 0
            except ValueError:
                return False
    return False
