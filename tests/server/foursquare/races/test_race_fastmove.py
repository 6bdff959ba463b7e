"""A race game's moves through the fast path answer byte for byte as the full view does; the
fast path stores them in its one statement and tells the race's sockets, and hands the
finishing move (which finishes the race) and the clock's refusals to the full view."""

from __future__ import annotations

from unittest import mock

import pytest

from server.foursquare import services
from server.foursquare.models import Move, Race
from server.foursquare.races import live
from tests.server.conftest import assert_problem
from tests.server.foursquare.races.support import (
    create,
    fixed_deal,
    game_of,
    join,
    move,
    open_now,
    time_up,
    url,
)
from tests.server.foursquare.support import comparable, play_out

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]

# What differs between two games on one deal, in two races, whichever path answered.
OWN_FIELDS = ("id", "created_at", "finished_at", "race", "deal")


def _race_game(make_player):
    (_, host), (_, guest) = make_player(), make_player()
    race = create(host)
    join(guest, race)
    open_now(race["id"])
    return host, race, game_of(host, race)


def test_a_race_game_gets_the_same_answers_on_both_paths(settings, make_player, monkeypatch):
    fixed_deal(monkeypatch)
    api, _race, game = _race_game(make_player)
    chosen: list = []

    def first_then_record(g):
        at = tuple(g["legal_moves"][len(chosen) % len(g["legal_moves"])])
        chosen.append(at)
        return at

    with mock.patch.object(services, "game_lock", wraps=services.game_lock) as full_view, \
            mock.patch.object(live, "progress_published", wraps=live.progress_published) as told:
        fast = play_out(api, game, first_then_record)
    # Only the finishing move took the full view (the race's finish is recorded with it).
    assert full_view.call_count == 1
    assert told.call_count == len(fast)  # every move told the race's sockets

    settings.FOURSQUARE_FAST_MOVES = False
    api2, _race2, game2 = _race_game(make_player)
    replayed = iter(chosen)
    full = play_out(api2, game2, lambda _g: next(replayed))

    assert [comparable(r, OWN_FIELDS) for r in fast] == [comparable(r, OWN_FIELDS) for r in full]
    assert all(r.json()["deal"] is None for r in fast[:-1])
    stored = [list(Move.objects.filter(game_id=g["id"]).order_by("number")
                   .values_list("number", "row", "col", "card")) for g in (game, game2)]
    assert stored[0] == stored[1] and len(stored[0]) == len(fast)


def test_the_fast_path_hands_the_clocks_refusals_to_the_full_view(make_player):
    (_, host), (_, guest) = make_player(), make_player()
    race = create(host)
    join(guest, race)
    game = game_of(host, race)
    with mock.patch.object(services, "game_lock", wraps=services.game_lock) as full_view:
        assert_problem(move(host, game), 409, "race_not_started")
        open_now(race["id"])
        time_up(race["id"])
        assert_problem(move(host, game), 409, "out_of_time")
    assert full_view.call_count == 2
    assert Move.objects.filter(game_id=game["id"]).count() == 0


def test_a_move_stored_after_the_close_is_refused_by_the_statements_condition(make_player):
    """The fast path checked the clock, then the race closed before its statement: the
    statement stores nothing (the game is no longer playing) and the full view refuses."""
    (_, host), (_, guest) = make_player(), make_player()
    race = create(host)
    join(guest, race)
    open_now(race["id"])
    game = game_of(host, race)
    real_store = services.move_store

    def close_first(**kwargs):
        time_up(race["id"])
        from server.foursquare.races import services as races

        races.race_close_if_due(race["id"])
        return real_store(**kwargs)

    with mock.patch.object(services, "move_store", side_effect=close_first):
        response = move(host, game)
    assert_problem(response, 409, "out_of_time")
    assert Move.objects.filter(game_id=game["id"]).count() == 0
    assert Race.objects.get(pk=race["id"]).status == "finished"
    assert host.get(url(race)).json()["status"] == "finished"
