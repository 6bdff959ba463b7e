"""OpenAPI pieces shared by every endpoint: the problem+json error shape, the errors every
operation can answer and the response headers every view sets (``ApiAutoSchema``)."""

from __future__ import annotations

import copy
import inspect
from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import Direction, OpenApiExample, OpenApiResponse
from rest_framework import serializers
from rest_framework.permissions import AllowAny

from server.api import headers, throttling
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
    # Serializer.errors to the checker only: DRF's metaclass takes declared fields off the class.
    errors = FieldErrorSerializer(  # type: ignore[assignment]
        many=True, required=False,
        help_text="Per-field messages, for code 'invalid': a body field, a query parameter, "
                  "`body` (the body as a whole, or one sent where none is taken) or a header "
                  "(`Idempotency-Key`, `Content-Length`).")
    legal_moves = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        required=False, help_text="With `illegal_move`: where the current card may go.")
    moves_played = serializers.IntegerField(
        required=False, help_text="With `stale_move`: the moves played so far.")
    legal_actions = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField(), min_length=2, max_length=2),
        required=False,
        help_text="With Spite & Malice's `illegal_action`: the actions you may play now, "
                  "`[source, target]` as the match's `game.legal_actions` lists them.")
    game = serializers.IntegerField(
        required=False, min_value=1,
        help_text="With Spite & Malice's `stale_action` and `not_your_turn`: the number of "
                  "the game being played (send it as `game`).")
    actions = serializers.IntegerField(
        required=False, min_value=0,
        help_text="With Spite & Malice's `stale_action` and `not_your_turn`: the actions "
                  "played in that game so far (send it as `actions`).")
    turn = serializers.IntegerField(
        required=False, min_value=0, max_value=1,
        help_text="With Spite & Malice's `not_your_turn`: the seat to act now (0 or 1).")
    suggestion = serializers.CharField(
        required=False, help_text="With `name_taken`: a free name like the one asked for "
                                  "(\"Ada 2\"), when one of the first few numbered variants is.")
    reason = serializers.ChoiceField(
        choices=["cancelled", "declined", "expired"], required=False,
        help_text="With a Spite & Malice invitation's `not_found`, for a code that was open to "
                  "you: how it closed (cancelled by its maker, declined, expired).")


class ClosedProblemSchema(OpenApiSerializerExtension):
    """A problem carries only the members declared above: ``additionalProperties: false`` makes
    the schema tests fail for an extension member that is not declared."""

    target_class = ProblemSerializer

    def map_serializer(self, auto_schema: AutoSchema, direction: Direction) -> dict[str, Any]:
        schema = auto_schema._map_basic_serializer(self.target, direction)
        schema["additionalProperties"] = False
        return schema


_DESCRIPTIONS = {
    400: "Malformed JSON, wrong types or unknown query parameters (code `invalid`).",
    401: "Missing, invalid or revoked token (code `not_authenticated`).",
    403: "Not allowed (code `permission_denied`).",
    404: "No such resource, or not yours (code `not_found`).",
    406: "The Accept header allows no JSON (code `not_acceptable`).",
    409: "Conflict with the current state.",
    411: "A body sent without a length that cannot be read (code `length_required`).",
    413: "Body too large (code `payload_too_large`).",
    415: "Only application/json is accepted (code `unsupported_media_type`).",
    422: "Well-formed but not possible now.",
    429: "Too many requests (code `throttled`); see Retry-After.",
    503: "The database cannot be reached (code `service_unavailable`); retry after "
         "Retry-After seconds.",
}


def problems(*statuses: int, **descriptions: str) -> dict[tuple[int, str], OpenApiResponse]:
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


def problem_example(code: str, status: int, title: str, detail: str,
                    **extra: Any) -> OpenApiExample:
    """An example problem; ``extra`` are its extension members (``legal_moves=...``)."""
    return OpenApiExample(
        code,
        value={"type": f"/api/problems/{code}", "title": title, "status": status,
               "detail": detail, "code": code, **extra},
        status_codes=[str(status)],
        response_only=True,
    )


def require_request_bodies(result: dict[str, Any], generator: object, request: object,
                           public: bool) -> dict[str, Any]:
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


# A stream's items: OpenAPI 3.2's ``itemSchema`` of a sequential media type (NDJSON, Server-Sent
# Events), under an extension's name in this 3.0 document, which has no word for it and admits
# only ``x-`` members in a media type object. A view writes it in its response's schema
# (``stream_body``); ``item_schemas`` moves it up to the media type, where 3.2 has it.
ITEM_SCHEMA = "x-itemSchema"


def stream_body(description: str, item: dict[str, Any]) -> dict[str, Any]:
    """The schema of a streamed body (text, as a whole) whose items are ``item``."""
    return {"type": "string", "description": description, ITEM_SCHEMA: item}


def item_schemas(result: dict[str, Any], generator: object, request: object,
                 public: bool) -> dict[str, Any]:
    """Postprocessing hook: a streamed response's item schema (``stream_body``) is its media
    type's, as OpenAPI 3.2's ``itemSchema`` is."""
    for path in result.get("paths", {}).values():
        for operation in path.values():
            responses = operation.get("responses", {}) if isinstance(operation, dict) else {}
            for response in responses.values():
                for media in response.get("content", {}).values():
                    schema = media.get("schema")
                    if isinstance(schema, dict) and ITEM_SCHEMA in schema:
                        # A copy: the view's schema is read again by every generation.
                        media["schema"] = {key: value for key, value in schema.items()
                                           if key != ITEM_SCHEMA}
                        media[ITEM_SCHEMA] = copy.deepcopy(schema[ITEM_SCHEMA])
    return result


def _header(description: str, **schema: Any) -> dict[str, Any]:
    return {"schema": {"type": "string", **schema}, "required": True, "description": description}


LOCATION_HEADER = _header("The absolute URL of the resource created.", format="uri")
NO_STORE_HEADER = _header("`no-store`: the answer carries a bearer token; keep no copy.",
                          enum=[headers.NO_STORE])
VARY_HEADER = _header("Names `Authorization`: the answer depends on the token sent.")
RETRY_AFTER_HEADER = _header("Seconds to wait before trying again.", pattern=r"^[0-9]+$")
RATELIMIT_POLICY_HEADER = _header(
    "The route's rate limits (draft-ietf-httpapi-ratelimit-headers): one policy per token and "
    "per address, `\"<scope>.token\";q=<requests>;w=<seconds>` (docs/API.md, \"Rate "
    "limits\").")
RATELIMIT_HEADER = {**_header(
    "Where this request left you against each limit: `\"<scope>.token\";r=<remaining>;"
    "t=<seconds until the quota grows again>`. Absent when the request was not counted (an "
    "action on your own turn of a match on a clock, or the limiter's cache unreachable)."),
    "required": False}
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


# An operation a client may call without a token declares no security requirement at all
# (``security: []``), also when a token, if sent, is read. OpenAPI's own spelling of "token
# optional", ``[{"bearerAuth": []}, {}]``, is read by client generators (openapi-python-client
# among them) as "token required": the generated call would then refuse a plain ``Client``.
# The description says instead that a token is read, and 401 stays declared for a bad one.
TOKEN_OPTIONAL = (
    "**Token optional.** Without one this is the public answer. Send "
    "`Authorization: Bearer <token>` to add what concerns you: a token that is sent is read, "
    "and one that is invalid or revoked is 401 `not_authenticated`. No security requirement "
    "is declared, so that generated clients call it with or without a token.")


class ApiAutoSchema(AutoSchema):
    """Adds to each operation what every view of the API does without declaring it:

    - the errors any operation can answer: 400 (malformed input, unknown query parameters),
      406 (an Accept that allows no JSON), 503 (the database is down); 401 where a token is
      read; 411, 413 and 415 where a body is taken; 429 where requests are rate-limited;
    - no security requirement where a token is optional or never read (``TOKEN_OPTIONAL``),
      and a description that says a token is read where it is optional;
    - the response headers of ``server.api.headers``: ``Location`` on a 201, ``Cache-Control``
      on an answer carrying a token, ``Vary`` on a read that depends on the token, and
      ``Retry-After`` on a 429.
    """

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        if "security" not in operation:
            operation["security"] = []  # anonymous: no scheme is required (see TOKEN_OPTIONAL)
        if self._token_optional():
            description = operation.get("description")
            operation["description"] = (f"{description}\n\n{TOKEN_OPTIONAL}" if description
                                        else TOKEN_OPTIONAL)
        return operation

    # drf-spectacular's own signature, which DRF's stubs for the base class do not share.
    def get_description(self) -> str:  # type: ignore[override]
        """The operation's own words only: its method's docstring, else its view class's own
        (never one inherited from a base class, whose docstring is written for the code's
        readers: ``ApiView``'s, ``APIView``'s)."""
        method = getattr(self.view, getattr(self.view, "action", self.method.lower()), None)
        own = [getattr(method, "__doc__", None) if method is not None
               and self.method.lower() in type(self.view).__dict__ else None,
               type(self.view).__dict__.get("__doc__")]
        return next((inspect.cleandoc(doc) for doc in own if doc), "")

    def get_auth(self) -> list[dict[str, Any]]:
        """The bearer scheme where a token is required; none where a request may come
        without one (drf-spectacular adds ``{}`` for those)."""
        requirements = super().get_auth()
        return [] if {} in requirements else requirements

    def _token_optional(self) -> bool:
        """A view that reads a token if one is sent, and answers without one too."""
        return bool(self.view.authentication_classes) and any(
            isinstance(permission, AllowAny) for permission in self.view.get_permissions())

    def _common_problems(self) -> list[int]:
        statuses = [400, 406, 503]
        if self.view.authentication_classes:
            statuses.append(401)
        if self.method in _BODY_METHODS and self.get_request_serializer() is not None:
            statuses += [411, 413, 415]
        if throttling.counts(self.view, self.method):
            statuses.append(429)
        return statuses

    def _get_response_bodies(self, direction: Direction = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        for status in self._common_problems():
            if str(status) not in responses:
                responses[str(status)] = self._get_response_for_code(
                    OpenApiResponse(ProblemSerializer, description=_DESCRIPTIONS[status]),
                    str(status), (PROBLEM_CONTENT_TYPE,), direction)
        return dict(sorted(responses.items()))

    def _get_response_headers_for_code(self, status_code: int | str,
                                       direction: Direction = "response") -> dict[str, Any]:
        result = super()._get_response_headers_for_code(status_code, direction)
        status = str(status_code)
        if status == "201":
            result[headers.LOCATION] = LOCATION_HEADER
        if status.startswith("2"):
            if getattr(self.view, "issues_tokens", False):
                result[headers.CACHE_CONTROL] = NO_STORE_HEADER
            if headers.varies_by_token(self.view, self.method):
                result[headers.VARY] = VARY_HEADER
        if status == "429":
            result["Retry-After"] = RETRY_AFTER_HEADER
        scope = getattr(self.view, "throttle_scope", None)  # counted: a scope is set
        if scope is not None and throttling.counts(self.view, self.method) and throttling.policies(
                scope) and (status.startswith("2") or status == "429"):
            result["RateLimit-Policy"] = RATELIMIT_POLICY_HEADER
            result["RateLimit"] = RATELIMIT_HEADER
        return result
