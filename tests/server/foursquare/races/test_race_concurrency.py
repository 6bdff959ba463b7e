"""Races decided by the database: threads released together on PostgreSQL."""

from __future__ import annotations

import pytest

from server.foursquare.models import Game, Race, Racer
from tests.server.concurrently import race as at_once
from tests.server.foursquare.races.support import (
    create,
    fixed_deal,
    game_of,
    join,
    move,
    open_now,
    play_moves,
    play_out,
    url,
)

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]


def test_joins_at_once_fill_the_seats_once_and_the_rest_hear_it_is_full(make_player):
    _, host = make_player()
    joiners = [make_player()[1] for _ in range(5)]
    race = create(host, players=3)

    responses = at_once(lambda i: joiners[i].post("races/join", {"code": race["code"]}),
                        count=len(joiners))

    assert sorted(r.status_code for r in responses) == [200, 200, 409, 409, 409]
    assert {r.json()["code"] for r in responses if r.status_code == 409} == {"race_full"}
    assert Racer.objects.filter(race_id=race["id"]).count() == 3
    assert Game.objects.filter(race_id=race["id"]).count() == 3
    assert Race.objects.get(pk=race["id"]).status == "countdown"


def test_the_last_two_games_ending_at_once_finish_the_race_once(make_player, monkeypatch):
    fixed_deal(monkeypatch)
    (_, probe), (_, ada), (_, bo) = make_player(), make_player(), make_player()
    race = create(probe, players=3)
    join(ada, race)
    join(bo, race)
    open_now(race["id"])
    # One deal, one way of playing: the probe learns how many moves the game lasts.
    length = len(play_out(probe, game_of(probe, race)))
    games = [play_moves(api, game_of(api, race), length - 1) for api in (ada, bo)]
    assert all(g["status"] == "playing" for g in games)

    responses = at_once(lambda i: move((ada, bo)[i], games[i]), count=2)

    assert [r.status_code for r in responses] == [200, 200]
    # Finished by one of the two moves, in its transaction (no read has closed it).
    assert Race.objects.get(pk=race["id"]).status == "finished"
    assert sorted(Racer.objects.filter(race_id=race["id"])
                  .values_list("place", flat=True)) == [1, 2, 3]
    finished = probe.get(url(race)).json()
    assert finished["status"] == "finished"
    assert sorted(r["place"] for r in finished["racers"]) == [1, 2, 3]
