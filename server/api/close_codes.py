"""The close codes of the API's live sockets, in one table: their numbers, and what each means
and asks of the client, in the words the AsyncAPI document (``server.api.asyncapi``) and
docs/API.md give them. The bounds the words name (a message's size, the time to send a token,
how soon a revoked token closes its socket, a token's streams) are the settings' and the
constants' values, read when the table is built, never restated.

Every socket closes with the shared codes for the same reasons; what differs is said by the
socket (``table``'s keywords): whether it takes ``?after=``, which bound of its own it closes
4429 past, how a client catches up when it reconnects, and the codes of its own (a game's 4403,
``NOT_YOURS``: no such match or race, or not the client's).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings

BAD_MESSAGE = 4400  # a message that is too big, not text, not JSON, or not one of the protocol's
BAD_TOKEN = 4401  # no token in time, or a token that is unknown or revoked
NOT_YOURS = 4403  # no such match or race, or not the client's (each game says which)
TOO_MANY = 4429  # too many sockets from this address or on this seat, or handshakes too fast
SERVER_ERROR = 1011  # the database failed: reconnect with ``after`` and catch up
RESTARTING = 1012  # the server is restarting (sent by the server that runs the app)
DROPPED = 1006  # the connection dropped (no close frame: what a client's library reports)

AUTH_SECONDS = 10  # how long a socket waits for its ``auth`` message
# The longest token the API hands out is 43 characters; anything else is not one.
TOKEN_MAX_LENGTH = 200


@dataclass(frozen=True)
class CloseCode:
    """A close code as a socket's table lists it: the code, what it means, what to do."""

    code: int
    meaning: str
    action: str


def _seconds(value: float) -> str:
    return f"{value:g} s"


def _number(value: int) -> str:
    """``value`` as the tables write a bound: a power of ten as one (10^9), else in full."""
    text = str(value)
    if value >= 10 and text == "1" + "0" * (len(text) - 1):
        return f"10^{len(text) - 1}"
    return f"{value:,}"


def table(*, too_many: str, reconnect: str, after_maximum: int | None = None,
          spare: str = "socket", own: Iterable[CloseCode] = ()) -> list[CloseCode]:
    """One socket's close codes, in the order its channel lists them: the 44xx codes by number
    (``own`` among them), then 1011, 1012 and 1006.

    ``too_many``: the bound of the socket's own that closes it 4429, besides its address's
    ("your seat holds all the sockets it may"); ``spare``: what the client closes to get under
    it ("socket", "stream"); ``reconnect``: what to do after 1011, 1012 and 1006 (catch up with
    ``?after=``, or nothing to catch up); ``after_maximum``: the bound of its ``?after=``, for a
    socket that takes one; ``own``: its codes besides the shared ones (a game's 4403)."""
    after = (f"; `after` not an integer 0-{_number(after_maximum)}"
             if after_maximum is not None else "")
    shared = [
        CloseCode(BAD_MESSAGE,
                  f"A message over {settings.LIVE_MAX_MESSAGE_BYTES:,} bytes, binary, not JSON, "
                  f"not an object or of an unknown type{after}.", "Fix the client."),
        CloseCode(BAD_TOKEN,
                  f"No token within {_seconds(AUTH_SECONDS)}, a first message other than "
                  "`auth`, or a token unknown, revoked or malformed; also an open socket whose "
                  "token was signed out or revoked since (within "
                  f"{_seconds(settings.LIVE_TOKEN_CHECK_SECONDS)}).", "Sign in again."),
        CloseCode(TOO_MANY,
                  f"Too many: {too_many}, your address holds its share of sockets (or of "
                  "unauthenticated ones), or its handshakes came too fast.",
                  f"Close a {spare} you do not need; reconnect later, backing off."),
    ]
    client = sorted([*shared, *own], key=lambda close: close.code)
    return [
        *client,
        CloseCode(SERVER_ERROR, "The database failed, or the server failed to handle a message.",
                  reconnect),
        CloseCode(RESTARTING, "The server is restarting (a deploy, a worker replaced).",
                  reconnect),
        CloseCode(DROPPED, "The connection dropped (network, a worker killed).", reconnect),
    ]

