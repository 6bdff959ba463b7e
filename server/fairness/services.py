"""Writes on the fairness log: an entry appended to the chain, signed; a daily's commitment; a
match's or race's server seed drawn and committed (docs/FAIRNESS.md).

Entries are appended one at a time under a lock (PostgreSQL's advisory lock; SQLite's
transactions are serialized already), so each links to the one before it. A subject is
committed once: committing it again with the same commitment returns the entry made, with
another one it raises ``CommitmentConflict`` (a published commitment is never rewritten).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import date
from typing import overload

from django.db import connection, transaction
from django.utils import timezone

from fairness import GENESIS, Entry, daily_commitment, entry_body, entry_hash, format_time
from fairness import server_seed_commitment as server_commitment
from server.core.queries import one_or_none
from server.fairness import signing
from server.fairness.models import LogEntry, SeedCommitment

_APPEND_LOCK = 0x6661_6972  # the advisory lock's key ("fair")


class CommitmentConflict(RuntimeError):
    """A subject already committed to something else."""


def _lock_the_head() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_APPEND_LOCK])


def entry_append(*, kind: str, game: str, subject: str, commitment: str) -> LogEntry:
    """The entry committing ``subject`` to ``commitment``, appended and signed (or the one
    made before, if it says the same)."""
    # A transaction of its own when called alone (the advisory lock lasts until it ends);
    # inside a caller's, no savepoint: nothing here is caught and carried on from, so a
    # failure rolls back with the caller's block (two round trips a match saved).
    with transaction.atomic(savepoint=False):
        _lock_the_head()
        made = one_or_none(LogEntry.objects.filter(kind=kind, game=game, subject=subject))
        if made is not None:
            if made.commitment != commitment:
                raise CommitmentConflict(f"{kind} {game} {subject} is committed already")
            return made
        # The head's two columns only: an ordered read compiles its ORDER BY against each one.
        head = LogEntry.objects.order_by("-seq").values_list("seq", "hash").first()
        now = timezone.now()
        entry = Entry(seq=1 if head is None else head[0] + 1,
                      previous=GENESIS if head is None else head[1],
                      key_id=signing.current_key_id(), kind=kind, game=game, subject=subject,
                      commitment=commitment, committed_at=format_time(now))
        return LogEntry.objects.create(
            seq=entry.seq, previous=entry.previous, key_id=entry.key_id, kind=kind, game=game,
            subject=subject, commitment=commitment, committed_at=now, hash=entry_hash(entry),
            signature=signing.sign(entry_body(entry)))


def daily_commit(*, game: str, day: date, attempt: int, seed: str) -> LogEntry:
    """Commit to the deal of ``game``'s daily of ``day`` (once its attempt is final). The seed
    is kept with the commitment, to be revealed as committed even if the secret that made it
    is rotated meanwhile."""
    with transaction.atomic(savepoint=False):  # as entry_append's
        entry = entry_append(kind=LogEntry.Kind.DAILY, game=game, subject=day.isoformat(),
                             commitment=daily_commitment(game, day, attempt, seed))
        SeedCommitment.objects.get_or_create(entry=entry, defaults={"server_seed": seed})
        return entry


def server_seed_draw() -> str:
    """A fresh server seed: 32 random bytes, hex."""
    return secrets.token_bytes(32).hex()


def server_seed_commit(*, game: str, subject: str, server_seed: str) -> LogEntry:
    """Commit to the server seed of a match (``match/<id>``) or race (``race/<id>``)."""
    return entry_append(kind=LogEntry.Kind.SERVER_SEED, game=game, subject=subject,
                        commitment=server_commitment(game, subject, server_seed))


def client_seed_or_random(value: str | None) -> str:
    """A player's client seed as sent (checked by the input), or 16 random bytes in hex."""
    return value if value is not None else secrets.token_hex(16)


def seeds_commit(*, game: str, subject: str,
                 client_seeds: Sequence[str | None] | Sequence[list[str]]) -> SeedCommitment:
    """A fresh server seed for ``subject`` (a match or race being created), committed in the
    log before any card is dealt, with the client seeds known so far (``None`` where a seat
    has given none yet, or never will: the bot's; or, while a game's seats are not yet known,
    [player id, seed] pairs in joining order)."""
    server_seed = server_seed_draw()
    with transaction.atomic(savepoint=False):  # as entry_append's
        entry = server_seed_commit(game=game, subject=subject, server_seed=server_seed)
        return SeedCommitment.objects.create(entry=entry, server_seed=server_seed,
                                             client_seeds=list(client_seeds))


def seeds_of(*, game: str, subject: str, lock: bool = False) -> SeedCommitment | None:
    rows = SeedCommitment.objects.select_related("entry")
    if lock:
        rows = rows.select_for_update()
    return one_or_none(rows.filter(entry__kind=LogEntry.Kind.SERVER_SEED, entry__game=game,
                                   entry__subject=subject))


def client_seed_set(*, seeds: SeedCommitment, seat: int, client_seed: str | None) -> None:
    """Seat ``seat``'s client seed (random if it sent none), before the deal."""
    values = list(seeds.client_seeds)
    values += [None] * (seat + 1 - len(values))
    values[seat] = client_seed_or_random(client_seed)
    seeds.client_seeds = values
    seeds.save(update_fields=["client_seeds"])


@overload
def seeds_output(seeds: SeedCommitment, *, revealed: bool) -> dict: ...
@overload
def seeds_output(seeds: None, *, revealed: bool) -> None: ...
@overload
def seeds_output(seeds: SeedCommitment | None, *, revealed: bool) -> dict | None: ...
def seeds_output(seeds: SeedCommitment | None, *, revealed: bool) -> dict | None:
    """What a match's or race's state shows of its fairness: the commitment always, the seeds
    once ``revealed``."""
    if seeds is None:
        return None
    entry = seeds.entry
    out: dict = {"commitment": entry.commitment, "committed_at": format_time(entry.committed_at),
                 "seq": entry.seq, "subject": entry.subject}
    if revealed:
        out["server_seed"] = seeds.server_seed
        out["client_seeds"] = list(seeds.client_seeds)
    return out
