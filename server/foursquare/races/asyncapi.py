"""The race socket, ``/ws/races/{id}``, as the AsyncAPI document describes it
(``server.api.asyncapi``): its messages both ways and its close codes. Its race is the OpenAPI
document's race object (the one ``GET /api/v1/races/{id}`` answers), its progress and board
the same components, so the REST answer and the socket share one schema."""

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
from server.foursquare.races import consumers

CHANNEL = "race"
# The OpenAPI components of the race object, a racer's progress and a grid's cell.
RACE = "#/components/schemas/RaceOutput"
PROGRESS = "#/components/schemas/RaceProgressOutput"
CELL = "#/components/schemas/CellOutput"

# The shared close codes (server.api.close_codes), in this socket's words, and its own 4403.
CLOSE_CODES = close_codes.table(
    too_many="you hold all the sockets you may on this race",
    reconnect="Reconnect: `ready` gives the race as it is.",
    own=[close_codes.CloseCode(consumers.NOT_YOURS,
                               "No such race, or you are neither one of its racers nor invited "
                               "to it (also once you left it).", "Stop.")])

SCHEMAS = {
    "RaceSocketReadyMessage": envelope(
        "Once authenticated: the race as `GET /api/v1/races/{id}` gives it to you.",
        ["type", "race"], type=type_member("ready"), race={"$ref": RACE}),
    "RaceSocketRaceMessage": envelope(
        "The race again, whenever it changed: a racer joined or left, it started, its "
        "countdown ended, it finished (every game over, or its time up), `next_race` was "
        "set; also once when your own game ends (it now carries the others' boards).",
        ["type", "race"], type=type_member("race"), race={"$ref": RACE}),
    "RaceSocketProgressMessage": envelope(
        "A racer moved (you too): their progress, counts only. `board` (their grid, "
        "face-down ranks hidden) only once you may watch: your own game is over, or the race "
        "finished. All racers share one deal: before that no message names a card of "
        "another racer's game.", ["type", "player", "progress"],
        type=type_member("progress"),
        player={"type": "string", "format": "uuid", "description": "The racer's player id."},
        progress={"$ref": PROGRESS},
        board={"type": "array", "items": {"$ref": CELL}}),
}

_MESSAGES = {
    **COMMON_MESSAGES,
    "ready": ("RaceSocketReadyMessage", "Ready"),
    "race": ("RaceSocketRaceMessage", "Race"),
    "progress": ("RaceSocketProgressMessage", "Progress"),
}

MESSAGES = messages("race", _MESSAGES)

CHANNELS = {
    CHANNEL: socket_channel(
        "race", address="/ws/races/{id}", title="A Foursquare race, live",
        description=(
            "Pushes a race as it changes and each racer's progress as they move; it only "
            "tells (joining, starting and moves stay REST requests). For its racers and "
            "invitees. Authenticated and bounded as a match's socket is (`Authorization: "
            "Bearer <token>` on the handshake, or an `auth` message first; a handshake whose "
            "`Origin` is not a page of the app is refused with HTTP 403). Nothing to catch "
            "up: `ready` carries the race as it is."),
        codes=CLOSE_CODES, names=_MESSAGES, binding=ws_binding(),
        parameters={"id": {"description": "The race's id (a UUID)."}}),
}

OPERATIONS = socket_operations(
    "race", CHANNEL,
    summary="The server tells: ready, then the race as it changes and every racer's progress.",
    sent=["ready", "race", "progress", "pong"])

SECTION = SocketSection(
    channels=CHANNELS, operations=OPERATIONS, messages=MESSAGES, schemas=SCHEMAS,
    description="`race`: one Foursquare race and its racers' progress.",
)
