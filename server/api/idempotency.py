"""``Idempotency-Key``: a retry with the same key and body gets the first response again.

The work and the stored response commit in one transaction, after ``lock()`` has serialised
every request that could carry the same key for the same resource; so a retry that arrives
while the first attempt is still running waits for it and then replays its answer. Only
successful responses are stored: a rejected request changed nothing, so running it again
gives the same rejection.

Stored responses are kept ``settings.IDEMPOTENCY_KEY_HOURS`` (the window in which a retry is
answered from them), then deleted by ``records_prune``, which the hourly housekeeping runs
(registered by ``ApiConfig.ready()``: in one process an hour, ``run_jobs`` or a server's runner
thread), or ``manage.py prune_idempotency_keys`` by hand.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.http import HttpRequest
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request
from rest_framework.response import Response

from server.api.models import IdempotencyRecord
from server.api.problems import IdempotencyKeyReused, InvalidRequest
from server.core.sql import db_value
from server.players.models import Player
from server.players.tokens import authenticated_player

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 255
KEY_PATTERN = r"^[!-~]{1,255}$"  # visible ASCII, as HTTP header values travel safely
_KEY = re.compile(KEY_PATTERN)
PRUNE_SECONDS = 3600  # how often the housekeeping deletes expired responses

Outcome = tuple[int, dict[str, Any]]


def valid_key(key: str) -> bool:
    return _KEY.fullmatch(key) is not None


def key_from(request: Request | HttpRequest) -> str | None:
    key = request.headers.get(HEADER)
    if key is None:
        return None
    if not valid_key(key):
        message = f"{HEADER} is 1 to {MAX_KEY_LENGTH} visible ASCII characters."
        raise InvalidRequest(message, errors=[{"field": HEADER, "message": message}])
    return key


def fingerprint(request: Request | HttpRequest, body: Any) -> str:
    canonical = json.dumps([request.method, request.path, body], sort_keys=True, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


# Every move runs both statements; written out, they cost a fraction of the ORM's building.
_TABLE = IdempotencyRecord._meta.db_table
_FIND_SQL = (f'SELECT "request_hash", "response_status", "response_body" FROM "{_TABLE}" '
             'WHERE "player_id" = %s AND "key" = %s')
# The columns of a stored response, in the order every insert of one gives them.
RECORD_COLUMNS_SQL = ('"player_id", "key", "request_hash", "response_status", "response_body", '
                      '"created_at"')
_STORE_SQL = f'INSERT INTO "{_TABLE}" ({RECORD_COLUMNS_SQL}) VALUES (%s, %s, %s, %s, %s, %s)'


def _find(player: Player, key: str) -> tuple[str, int, str] | None:
    with connection.cursor() as cursor:
        cursor.execute(_FIND_SQL, [db_value(IdempotencyRecord, "player", player.pk), key])
        return cursor.fetchone()


def _replay(record: tuple[str, int, str], request_hash: str) -> Outcome:
    stored_hash, status, body = record
    if stored_hash != request_hash:
        raise IdempotencyKeyReused(
            "This Idempotency-Key was already used with a different request; use a new key."
        )
    return status, json.loads(body)


class SettleFirst(Exception):
    """Raised by a ``lock`` that finds something due on the row it locked which must be stored
    before the request acts (a turn past its deadline, an invitation past its days): nothing
    is written yet, so the request's transaction rolls back; ``apply()`` then stores it in a
    transaction of its own (whether anything changed), and the request runs again, once. If
    ``apply()`` changed something and ``refusal`` is given, the request is answered with that
    problem instead (the write came too late)."""

    def __init__(self, apply: Callable[[], bool], refusal: Exception | None = None) -> None:
        super().__init__("settle first")
        self.apply = apply
        self.refusal = refusal


def run_idempotently(
    *, player: Player, key: str | None, request_hash: str, lock: Callable[[], Any],
    action: Callable[[Any], Outcome],
) -> Outcome:
    """Run ``action(locked)`` once per key; ``lock()``'s result is passed to ``action``. A lock
    that raises ``SettleFirst`` has what is due applied first (a retry of a stored response
    is replayed as it was, before that)."""
    try:
        return _run(player=player, key=key, request_hash=request_hash, lock=lock,
                    action=action)
    except SettleFirst as due:
        if due.apply() and due.refusal is not None:
            raise due.refusal from None
    return _run(player=player, key=key, request_hash=request_hash, lock=lock, action=action)


def _run(*, player: Player, key: str | None, request_hash: str, lock: Callable[[], Any],
         action: Callable[[Any], Outcome]) -> Outcome:
    try:
        with transaction.atomic():
            due: SettleFirst | None = None
            try:
                locked = lock()
            except SettleFirst as found:
                due, locked = found, None
            if key is not None:
                stored = _find(player, key)
                if stored is not None:
                    return _replay(stored, request_hash)
            if due is not None:
                raise due
            status, body = action(locked)
            if key is not None:
                with connection.cursor() as cursor:
                    cursor.execute(_STORE_SQL, [db_value(IdempotencyRecord, "player", player.pk),
                                                key, request_hash, status,
                                                json.dumps(body),
                                                db_value(IdempotencyRecord, "created_at",
                                                         timezone.now())])
            return status, body
    except IntegrityError:
        # The same key was stored meanwhile for another resource: everything above rolled
        # back; answer as that request's retry would be answered.
        stored = _find(player, key) if key is not None else None
        if stored is None:
            raise
        return _replay(stored, request_hash)


def respond_idempotently(request: Request, action: Callable[[Any], Outcome],
                         lock: Callable[[], Any] = lambda: None) -> Response:
    """The view's response for ``action``, honouring the request's ``Idempotency-Key``."""
    status, body = run_idempotently(
        player=authenticated_player(request), key=key_from(request),
        request_hash=fingerprint(request, request.data), lock=lock, action=action,
    )
    return Response(body, status=status)


PRUNE_BATCH = 5_000  # rows per delete: short statements, no long lock on the table


def records_prune(*, now: datetime | None = None) -> int:
    """Delete stored responses older than the retry window; returns how many. In batches, by
    the ``created_at`` index, so a backlog of days is cleared without one huge transaction."""
    cutoff = (now or timezone.now()) - timedelta(hours=settings.IDEMPOTENCY_KEY_HOURS)
    deleted = 0
    while True:
        batch = list(IdempotencyRecord.objects.filter(created_at__lt=cutoff)
                     .order_by("created_at").values_list("pk", flat=True)[:PRUNE_BATCH])
        if not batch:
            return deleted
        deleted += IdempotencyRecord.objects.filter(pk__in=batch).delete()[0]


# The header as the schema documents it on every write that takes it.
IDEMPOTENCY_PARAMETER = OpenApiParameter(
    HEADER, location=OpenApiParameter.HEADER, required=False,
    type={"type": "string", "pattern": KEY_PATTERN},
    description="Any unique string per intended action. A retry with the same key and body "
                "returns the first response instead of acting twice.",
)
