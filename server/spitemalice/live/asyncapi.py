"""The match socket, ``/ws/spite-malice/matches/{id}``, as the AsyncAPI document describes it
(``server.api.asyncapi``): its messages both ways and its close codes. The events message
carries the OpenAPI document's ``SpiteMaliceEvent`` (``serializers.outputs.event_output``), so the
feed and the socket share one schema per kind."""

from __future__ import annotations

from server.api import close_codes
from server.api.asyncapi import (
    COMMON_MESSAGES,
    SocketSection,
    envelope,
    messages,
    socket_channel,
    socket_operations,
    type_member,
    ws_binding,
)
from server.spitemalice.live import consumers
from server.spitemalice.selectors import EVENTS_PER_PAGE

CHANNEL = "spiteMaliceMatch"

# The shared close codes (server.api.close_codes), in this socket's words, and its own 4403.
CLOSE_CODES = close_codes.table(
    after_maximum=consumers.MAX_AFTER,
    too_many="your seat holds all the sockets it may",
    reconnect="Reconnect with `?after=`.",
    own=[close_codes.CloseCode(consumers.NOT_YOURS,
                               "No such match, or you are not one of its players.", "Stop.")])


SCHEMAS = {
    "SpiteMaliceSocketReadyMessage": envelope(
        "Once authenticated: your seat, the match's latest event number and the match as "
        "your seat sees it then (lichess's `gameFull`).",
        ["type", "seat", "last", "match"], type=type_member("ready"),
        seat={"type": "integer", "minimum": 0, "maximum": 1},
        last={"type": "integer", "minimum": 0},
        match={"allOf": [{"$ref": "#/components/schemas/MatchOutput"}],
               "description": "The match as `GET /api/v1/spite-malice/matches/{id}` gives it "
                              "to your seat (your hand, never the other's), read with `last`: "
                              "its `event` is `last`, and the events after it are what the "
                              "socket sends next. Play from it without reading the match."}),
    "SpiteMaliceSocketEventsMessage": envelope(
        f"New events, in order, none twice and none missing (at most {EVENTS_PER_PAGE} a "
        "message): the same objects as `GET /api/v1/spite-malice/matches/{id}/events` gives "
        "your seat.", ["type", "events", "last"], type=type_member("events"),
        events={"type": "array", "minItems": 1,
                "items": {"$ref": "#/components/schemas/SpiteMaliceEvent"}},
        last={"type": "integer", "minimum": 1,
              "description": "The number of the last event in `events`."}),
    "SpiteMaliceSocketPresenceMessage": envelope(
        "After `ready`, then whenever it changes: whether each seat has a socket open now (the "
        "bot's seat always true).", ["type", "seats"], type=type_member("presence"),
        seats={"type": "array", "items": {"type": "boolean"}, "minItems": 2, "maxItems": 2}),
}

_MESSAGES = {
    # message name: (its schema, its title)
    **COMMON_MESSAGES,
    "ready": ("SpiteMaliceSocketReadyMessage", "Ready"),
    "events": ("SpiteMaliceSocketEventsMessage", "Events"),
    "presence": ("SpiteMaliceSocketPresenceMessage", "Presence"),
}

MESSAGES = messages("spiteMalice", _MESSAGES)


CHANNELS = {
    CHANNEL: socket_channel(
        "spiteMalice", address="/ws/spite-malice/matches/{id}",
        title="A Spite & Malice match, live",
        description=(
            "Pushes a match's events as they are stored, from your seat; it only tells "
            "(actions and resigning stay REST requests). Authenticate with "
            "`Authorization: Bearer <token>` on the handshake, or, from a browser, with an "
            "`auth` message first. A handshake whose `Origin` is not a page of the app is "
            "refused with HTTP 403. `?after=N` (the last event number you hold) sends every "
            "event after `N` right after `ready`; without it, only those after `ready.last`. "
            "The server also pings at the protocol level every 20 s and drops a socket that "
            "does not answer within 20 s."),
        codes=CLOSE_CODES, names=_MESSAGES,
        binding=ws_binding(
            after_maximum=consumers.MAX_AFTER,
            after_description="The last event number you hold: catch up from it."),
        parameters={"id": {"description": "The match's id (a UUID)."}}),
}

OPERATIONS = socket_operations(
    "spiteMalice", CHANNEL,
    summary="The server tells: ready, then the events and the seats' presence as they change.",
    sent=["ready", "events", "presence", "pong"])

SECTION = SocketSection(
    channels=CHANNELS, operations=OPERATIONS, messages=MESSAGES, schemas=SCHEMAS,
    description="`spiteMaliceMatch`: one Spite & Malice match's events and presence.",
)
