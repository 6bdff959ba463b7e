"""The checks every open socket of a process makes against the database, made as one query
per process per interval for all of them, however many sockets are open.

An idle socket asks two things of the database from time to time: whether its token is still
alive (signed out or revoked: the socket is closed) and, as a fallback for a notice that was
lost and a cache that could not say, whether its feed has moved on. Asked by each socket for
itself, 300 idle sockets cost the database tens of queries a second; here each kind of check
is a ``Sweep`` that every ``seconds()`` asks one query for the keys of every socket registered
with it in this process, then hands each socket its answer. The sockets themselves keep their
cheap checks (the cache's latest event number) and read their feed only when it is behind.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Hashable, Iterable, Mapping
from typing import Any, TypeVar

from channels.db import database_sync_to_async
from django.core.cache import cache

logger = logging.getLogger(__name__)

Answer = Callable[[Any], Awaitable[None]]
Owner = TypeVar("Owner", bound=Hashable)


def numbers_cached(keys: Mapping[str, Owner]) -> dict[Owner, int]:
    """The latest event numbers the shared cache keeps under ``keys`` (``{cache key: whose}``),
    in one call: ``{whose: number}`` for those it can say, none when it failed. What the
    sockets' cheap checks compare, for every socket of a process at once."""
    try:
        found = cache.get_many(list(keys))
    except Exception:  # noqa: BLE001 - any cache failure: the sockets read their feeds instead
        return {}
    return {keys[key]: latest for key, latest in found.items() if isinstance(latest, int)}



class Sweep:
    """One periodic query for many sockets: ``query(keys)`` returns ``{key: value}`` (a key
    it does not return is answered None), run in a thread every ``seconds()`` while any
    socket is registered (``add``); each socket's ``answer(value)`` is then awaited on the
    loop, one after the other."""

    def __init__(self, name: str, seconds: Callable[[], float],
                 query: Callable[[set], dict]) -> None:
        self.name = name
        self.seconds = seconds
        self._query = database_sync_to_async(query, thread_sensitive=False)
        self._entries: dict[object, tuple[Hashable, Answer]] = {}
        self._task: asyncio.Task | None = None

    def add(self, owner: object, key: Hashable, answer: Answer) -> None:
        """Check ``key`` for ``owner`` (a socket) from now on, on the running loop."""
        self._entries[owner] = (key, answer)
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done() or self._task.get_loop() is not loop:
            self._task = loop.create_task(self._run(), name=f"sweep {self.name}")

    def remove(self, owner: object) -> None:
        self._entries.pop(owner, None)

    def keys(self) -> Iterable[Hashable]:
        return {key for key, _ in self._entries.values()}

    async def run_once(self) -> int:
        """One pass now: how many sockets were answered."""
        entries = dict(self._entries)
        if not entries:
            return 0
        try:
            answers = await self._query({key for key, _ in entries.values()})
        except Exception:  # the database failed: every socket goes on, and is asked again
            logger.warning("sweep %s failed; tried again in %.0f s", self.name, self.seconds(),
                           exc_info=True)
            return 0
        for owner, (key, answer) in entries.items():
            if owner not in self._entries:
                continue  # closed meanwhile
            try:
                await answer(answers.get(key))
            except Exception:
                logger.exception("sweep %s: a socket's answer failed", self.name)
        return len(entries)

    async def _run(self) -> None:
        while self._entries:
            await asyncio.sleep(self.seconds())
            await self.run_once()
