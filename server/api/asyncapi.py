"""The AsyncAPI 3.0 document of the API's sockets, served at ``/api/asyncapi/`` beside the
OpenAPI document (``/api/schema/``).

Each app with a socket describes it in a ``SocketSection`` (its channels, operations, messages
and the schemas of its messages' envelopes); the composition root hands them to
``AsyncApiView``. A message's payload refers to the OpenAPI document's components by the same
``#/components/schemas/<name>``: those components, and everything they refer to, are taken
from the OpenAPI document that ``/api/schema/`` serves, generated from the same serializers,
so the two documents cannot describe an event differently. They are written as AsyncAPI
schemas (``asyncapi_schema``): AsyncAPI checks everything under ``components.schemas`` as its
own schema object (JSON Schema draft 07 and a ``discriminator`` that is a property's name), so
an OpenAPI 3.0 schema there (``nullable``, a ``discriminator`` object) is invalid, whatever
``schemaFormat`` a message names. ``@asyncapi/parser``, the reference parser, checks the
document in the suite (tests/asyncapi/).
"""

from __future__ import annotations

import copy
import functools
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.views import View

from server.api import sockets
from server.api.close_codes import CloseCode

ASYNCAPI_VERSION = "3.0.0"
REF_PREFIX = "#/components/schemas/"
# The payloads are AsyncAPI schemas: the OpenAPI document's components as ``asyncapi_schema``
# writes them.
SCHEMA_FORMAT = f"application/vnd.aai.asyncapi+json;version={ASYNCAPI_VERSION}"
# Where an OpenAPI schema and an AsyncAPI one differ, the same meaning in the other's words.
NULL = {"type": "null"}
NULL_ENUM = {"$ref": "#/components/schemas/NullEnum"}


def asyncapi_schema(schema: Any) -> Any:
    """``schema``, an OpenAPI 3.0 schema (drf-spectacular's), as an AsyncAPI schema object:
    ``nullable: true`` becomes ``null`` among the types (and the values of an ``enum``), or a
    ``null`` alternative of a composed schema; a ``discriminator`` object its property's name
    (its ``mapping`` is implied: each alternative's discriminating property is a one-value
    enum). Everything else is the same in both."""
    if isinstance(schema, list):
        return [asyncapi_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    converted = {key: asyncapi_schema(value) for key, value in schema.items()
                 if key != "nullable"}
    if isinstance(schema.get("discriminator"), dict):
        converted["discriminator"] = schema["discriminator"]["propertyName"]
    if not schema.get("nullable"):
        return converted
    if "type" in converted and not {"$ref", "allOf", "oneOf", "anyOf"} & set(converted):
        types = converted["type"] if isinstance(converted["type"], list) else [converted["type"]]
        converted["type"] = [*types, "null"]
        if "enum" in converted and None not in converted["enum"]:
            converted["enum"] = [*converted["enum"], None]
        return converted
    if NULL_ENUM in converted.get("oneOf", ()):
        return converted  # drf-spectacular's nullable choice: its alternatives admit null
    # A composed schema (``allOf: [{"$ref": ...}]``): it, or null. What describes the member
    # as a whole stays outside the alternatives.
    outer = {key: converted.pop(key) for key in ("description", "title", "readOnly",
                                                 "writeOnly", "deprecated") if key in converted}
    return {**outer, "oneOf": [converted, NULL]}



def type_member(value: str) -> dict:
    """A message's ``type``: always ``value``."""
    return {"type": "string", "enum": [value], "description": f"Always `{value}`."}


def envelope(description: str, required: list[str], **properties: Any) -> dict:
    """A message's schema: an object of ``properties``."""
    return {"type": "object", "description": description, "properties": properties,
            "required": required}


# The messages every socket of the API shares (server.api.sockets).
COMMON_SCHEMAS = {
    "SocketAuthMessage": envelope(
        "The first message of a client that could not send `Authorization: Bearer <token>` "
        f"with the handshake (a browser), within {sockets.AUTH_SECONDS} s of opening the "
        "socket. Later ones change nothing.", ["type", "token"], type=type_member("auth"),
        token={"type": "string", "maxLength": sockets.TOKEN_MAX_LENGTH,
               "description": "A token of the API (printable ASCII)."}),
    "SocketPingMessage": envelope("Asks for a `pong`.", ["type"], type=type_member("ping")),
    "SocketPongMessage": envelope("The answer to a `ping`.", ["type"],
                                  type=type_member("pong")),
}


# The client's messages every socket takes, and the answer to a ping: (schema, title) by name.
COMMON_MESSAGES = {
    "auth": ("SocketAuthMessage", "Authenticate"),
    "ping": ("SocketPingMessage", "Ping"),
    "pong": ("SocketPongMessage", "Pong"),
}


def messages(prefix: str, named: dict[str, tuple[str, str]]) -> dict:
    """Message objects ``<prefix><Name>`` for ``named`` (a message's name: (its payload's
    schema, its title))."""
    return {
        f"{prefix}{name.capitalize()}": {
            "name": name, "title": title, "contentType": "application/json",
            "payload": {"schemaFormat": SCHEMA_FORMAT,
                        "schema": {"$ref": f"{REF_PREFIX}{schema}"}},
        }
        for name, (schema, title) in named.items()
    }


def close_codes(codes: list[CloseCode]) -> tuple[str, list[dict]]:
    """A channel's close codes (``server.api.close_codes.table``'s): as a Markdown table for
    its description, and as its ``x-close-codes`` extension."""
    table = "\n".join(["| code | meaning | what to do |", "| --- | --- | --- |"]
                      + [f"| {close.code} | {close.meaning} | {close.action} |"
                         for close in codes])
    return table, [{"code": close.code, "meaning": close.meaning, "action": close.action}
                   for close in codes]


def ws_binding(*, after_maximum: int | None = None, after_description: str = "") -> dict:
    """The WebSocket binding every socket of the API has: the optional Bearer header and, for
    a socket that catches up (``after_maximum``), the ``?after=N`` to catch up from."""
    binding: dict[str, Any] = {
        "method": "GET",
        "headers": {"type": "object", "properties": {"Authorization": {
            "type": "string", "pattern": "^Bearer .+$",
            "description": "`Bearer <token>`; else send an `auth` message first."}}},
        "bindingVersion": "0.1.0",
    }
    if after_maximum is not None:
        binding["query"] = {"type": "object", "properties": {"after": {
            "type": "integer", "minimum": 0, "maximum": after_maximum,
            "description": after_description}}}
    return binding


def _in_channel(channel: str, name: str) -> dict:
    """A reference to ``channel``'s message ``name``."""
    return {"$ref": f"#/channels/{channel}/messages/{name}"}


def socket_channel(prefix: str, *, address: str, title: str, description: str,
                   codes: list[CloseCode], names: Iterable[str], binding: dict,
                   parameters: dict | None = None) -> dict:
    """A socket's channel object: at ``address``, its ``description`` followed by the table of
    its close ``codes`` (``close_codes``), its messages ``names`` referring to the components
    ``<prefix><Name>`` (``messages``), its WebSocket ``binding`` (``ws_binding``) and, for an
    address with parameters, their ``parameters``."""
    table, listed = close_codes(codes)
    channel: dict[str, Any] = {
        "address": address, "title": title,
        "description": description + "\n\nClose codes:\n\n" + table,
        "servers": [{"$ref": "#/servers/app"}],
    }
    if parameters is not None:
        channel["parameters"] = parameters
    channel["messages"] = {name: {"$ref": f"#/components/messages/{prefix}{name.capitalize()}"}
                           for name in names}
    channel["bindings"] = {"ws": binding}
    channel["x-close-codes"] = listed
    return channel


def socket_operations(prefix: str, channel: str, *, summary: str, sent: list[str]) -> dict:
    """The operations of a socket on ``channel``: those every socket of the API has, named
    ``<prefix>Authenticate`` and ``<prefix>Ping``, and ``<prefix>Updates``, the server's
    messages ``sent`` (by name) as ``summary`` says."""
    reference = {"$ref": f"#/channels/{channel}"}
    return {
        f"{prefix}Authenticate": {
            "action": "receive", "channel": reference,
            "summary": "The client authenticates (when it sent no Authorization header).",
            "messages": [_in_channel(channel, "auth")],
            "reply": {"channel": reference, "messages": [_in_channel(channel, "ready")]},
        },
        f"{prefix}Ping": {
            "action": "receive", "channel": reference,
            "summary": "The client pings; the server answers `pong`.",
            "messages": [_in_channel(channel, "ping")],
            "reply": {"channel": reference, "messages": [_in_channel(channel, "pong")]},
        },
        f"{prefix}Updates": {
            "action": "send", "channel": reference, "summary": summary,
            "messages": [_in_channel(channel, name) for name in sent],
        },
    }


@dataclass(frozen=True)
class SocketSection:
    """One app's part of the document: ``channels``, ``operations`` and ``messages`` as the
    AsyncAPI 3.0 objects of those names; ``schemas`` the envelopes' own (they may refer to any
    OpenAPI component); ``description`` a paragraph for the document's."""

    channels: dict
    operations: dict
    messages: dict
    schemas: dict
    description: str = ""


def _refs(value: Any) -> set[str]:
    """The component names ``value`` refers to."""
    if isinstance(value, dict):
        found: set[str] = set()
        for key, item in value.items():
            if key == "$ref" and isinstance(item, str) and item.startswith(REF_PREFIX):
                found.add(item[len(REF_PREFIX):])
            else:
                found |= _refs(item)
        return found
    if isinstance(value, list):
        return set().union(*(_refs(item) for item in value)) if value else set()
    return set()


def referenced(components: dict, roots: set[str]) -> dict:
    """The components named in ``roots`` and all they refer to, transitively."""
    wanted, todo = {}, sorted(roots)
    while todo:
        name = todo.pop()
        if name in wanted or name not in components:
            continue
        wanted[name] = components[name]
        todo += sorted(_refs(components[name]) - set(wanted))
    return dict(sorted(wanted.items()))


_lock = threading.Lock()


@functools.cache
def openapi_components() -> dict:
    """The OpenAPI document's component schemas, as ``/api/schema/`` serves them (the same
    generator and hooks), built once per process."""
    from drf_spectacular.generators import SchemaGenerator

    with _lock:
        schema = SchemaGenerator().get_schema(request=None, public=True)
    return schema["components"]["schemas"]


def document(sections: list[SocketSection], *, host: str, secure: bool) -> dict:
    """The AsyncAPI document of ``sections``, for a server reached at ``host``."""
    own: dict = dict(COMMON_SCHEMAS)
    for section in sections:
        own.update(section.schemas)
    components = openapi_components()
    borrowed = referenced(components, _refs(own) - set(own))
    title = settings.SPECTACULAR_SETTINGS.get("TITLE", "API")
    result: dict[str, Any] = {
        "asyncapi": ASYNCAPI_VERSION,
        "info": {
            "title": f"{title}: sockets",
            "version": settings.SPECTACULAR_SETTINGS.get("VERSION", "1.0.0"),
            "description": "\n\n".join(
                ["The live sockets of the API (docs/API.md). The schemas of the events are "
                 "the OpenAPI document's (`/api/schema/`), under the same names."]
                + [section.description for section in sections if section.description]),
        },
        "defaultContentType": "application/json",
        "servers": {
            "app": {"host": host, "protocol": "wss" if secure else "ws",
                    "description": "The app's own host and port: `wss` over HTTPS, `ws` "
                                   "over plain HTTP."},
        },
        "channels": {}, "operations": {},
        "components": {"messages": {}, "schemas": asyncapi_schema({**borrowed, **own})},
    }
    for section in sections:
        result["channels"].update(copy.deepcopy(section.channels))
        result["operations"].update(copy.deepcopy(section.operations))
        result["components"]["messages"].update(copy.deepcopy(section.messages))
    return result


class AsyncApiView(View):
    """``GET /api/asyncapi/``: the AsyncAPI document (JSON), public like ``/api/schema/``."""

    sections: list[SocketSection] = []
    http_method_names = ["get", "head", "options"]

    def get(self, request: HttpRequest) -> JsonResponse:
        body = document(self.sections, host=request.get_host(), secure=request.is_secure())
        return JsonResponse(body, json_dumps_params={"ensure_ascii": False})
