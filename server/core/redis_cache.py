"""Django's Redis cache, with one client per connection pool instead of one per call.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` for every cache call;
redis-py's constructor sets up its command callbacks each time, which costs about half a
millisecond of CPU - more than the command's round trip. Every request of the API makes a
few cache calls (the rate limits, the live sockets' presence and event numbers), so that was
a large share of a move's CPU. A ``redis.Redis`` over a connection pool is safe to share
between threads (each command borrows a connection from the pool), so one per pool is kept.
Configured like Django's: ``BACKEND = "server.core.redis_cache.RedisCache"``.

It adds two calls and changes one:

- ``keep_highest``: numbers that only ever rise (the streams' latest event numbers) are raised
  in one round trip, where a read and a write were two.
- ``touch_many``: the live sockets' presence renews every slot of a process in one round trip
  rather than one a socket.
- ``clear`` deletes this cache's own keys (those under its ``KEY_PREFIX``), where Django's
  empties the whole Redis database (``FLUSHDB``): whatever else shares the database (another
  cache, another process's keys, another test worker's) keeps its keys.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.cache.backends import redis as django_redis
from django.core.cache.backends.base import default_key_func
from redis import Redis


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Redis] = {}

    def get_client(self, key: str | bytes | memoryview | None = None, *,
                   write: bool = False) -> Redis:
        # django-stubs leave out the client's private members this builds on (Django's own
        # get_client calls the same two).
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients.setdefault(
                id(pool), self._client(connection_pool=pool))  # type: ignore[attr-defined]
        return client


# Each key (KEYS[i]) to ARGV[i + 1] unless it holds a higher number; ARGV[1]: seconds to keep
# it (0: for ever).
_KEEP_HIGHEST = """
local seconds = tonumber(ARGV[1])
for index, key in ipairs(KEYS) do
    local value = tonumber(ARGV[index + 1])
    local kept = tonumber(redis.call('GET', key))
    if kept == nil or kept < value then
        if seconds > 0 then
            redis.call('SET', key, value, 'EX', seconds)
        else
            redis.call('SET', key, value)
        end
    end
end
return 0
"""


class RedisCache(django_redis.RedisCache):
    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
        self._scripts: dict[int, Any] = {}  # {id of a client: its script object}

    def keep_highest(self, values: dict[str, int], timeout: float | None) -> None:
        """Set each key to its value unless it holds a higher number already, in one round
        trip (a script: no write of another process in between); a key that holds no number
        is set. Stored as Django's serializer stores an int, so ``get`` reads an int."""
        if not values:
            return
        seconds = self.get_backend_timeout(timeout)
        keys = [self.make_and_validate_key(key) for key in values]
        client = self._cache.get_client(write=True)  # type: ignore[attr-defined]  # as above
        script = self._scripts.get(id(client))
        if script is None:
            script = self._scripts.setdefault(id(client), client.register_script(_KEEP_HIGHEST))
        script(keys=keys, args=[0 if seconds is None else int(seconds), *values.values()])

    def touch_many(self, keys: Iterable[str], timeout: float | None) -> set[str]:
        """``touch`` for many keys in one pipelined round trip: the keys that were there."""
        keys = list(keys)
        if not keys:
            return set()
        seconds = self.get_backend_timeout(timeout)
        client = self._cache.get_client(write=True)  # type: ignore[attr-defined]  # as above
        with client.pipeline(transaction=False) as pipeline:
            for key in keys:
                made = self.make_and_validate_key(key)
                if seconds is None:
                    pipeline.persist(made)
                else:
                    pipeline.expire(made, seconds)
            done = pipeline.execute()
        return {key for key, touched in zip(keys, done, strict=True) if touched}

    def clear(self) -> None:
        """Delete every key of this cache, of every version, and no other (Django's default
        key function: ``<KEY_PREFIX>:<version>:<key>``); with a key function of its own,
        what Django's does (``FLUSHDB``)."""
        if self.key_func is not default_key_func:
            super().clear()
            return
        client = self._cache.get_client(write=True)  # type: ignore[attr-defined]  # as above
        # The prefix's own glob characters are escaped: it is matched as it is written.
        pattern = "".join(f"\\{char}" if char in "*?[]\\" else char
                          for char in self.key_prefix) + ":*"
        batch: list[bytes] = []
        for key in client.scan_iter(match=pattern, count=500):
            batch.append(key)
            if len(batch) == 500:
                client.unlink(*batch)
                batch.clear()
        if batch:
            client.unlink(*batch)
