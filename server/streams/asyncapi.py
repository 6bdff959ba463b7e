"""The account socket, ``/ws/account``, as the AsyncAPI document describes it
(``server.api.asyncapi``): its messages both ways and its close codes. Its events message
carries the OpenAPI document's ``AccountEvent`` (``serializers.StreamPageOutput``'s), so the
page, the stream and the socket share one schema per kind."""

from __future__ import annotations

from django.conf import settings

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
from server.streams.selectors import MAX_AFTER

CHANNEL = "account"

# The shared close codes (server.api.close_codes), in this socket's words: its own 4429 bound
# is its token's streams and its player's.
CLOSE_CODES = close_codes.table(
    after_maximum=MAX_AFTER,
    too_many=(f"your token holds all the streams it may (at most {settings.STREAMS_PER_TOKEN} "
              "in one process, sockets and HTTP streams together), you hold all you may "
              f"across your tokens (at most {settings.STREAMS_PER_PLAYER})"),
    spare="stream",
    reconnect="Reconnect with `?after=`.")

SCHEMAS = {
    "AccountSocketReadyMessage": envelope(
        "Once authenticated: your latest account event's number, and the snapshot of your "
        "matches being played.", ["type", "last", "matches"],
        type=type_member("ready"), last={"type": "integer", "minimum": 0},
        matches={"type": "array",
                 "items": {"$ref": "#/components/schemas/MatchStartedEvent"},
                 "description": "One `match_started` for each match you play now, the oldest "
                                "first, unnumbered (`number` null): what a new connection "
                                "takes up before its first event. A match started after it "
                                "comes as a numbered `match_started` event."}),
    "AccountSocketEventsMessage": envelope(
        "New account events, in order, none twice and none missing: the same objects as "
        "`GET /api/v1/stream/events` gives.", ["type", "events", "last"],
        type=type_member("events"),
        events={"type": "array", "minItems": 1,
                "items": {"$ref": "#/components/schemas/AccountEvent"}},
        last={"type": "integer", "minimum": 1,
              "description": "The number of the last event in `events`."}),
}

_MESSAGES = {
    **COMMON_MESSAGES,
    "ready": ("AccountSocketReadyMessage", "Ready"),
    "events": ("AccountSocketEventsMessage", "Events"),
}

MESSAGES = messages("account", _MESSAGES)

CHANNELS = {
    CHANNEL: socket_channel(
        "account", address="/ws/account", title="Your account's events, live",
        description=(
            "Pushes your account events (match started, your turn, invitations received, "
            "cancelled and declined, joined, match over) across all your matches, as they are "
            "stored, after `ready`, which carries the snapshot of your matches being played. "
            "Authenticated and bounded as a match's socket is. `?after=N` resumes after your "
            "account event `N`; without it, only those after `ready.last`."),
        codes=CLOSE_CODES, names=_MESSAGES,
        binding=ws_binding(after_maximum=MAX_AFTER,
                           after_description="The last account event number you hold.")),
}

OPERATIONS = socket_operations(
    "account", CHANNEL,
    summary="The server tells: ready, then your account events as they are stored.",
    sent=["ready", "events", "pong"])

SECTION = SocketSection(
    channels=CHANNELS, operations=OPERATIONS, messages=MESSAGES, schemas=SCHEMAS,
    description="`account`: your account's events across all your matches.",
)
