"""Storing a player's account events, and telling their open streams.

A game calls ``account_events_add`` with the events its write caused, inside the transaction
that stores the write: the events are numbered on each player's counter (``models``), stored
with it, and once it commits each player's streams are told on the channel layer, the
events in the notice (``notice_of``), as ``selectors.account_events_after`` gives them. A
stream that finds a gap (a notice lost, the embedded default's other processes) reads the
table instead.

A game whose write path is a single hand-written statement (Spite & Malice's action fast
path) stores its events in that statement instead (``counter_sql``/``event_columns``) and
hands ``notice_of`` of what it stored to the loop with its other notices.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from server.api.formats import iso_datetime
from server.api.notices import send
from server.streams import watch
from server.streams.models import AccountCounter, AccountEvent

# The kinds of event a stream carries; each names its game and match in ``game_name``/``match``.
KINDS = ("match_started", "your_turn", "invitation_received", "invitation_cancelled",
         "invitation_declined", "joined", "match_over")
# More events than this in one write go as a bare notice: the streams read the table.
EVENTS_PER_NOTICE = 100


@dataclass
class Draft:
    """An account event to store: for ``player_id``, of ``kind``, with ``payload`` (its
    ``game``, ``match`` and the kind's own fields)."""

    player_id: Any  # the player's primary key, as a game's row holds it (nullable there)
    kind: str
    payload: dict = field(default_factory=dict)


def group_of(player_id: watch.PlayerId) -> str:
    """The channel-layer group of a player's account streams."""
    return f"acct-{uuid.UUID(str(player_id)).hex}"


# Members a kind gained after events of it were stored: what those earlier events say of them.
ADDED_MEMBERS = {"your_turn": {"event": None, "table": None}}


def event_output(number: int | None, kind: str, payload: dict, created_at: datetime) -> dict:
    """An event as the stream gives it: number, kind, created_at, then the payload's fields
    (with the members its kind gained since, null on an event stored before). ``number``
    None: an entry of the snapshot of active matches (``active_matches``), stored nowhere."""
    return {"number": number, "kind": kind, "created_at": iso_datetime(created_at),
            **ADDED_MEMBERS.get(kind, {}), **payload}


# Each game's source of a player's matches being played: ``source(player_id)`` gives a
# ``(kind, payload, created_at)`` for each, as its ``match_started`` event would be.
_active_sources: list[Callable[[watch.PlayerId], list[tuple[str, dict, datetime]]]] = []


def active_source_register(source: Callable[[watch.PlayerId], list[tuple[str, dict, datetime]]]
                           ) -> None:
    """A game registers its source of active matches (from its app's ``ready``)."""
    if source not in _active_sources:
        _active_sources.append(source)


def active_matches(player_id: watch.PlayerId) -> list[dict]:
    """The snapshot a new connection of ``player_id``'s account stream (the socket, NDJSON,
    SSE) sends before its first event: one unnumbered ``match_started`` per match being played,
    of every game, the oldest first (lichess's ``gameStart`` for each game on connect)."""
    entries = [entry for source in _active_sources for entry in source(player_id)]
    entries.sort(key=lambda entry: entry[2])
    return [event_output(None, kind, payload, created_at)
            for kind, payload, created_at in entries]


def notice_of(player_id: watch.PlayerId, events: list[dict]) -> tuple[str, dict]:
    """The ``(group, message)`` that tells ``player_id``'s streams of ``events`` (outputs, in
    number order)."""
    message = {"type": "account.events", "first": events[0]["number"],
               "last": events[-1]["number"]}
    if len(events) <= EVENTS_PER_NOTICE:
        message["events"] = events
    return group_of(player_id), message


_COUNT_SQL = (
    f'INSERT INTO "{AccountCounter._meta.db_table}" ("player_id", "last") '
    'SELECT * FROM unnest(%s::uuid[], %s::bigint[]) '
    f'ON CONFLICT ("player_id") DO UPDATE SET "last" = "{AccountCounter._meta.db_table}"."last" '
    '+ EXCLUDED."last" RETURNING "player_id", "last"'
)


def account_events_add(drafts: list[Draft], *, now: datetime | None = None,
                       publish: bool = True) -> list[AccountEvent]:
    """Store ``drafts`` in the current transaction, numbered on each player's counter in the
    order given (one statement for the numbers, the players' counters taken in id order so two
    writers never deadlock, one for the rows), and tell each player's streams once it commits
    (unless ``publish`` is False: the caller sends ``notices_of`` of them itself)."""
    if not drafts:
        return []
    now = now or timezone.now()
    counts: dict[str, int] = defaultdict(int)
    for draft in drafts:
        counts[str(draft.player_id)] += 1
    players = sorted(counts)
    last = _counters_advance(players, counts)
    following = {player: last[player] - counts[player] for player in players}
    rows = []
    for draft in drafts:
        player = str(draft.player_id)
        following[player] += 1
        rows.append(AccountEvent(player_id=draft.player_id, number=following[player],
                                 kind=draft.kind, payload=draft.payload, created_at=now))
    AccountEvent.objects.bulk_create(rows)
    if publish:
        notices = notices_of(rows)
        transaction.on_commit(lambda: notices_send(notices))
    return rows


def _counters_advance(players: list[str], counts: dict[str, int]) -> dict[str, int]:
    """Add ``counts`` to the players' counters (in id order) and return each one's new last
    number. PostgreSQL does it in one upsert; elsewhere (SQLite, the embedded default, whose
    writes hold the whole database's lock until the transaction ends) row by row."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_COUNT_SQL, [players, [counts[player] for player in players]])
            return {str(player): number for player, number in cursor.fetchall()}
    last = {}
    for player in players:
        counter, _ = AccountCounter.objects.get_or_create(player_id=uuid.UUID(player))
        AccountCounter.objects.filter(pk=counter.pk).update(last=F("last") + counts[player])
        last[player] = AccountCounter.objects.values_list("last", flat=True).get(pk=counter.pk)
    return last


def notices_send(notices: list[tuple[str, dict]]) -> None:
    """Tell the players' streams of their new events: the latest numbers kept in the cache
    (what an idle stream compares with its own), and the notices on the channel layer."""
    watch.latest_keep(notices)
    send(*notices)


def notices_of(rows: list[AccountEvent]) -> list[tuple[str, dict]]:
    """One notice per player of the stored ``rows``."""
    by_player: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_player[str(row.player_id)].append(
            event_output(row.number, row.kind, row.payload, row.created_at))
    return [notice_of(player, events) for player, events in by_player.items()]


def account_ctes(source: str) -> str:
    """Two common table expressions for a game's single write statement that store one account
    event when the CTE ``source`` holds a row and the flag is true: ``counted`` takes the next
    number on the player's counter (and returns it), ``noticed`` stores the event. Their
    parameters, in order: the player's id, the flag, the kind, the payload (JSON text) and
    created_at."""
    counter, event = AccountCounter._meta.db_table, AccountEvent._meta.db_table
    return (
        f'counted AS (INSERT INTO "{counter}" ("player_id", "last") '
        f'SELECT %s::uuid, 1 FROM {source} WHERE %s::boolean '
        f'ON CONFLICT ("player_id") DO UPDATE SET "last" = "{counter}"."last" + 1 '
        'RETURNING "player_id", "last"), '
        f'noticed AS (INSERT INTO "{event}" ("player_id", "number", "kind", "payload", '
        '"created_at") SELECT counted."player_id", counted."last", %s::text, %s::jsonb, '
        '%s::timestamptz FROM counted)'
    )
