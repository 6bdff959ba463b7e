"""The account sockets' periodic checks made once for all of a process's sockets: the players'
latest event numbers in one cache call, and every stream slot held kept alive in one write."""

from __future__ import annotations

import contextlib
import uuid
from unittest import mock

from django.core.cache import cache, caches
from redis import Redis

from server.streams import watch
from server.streams.services import group_of


def test_the_latest_numbers_of_many_players_are_read_at_once(shared_cache):
    told, untold = uuid.uuid4(), uuid.uuid4()
    watch.latest_keep([(group_of(told), {"type": watch.NOTICE_TYPE, "last": 7})])
    assert watch.latest_known_of({told, untold}) == {told: 7}  # untold: the cache can't say
    assert watch.latest_known_of(set()) == {}


def test_a_latest_number_only_ever_rises_and_takes_one_round_trip(shared_cache):
    player, other = uuid.uuid4(), uuid.uuid4()
    cache.set(watch._latest_key(group_of(other)), "not a number")
    watch.latest_keep([(group_of(player), {"type": watch.NOTICE_TYPE, "last": 6}),
                       (group_of(player), {"type": watch.NOTICE_TYPE, "last": 5}),
                       (group_of(other), {"type": watch.NOTICE_TYPE, "last": 3})])
    assert watch.latest_known_of({player, other}) == {player: 6, other: 3}

    backend = caches["default"]
    calls = (mock.patch.object(type(backend._cache.get_client(write=True)), "execute_command",
                               autospec=True, side_effect=Redis.execute_command)
             if shared_cache == "redis" else contextlib.nullcontext())
    with calls as commands:
        watch.latest_keep([(group_of(player), {"type": watch.NOTICE_TYPE, "last": 4}),
                           (group_of(other), {"type": watch.NOTICE_TYPE, "last": 9})])
    assert watch.latest_known_of({player, other}) == {player: 6, other: 9}
    if commands is not None:
        assert [call.args[1] for call in commands.call_args_list] == ["EVALSHA"]
        ttl = backend._cache.get_client().ttl(backend.make_key(watch._latest_key(group_of(other))))
        assert watch.LATEST_SECONDS - 60 < ttl <= watch.LATEST_SECONDS


def test_the_latest_numbers_are_unknown_when_the_cache_fails(settings):
    settings.CACHES = {"default": {"BACKEND": "server.core.redis_cache.RedisCache",
                                   "LOCATION": "redis://127.0.0.1:1/0",
                                   "OPTIONS": {"socket_connect_timeout": 0.2}}}
    assert watch.latest_known_of({uuid.uuid4()}) == {}


def test_every_slot_held_is_kept_and_a_stream_without_one_takes_one(shared_cache, settings):
    settings.STREAMS_PER_PLAYER = 2
    player = uuid.uuid4()
    first = watch.Holding(player, "first", watch.slot_take(player, "first"))
    cache.delete(watch._slot_key(player, first.slot))  # as its expiry would
    late = watch.Holding(player, "late", None)  # came while the cache was down
    kept = watch.slot_keep_all([first, late])
    assert kept[first] == first.slot
    assert kept[late] is not None and kept[late] != first.slot
    assert cache.get(watch._slot_key(player, first.slot)) == "first"
    assert cache.get(watch._slot_key(player, kept[late])) == "late"
    assert watch.slot_take(player, "one too many") == watch.FULL
