"""The sockets' AsyncAPI document, ``GET /api/asyncapi/``: it parses as AsyncAPI 3.0 (every
reference resolves, every operation names its channel's messages), names the channels and
messages docs/API.md describes, and its events are the OpenAPI document's own components,
written as AsyncAPI schemas. A message received on a real socket fits it:
tests/server/spitemalice/live/test_asyncapi.py; the reference parser reads it without an error
or a warning: tests/asyncapi/parser.test.mjs."""

from __future__ import annotations

import pytest
from django.test import Client as DjangoClient

from server.api.asyncapi import asyncapi_schema
from server.spitemalice.serializers.outputs import EVENT_SERIALIZERS

pytestmark = pytest.mark.django_db

SCHEMA_FORMAT = "application/vnd.aai.asyncapi+json;version=3.0.0"


@pytest.fixture(scope="module")
def documents(django_db_blocker) -> tuple[dict, dict]:
    with django_db_blocker.unblock():
        asyncapi = DjangoClient().get("/api/asyncapi/")
        openapi = DjangoClient().get("/api/schema/", HTTP_ACCEPT="application/json")
    assert asyncapi.status_code == 200 and asyncapi["Content-Type"] == "application/json"
    assert openapi.status_code == 200
    return asyncapi.json(), openapi.json()


def _pointer(document: dict, ref: str):
    assert ref.startswith("#/"), ref
    node = document
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        assert isinstance(node, dict) and part in node, f"{ref} does not resolve"
        node = node[part]
    return node


def _refs(value):
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "$ref":
                yield item
            else:
                yield from _refs(item)
    elif isinstance(value, list):
        for item in value:
            yield from _refs(item)


def test_the_document_is_asyncapi_3_and_every_reference_resolves(documents):
    document, _ = documents
    assert document["asyncapi"] == "3.0.0"
    assert {"title", "version"} <= set(document["info"])
    assert document["servers"]["app"]["protocol"] in ("ws", "wss")
    assert document["servers"]["app"]["host"]
    for ref in _refs(document):
        _pointer(document, ref)
    for name, operation in document["operations"].items():
        assert operation["action"] in ("send", "receive"), name
        channel = _pointer(document, operation["channel"]["$ref"])
        # An operation's messages are its channel's (AsyncAPI 3.0 requires it).
        for message in operation["messages"] + operation.get("reply", {}).get("messages", []):
            prefix = operation["channel"]["$ref"] + "/messages/"
            assert message["$ref"].startswith(prefix), (name, message)
            assert message["$ref"][len(prefix):] in channel["messages"]
    for name, message in document["components"]["messages"].items():
        assert message["payload"]["schemaFormat"] == SCHEMA_FORMAT, name
        assert message["contentType"] == "application/json"


def test_it_names_both_sockets_their_messages_and_close_codes(documents):
    document, _ = documents
    channels = document["channels"]
    assert channels["spiteMaliceMatch"]["address"] == "/ws/spite-malice/matches/{id}"
    assert set(channels["spiteMaliceMatch"]["parameters"]) == {"id"}
    assert set(channels["spiteMaliceMatch"]["messages"]) == {
        "auth", "ping", "pong", "ready", "events", "presence"}
    assert channels["account"]["address"] == "/ws/account"
    assert set(channels["account"]["messages"]) == {"auth", "ping", "pong", "ready", "events"}
    codes = [close["code"] for close in channels["spiteMaliceMatch"]["x-close-codes"]]
    assert codes == [4400, 4401, 4403, 4429, 1011, 1012, 1006]
    assert [close["code"] for close in channels["account"]["x-close-codes"]] == [
        4400, 4401, 4429, 1011, 1012, 1006]
    for code in codes:
        assert f"| {code} |" in channels["spiteMaliceMatch"]["description"]
    for channel in ("spiteMaliceMatch", "account"):
        query = channels[channel]["bindings"]["ws"]["query"]["properties"]
        assert set(query) == {"after"}
    schemas = document["components"]["schemas"]
    for name in ("SpiteMaliceSocketEventsMessage", "AccountSocketEventsMessage"):
        assert schemas[name]["properties"]["type"]["enum"] == ["events"]
    assert schemas["SpiteMaliceSocketEventsMessage"]["properties"]["events"]["items"] == {
        "$ref": "#/components/schemas/SpiteMaliceEvent"}
    assert schemas["AccountSocketEventsMessage"]["properties"]["events"]["items"] == {
        "$ref": "#/components/schemas/AccountEvent"}


def test_it_names_the_race_socket_its_messages_and_close_codes(documents):
    document, _ = documents
    channel = document["channels"]["race"]
    assert channel["address"] == "/ws/races/{id}"
    assert set(channel["parameters"]) == {"id"}
    assert set(channel["messages"]) == {"auth", "ping", "pong", "ready", "race", "progress"}
    codes = [close["code"] for close in channel["x-close-codes"]]
    assert codes == [4400, 4401, 4403, 4429, 1011, 1012, 1006]
    assert "query" not in channel["bindings"]["ws"]  # nothing to catch up: ready is the race
    schemas = document["components"]["schemas"]
    for name in ("RaceSocketReadyMessage", "RaceSocketRaceMessage"):
        assert schemas[name]["properties"]["race"] == {"$ref": "#/components/schemas/RaceOutput"}
    progress = schemas["RaceSocketProgressMessage"]
    assert progress["required"] == ["type", "player", "progress"]  # board: only to watchers
    assert progress["properties"]["progress"] == {
        "$ref": "#/components/schemas/RaceProgressOutput"}


def test_its_event_schemas_are_the_openapi_documents_components(documents):
    asyncapi, openapi = documents
    mine, theirs = asyncapi["components"]["schemas"], openapi["components"]["schemas"]
    shared = set(mine) & set(theirs)
    assert {"SpiteMaliceEvent", "AccountEvent", "GameViewOutput", "RaceOutput",
            "RaceProgressOutput", "CellOutput"} <= shared
    assert {name for name in theirs if name.startswith("SpiteMalice")
            and name.endswith("Event")} <= shared
    assert len(EVENT_SERIALIZERS) == 12
    for name in shared:
        assert mine[name] == asyncapi_schema(theirs[name]), name
    # Its own schemas are the messages' envelopes, nothing else.
    assert all(name.endswith("Message") for name in set(mine) - shared)


def test_openapi_schemas_are_written_in_asyncapi_s_words():
    """AsyncAPI checks every component schema as its own schema object (JSON Schema draft 07
    and a discriminator that names a property): ``nullable`` is a ``null`` type or
    alternative, a ``discriminator`` object its property's name."""
    assert asyncapi_schema({"type": "string", "nullable": True, "format": "date-time"}) == {
        "type": ["string", "null"], "format": "date-time"}
    assert asyncapi_schema({"type": "integer", "enum": [0, 1], "nullable": True}) == {
        "type": ["integer", "null"], "enum": [0, 1, None]}
    assert asyncapi_schema({"allOf": [{"$ref": "#/components/schemas/Player"}],
                            "nullable": True, "description": "Who."}) == {
        "description": "Who.",
        "oneOf": [{"allOf": [{"$ref": "#/components/schemas/Player"}]}, {"type": "null"}]}
    union = {"oneOf": [{"$ref": "#/components/schemas/A"}],
             "discriminator": {"propertyName": "kind",
                               "mapping": {"a": "#/components/schemas/A"}}}
    assert asyncapi_schema(union) == {"oneOf": [{"$ref": "#/components/schemas/A"}],
                                      "discriminator": "kind"}


def test_no_component_keeps_an_openapi_only_keyword(documents):
    document, _ = documents

    def keywords(value) -> set[str]:
        if isinstance(value, dict):
            found = {"nullable"} & set(value)
            if isinstance(value.get("discriminator"), dict):
                found.add("discriminator object")
            return found.union(*(keywords(item) for item in value.values()))
        if isinstance(value, list):
            return set().union(*(keywords(item) for item in value))
        return set()

    assert keywords(document["components"]["schemas"]) == set()
