"""What every live socket of the API owes the server, whichever game it serves: a client's
address read as the HTTP limits read it, a bound on how many sockets one address holds open
(and how many of them before they authenticate), a rate of handshakes per address, and a bound
on a message's size checked before it is parsed. docs/API.md lists the close codes, and
docs/SECURITY.md why each bound is there.

The open sockets are counted per app process, in memory: a process that dies takes its counts
with it, so nothing can leak a count that no socket holds any more, and a deployment's bound is
the per-process one times its processes. The handshakes are counted in the shared cache, as the
HTTP limits are (``server.api.throttling``): over the rate a handshake is refused, and with the
cache down none is.
"""

from __future__ import annotations

import threading
from collections import Counter

from django.conf import settings
from rest_framework.settings import api_settings

from server.api import throttling

TOO_MANY = 4429  # too many sockets from this address or on this seat, or handshakes too fast
BAD_MESSAGE = 4400  # a message that is too big, not text, not JSON, or not one of the protocol's


def address_of(scope) -> str | None:
    """The client's address of an ASGI connection, as ``throttling.client_address`` reads a
    request's: the peer, or the entry of ``X-Forwarded-For`` that ``NUM_PROXIES`` trusts."""
    peer = (scope.get("client") or (None,))[0]
    forwarded = None
    for name, value in scope.get("headers", []):
        if name.lower() == b"x-forwarded-for":
            forwarded = value.decode("latin-1")
    proxies = api_settings.NUM_PROXIES
    if not proxies or forwarded is None:
        return peer
    addresses = [address.strip() for address in forwarded.split(",")]
    return addresses[-min(proxies, len(addresses))] or peer


def handshake_allowed(address: str | None) -> bool:
    """Count one handshake from ``address``; False when it is over ``sockets.address``."""
    return throttling.verdict(scope="sockets", token_id=None, address=address) is None


def message_too_big(text: str | None, data: bytes | None) -> bool:
    """A frame bigger than ``LIVE_MAX_MESSAGE_BYTES``, measured before anything parses it (a
    character of text is at least one byte, at most four)."""
    size = len(data) if data is not None else len(text or "")
    return size > settings.LIVE_MAX_MESSAGE_BYTES


class OpenSockets:
    """The sockets open in this process, per address: all of them, and those not yet
    authenticated."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: Counter[str] = Counter()
        self._waiting: Counter[str] = Counter()

    def open(self, address: str | None) -> bool:
        """Count a new, unauthenticated socket from ``address``; False (nothing counted) when
        the address holds its share already."""
        key = address or "?"
        with self._lock:
            if (self._open[key] >= settings.LIVE_SOCKETS_PER_ADDRESS
                    or self._waiting[key] >= settings.LIVE_UNAUTHENTICATED_PER_ADDRESS):
                return False
            self._open[key] += 1
            self._waiting[key] += 1
            return True

    def authenticated(self, address: str | None) -> None:
        self._forget(self._waiting, address)

    def closed(self, address: str | None, *, authenticated: bool) -> None:
        self._forget(self._open, address)
        if not authenticated:
            self._forget(self._waiting, address)

    def _forget(self, counter: Counter, address: str | None) -> None:
        key = address or "?"
        with self._lock:
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]

    def count(self, address: str | None) -> tuple[int, int]:
        """(open, of them unauthenticated) for ``address``: for tests and the curious."""
        key = address or "?"
        with self._lock:
            return self._open[key], self._waiting[key]


open_sockets = OpenSockets()
