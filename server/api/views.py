"""The base class of the API's views."""

from __future__ import annotations

from typing import ClassVar

from rest_framework.views import APIView

from server.api.problems import InvalidRequest


class ApiView(APIView):
    """An ``APIView`` that refuses query parameters it does not know.

    A misspelt parameter (``?limt=5``) is an error the client wants to hear about, and the
    OpenAPI schema promises no others. Views list theirs in ``query_parameters``.
    """

    query_parameters: ClassVar[frozenset[str]] = frozenset()

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        unknown = sorted(set(request.query_params) - self.query_parameters)
        if unknown:
            raise InvalidRequest(
                f"Unknown query parameter(s): {', '.join(unknown)}.",
                errors=[{"field": name, "message": "Unknown query parameter."}
                        for name in unknown],
            )
