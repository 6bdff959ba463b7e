"""Presence's keys in the shared cache (a memory cache of the test's own): a seat is connected
while any socket of it holds a slot, the bot's seat always, and a cache that fails shows people
away without failing anything."""

from __future__ import annotations

import os
import uuid

import pytest
from django.core.cache import cache

from server.spitemalice.live import presence


@pytest.fixture(autouse=True)
def _memory_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "presence-tests"}}
    cache.clear()


def test_a_seat_is_connected_while_any_of_its_sockets_holds_a_slot():
    match_id = uuid.uuid4()
    assert presence.seats_connected(match_id, bot_seat=None) == [False, False]
    first = presence.arrive(match_id, 1, "tab-1")
    second = presence.arrive(match_id, 1, "tab-2")
    assert first != second and None not in (first, second)
    assert presence.seats_connected(match_id, bot_seat=None) == [False, True]
    presence.leave(match_id, 1, "tab-1", first)
    assert presence.seats_connected(match_id, bot_seat=None) == [False, True]
    # Leaving a slot another socket holds now (this one's expired and was taken) frees nothing.
    presence.leave(match_id, 1, "tab-1", second)
    assert presence.seats_connected(match_id, bot_seat=None) == [False, True]
    presence.leave(match_id, 1, "tab-2", second)
    assert presence.seats_connected(match_id, bot_seat=None) == [False, False]


def test_a_seat_holds_at_most_its_slots_and_one_more_is_full(settings):
    settings.LIVE_SOCKETS_PER_SEAT = 3
    match_id = uuid.uuid4()
    slots = [presence.arrive(match_id, 0, f"tab-{n}") for n in range(3)]
    assert sorted(slots) == [0, 1, 2]
    assert presence.arrive(match_id, 0, "one-too-many") == presence.FULL
    assert presence.arrive(match_id, 1, "the other seat") == 0  # each seat its own slots
    presence.leave(match_id, 0, "tab-0", slots[0])
    assert presence.arrive(match_id, 0, "now-there-is-room") == slots[0]


def test_a_socket_admitted_without_a_slot_keeps_its_place_when_all_are_taken(settings):
    # Admitted while the cache was down: its heartbeats take a slot when one is free, and
    # never close it when none is.
    settings.LIVE_SOCKETS_PER_SEAT = 2
    match_id = uuid.uuid4()
    taken = [presence.arrive(match_id, 0, f"tab-{n}") for n in range(2)]
    assert presence.heartbeat(match_id, 0, "admitted-earlier", None) is None
    presence.leave(match_id, 0, "tab-1", taken[1])
    assert presence.heartbeat(match_id, 0, "admitted-earlier", None) == taken[1]


def test_a_heartbeat_keeps_the_slot_and_an_expired_slot_is_taken_again():
    match_id = uuid.uuid4()
    slot = presence.arrive(match_id, 0, "tab")
    assert presence.heartbeat(match_id, 0, "tab", slot) == slot
    cache.delete(presence._key(match_id, 0, slot))  # as its expiry would
    assert presence.seats_connected(match_id, bot_seat=None) == [False, False]
    assert presence.heartbeat(match_id, 0, "tab", slot) is not None
    assert presence.seats_connected(match_id, bot_seat=None) == [True, False]


def test_the_bots_seat_is_always_connected(make_player):
    from server.spitemalice import services

    player, _ = make_player()
    match = services.match_start_bot(player=player, level="easy", target=1)
    assert presence.seats_connected(match) == [False, True]
    assert presence.seats_connected(match.pk) == [False, True]  # its bot seat looked up


def test_a_cache_that_fails_shows_people_away_and_fails_nothing(settings, caplog):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": "redis://127.0.0.1:1/0",
                                   "OPTIONS": {"socket_connect_timeout": 0.2}}}
    match_id = uuid.uuid4()
    assert presence.arrive(match_id, 0, "tab") is None
    assert presence.heartbeat(match_id, 0, "tab", 2) == 2
    presence.leave(match_id, 0, "tab", 2)
    assert presence.seats_connected(match_id, bot_seat=1) == [False, True]
    assert "presence" in caplog.text


def test_one_beat_for_many_sockets_keeps_their_slots_and_says_who_is_at_each_table():
    first, second = uuid.uuid4(), uuid.uuid4()
    ada = presence.Beating(first, 0, "ada", presence.arrive(first, 0, "ada"))
    bob = presence.Beating(first, 1, "bob", presence.arrive(first, 1, "bob"))
    cy = presence.Beating(second, 1, "cy", presence.arrive(second, 1, "cy"))
    beats = presence.beat_all([ada, bob, cy])
    assert {socket: slot for socket, (slot, _) in beats.items()} == {
        ada: ada.slot, bob: bob.slot, cy: cy.slot}
    assert presence.seats_from(presence.slot_keys(first), beats[ada][1], None) == [True, True]
    assert presence.seats_from(presence.slot_keys(second), beats[cy][1], None) == [False, True]
    assert beats[ada][1] == beats[bob][1]  # one table, one answer


def test_a_beat_retakes_an_expired_slot_and_never_renews_one_another_socket_holds():
    match_id = uuid.uuid4()
    slot = presence.arrive(match_id, 0, "tab")
    cache.delete(presence._key(match_id, 0, slot))  # as its expiry would
    assert presence.arrive(match_id, 0, "other tab") == slot  # taken by another socket since
    ((kept, taken),) = presence.beat_all([presence.Beating(match_id, 0, "tab", slot)]).values()
    assert kept not in (None, slot)
    assert cache.get(presence._key(match_id, 0, slot)) == "other tab"
    assert cache.get(presence._key(match_id, 0, kept)) == "tab"
    assert taken == {presence._key(match_id, 0, slot), presence._key(match_id, 0, kept)}


def test_a_beat_with_the_cache_failing_keeps_each_slot_and_shows_people_away(settings, caplog):
    settings.CACHES = {"default": {"BACKEND": "server.core.redis_cache.RedisCache",
                                   "LOCATION": "redis://127.0.0.1:1/0",
                                   "OPTIONS": {"socket_connect_timeout": 0.2}}}
    match_id = uuid.uuid4()
    socket = presence.Beating(match_id, 0, "tab", 2)
    assert presence.beat_all([socket]) == {socket: (2, None)}
    assert presence.seats_from(presence.slot_keys(match_id), None, 1) == [False, True]
    assert "presence" in caplog.text


def test_redis_renews_every_slot_held_in_one_pipelined_touch(settings):
    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
    settings.CACHES = {"default": {"BACKEND": "server.core.redis_cache.RedisCache",
                                   "LOCATION": url, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}}
    match_id = uuid.uuid4()
    sockets = [presence.Beating(match_id, seat, f"tab-{seat}",
                                presence.arrive(match_id, seat, f"tab-{seat}"))
               for seat in (0, 1)]
    keys = [presence._key(match_id, socket.seat, socket.slot) for socket in sockets]
    for key in keys:
        cache.touch(key, 1)  # about to expire
    client = cache._cache.get_client(write=True)
    assert [client.ttl(cache.make_key(key)) for key in keys] == [1, 1]
    assert cache.touch_many([*keys, "no-such-key"], presence.TTL_SECONDS) == set(keys)
    assert all(client.ttl(cache.make_key(key)) > 1 for key in keys)
    beats = presence.beat_all(sockets)
    assert {slot for slot, _ in beats.values()} == {socket.slot for socket in sockets}
    assert presence.seats_from(presence.slot_keys(match_id), beats[sockets[0]][1],
                               None) == [True, True]
    cache.clear()
