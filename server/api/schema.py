"""OpenAPI pieces shared by every endpoint: the problem+json error shape."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse
from rest_framework import serializers

from server.api.problems import PROBLEM_CONTENT_TYPE


class FieldErrorSerializer(serializers.Serializer):
    field = serializers.CharField()
    message = serializers.CharField()


class ProblemSerializer(serializers.Serializer):
    """RFC 9457 problem details, with a stable ``code``."""

    type = serializers.CharField(help_text="A URI reference naming the problem type.")
    title = serializers.CharField()
    status = serializers.IntegerField()
    detail = serializers.CharField()
    code = serializers.CharField(help_text="Stable machine-readable code, e.g. illegal_move.")
    errors = FieldErrorSerializer(many=True, required=False,
                                  help_text="Per-field messages, for code 'invalid'.")


_DESCRIPTIONS = {
    400: "Malformed JSON or wrong types (code `invalid`).",
    401: "Missing, invalid or revoked token (code `not_authenticated`).",
    403: "Not allowed (code `permission_denied`).",
    404: "No such resource, or not yours (code `not_found`).",
    409: "Conflict with the current state.",
    413: "Body too large (code `payload_too_large`).",
    415: "Only application/json is accepted (code `unsupported_media_type`).",
    422: "Well-formed but not possible now.",
    429: "Too many requests (code `throttled`); see Retry-After.",
}


def problems(*statuses: int, **descriptions: str) -> dict:
    """``extend_schema(responses=...)`` entries for these error statuses.

    ``descriptions`` may override a status's text: ``problems(409, s409="...")``.
    """
    return {
        (status, PROBLEM_CONTENT_TYPE): OpenApiResponse(
            ProblemSerializer,
            description=descriptions.get(f"s{status}", _DESCRIPTIONS.get(status, "Error.")),
        )
        for status in statuses
    }


def problem_example(code: str, status: int, title: str, detail: str) -> OpenApiExample:
    return OpenApiExample(
        code,
        value={"type": f"/api/problems/{code}", "title": title, "status": status,
               "detail": detail, "code": code},
        status_codes=[str(status)],
        response_only=True,
    )


def require_request_bodies(result, generator, request, public):
    """Postprocessing hook: a body whose schema is a oneOf (one shape per mode) is required;
    drf-spectacular cannot infer that from a polymorphic serializer."""
    for path in result.get("paths", {}).values():
        for operation in path.values():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            if not body:
                continue
            for media in body.get("content", {}).values():
                ref = media.get("schema", {}).get("$ref", "")
                component = result["components"]["schemas"].get(ref.rsplit("/", 1)[-1], {})
                if "oneOf" in component:
                    body["required"] = True
    return result
