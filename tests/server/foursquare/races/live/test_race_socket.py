"""The race socket, ``/ws/races/<id>``, through the real server (gunicorn, 2 uvicorn workers),
PostgreSQL and Redis, with real clients: who gets in, the race as REST gives it, the race again
as it changes, every racer's progress (counts only while you play, boards once you may
watch), the race's clock at its end, and an audit that no card of another racer's game reaches
a racer still playing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from server.foursquare.models import Game, Race
from tests.make_run import call
from tests.server.foursquare.races.live.support import (
    RaceSocket,
    cards_in,
    connect,
    game_of,
    move,
    path,
    play_out,
    race_create,
    race_get,
    race_join,
    race_started,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]


def of_type(kind: str):
    return lambda message: message["type"] == kind


def progress_of(player_id: str):
    return lambda message: message["type"] == "progress" and message["player"] == player_id


def racer_in(race: dict, player_id: str) -> dict:
    return next(racer for racer in race["racers"] if racer["player"]["id"] == player_id)


def over_for(person, message: dict) -> bool:
    """Whether ``message`` tells ``person`` their own game is over (or the whole race is)."""
    if message["type"] == "progress":
        return message["player"] == person.id and message["progress"]["status"] != "playing"
    if message["type"] in ("ready", "race"):
        race = message["race"]
        return race["status"] == "finished" or any(
            racer["player"]["id"] == person.id and racer["progress"]["status"] != "playing"
            for racer in race["racers"])
    return False


def own_game(server, person, race_id) -> dict:
    return game_of(server, person.token, race_get(server, person.token, race_id)["game"])


def test_a_racer_gets_ready_with_the_race_as_rest_gives_it(server, people):
    ada, bob = people[:2]
    race = race_create(server, ada.token, players=3)
    race_join(server, bob.token, race)
    socket = connect(server, race["id"], bob.token)
    assert socket.messages[0]["type"] == "ready"
    assert socket.messages[0]["race"] == race_get(server, bob.token, race["id"])
    # A browser authenticates with its first message instead of a header.
    browser = RaceSocket(server.ws(path(race["id"])))
    browser.send({"type": "auth", "token": ada.token})
    assert browser.until(of_type("ready"))["race"] == race_get(server, ada.token, race["id"])
    browser.send({"type": "ping"})
    browser.until(of_type("pong"))
    for client in (socket, browser):
        client.close()


def test_refusals_have_their_close_codes(server, people):
    ada, _, cy = people[:3]
    race = race_create(server, ada.token, players=2)
    assert RaceSocket(server.ws(path(race["id"]), token="not-a-token")).close_code() == 4401
    unknown = RaceSocket(server.ws(path(race["id"])))
    unknown.send({"type": "auth", "token": "x" * 43})
    assert unknown.close_code() == 4401
    # Not a racer (nor invited), or no such race.
    assert RaceSocket(server.ws(path(race["id"]), token=cy.token)).close_code() == 4403
    nowhere = "00000000-0000-4000-8000-000000000000"
    assert RaceSocket(server.ws(path(nowhere), token=ada.token)).close_code() == 4403
    # A frame over the bound, before auth or after; a message the protocol does not have.
    early = RaceSocket(server.ws(path(race["id"])))
    early.ws.send("[" * 60000)
    assert early.close_code() == 4400
    socket = connect(server, race["id"], ada.token)
    socket.ws.send('{"type": "ping", "pad": "' + "x" * 2000 + '"}')
    assert socket.close_code() == 4400
    socket = connect(server, race["id"], ada.token)
    socket.send({"type": "move"})
    assert socket.close_code() == 4400


def test_the_race_again_when_someone_joins_leaves_or_it_starts(server, people):
    ada, bob, cy = people[:3]
    race = race_create(server, ada.token, players=3)
    host = connect(server, race["id"], ada.token)
    race_join(server, bob.token, race)
    joined = host.until(of_type("race"))["race"]
    assert [racer["player"]["id"] for racer in joined["racers"]] == [ada.id, bob.id]
    assert joined == race_get(server, ada.token, race["id"])
    status, _ = call(server.base, "POST", f"/api/v1/races/{race['id']}/leave",
                     token=bob.token)
    assert status == 200
    left = host.until(of_type("race"))["race"]
    assert [racer["player"]["id"] for racer in left["racers"]] == [ada.id]
    race_join(server, bob.token, race)
    race_join(server, cy.token, race)  # full: it starts itself
    started = host.until(lambda m: m["type"] == "race" and m["race"]["status"] != "waiting")
    assert started["race"]["status"] == "countdown"
    assert len(started["race"]["racers"]) == 3 and started["race"]["game"] is not None
    host.close()


def test_another_racers_progress_comes_as_counts_while_you_play_then_with_boards(server,
                                                                                 people):
    ada, bob = people[:2]
    race = race_started(server, [ada.token, bob.token])
    sockets = {person: connect(server, race["id"], person.token) for person in (ada, bob)}
    games = {person: own_game(server, person, race["id"]) for person in (ada, bob)}

    games[bob] = move(server, bob.token, games[bob])
    seen = sockets[ada].until(progress_of(bob.id))
    assert seen["progress"] == {"placed": 1, "stock": games[bob]["stock"],
                                "face_down": games[bob]["face_down"], "status": "playing",
                                "score": None, "seconds": None}
    assert "board" not in seen
    own = sockets[bob].until(progress_of(bob.id))
    assert own["progress"] == seen["progress"] and "board" not in own

    games[ada] = play_out(server, ada.token, games[ada])  # over: Ada may watch from now on
    over = sockets[ada].until(lambda m: progress_of(ada.id)(m)
                              and m["progress"]["status"] != "playing")
    assert over["progress"]["status"] == games[ada]["status"]
    assert over["progress"]["placed"] == games[ada]["moves_played"]
    assert over["board"] == games[ada]["grid"]
    watching = sockets[ada].until(of_type("race"))["race"]
    assert racer_in(watching, bob.id)["board"] == games[bob]["grid"]
    games[bob] = move(server, bob.token, games[bob])
    seen = sockets[ada].until(progress_of(bob.id))
    assert seen["progress"]["placed"] == 2
    assert seen["board"] == games[bob]["grid"]

    # Bob, still playing, heard of every move of Ada's by its counts alone.
    sockets[bob].until(lambda m: progress_of(ada.id)(m)
                       and m["progress"]["placed"] == games[ada]["moves_played"])
    heard = [m["progress"]["placed"] for m in sockets[bob].messages if progress_of(ada.id)(m)]
    # In order, none twice. (Ada's moves came one after another through two app processes:
    # a notice overtaken by the next one's is left out, since each carries the whole progress.)
    assert heard == sorted(set(heard)) and heard[-1] == games[ada]["moves_played"]
    assert all("board" not in m for m in sockets[bob].messages)
    assert cards_in(sockets[bob].messages) == []
    for socket in sockets.values():
        socket.close()


def test_the_clock_closes_a_race_whose_time_is_up(server, people):
    ada, bob = people[:2]
    race = race_started(server, [ada.token, bob.token])
    bob_socket = connect(server, race["id"], bob.token)
    move(server, ada.token, own_game(server, ada, race["id"]))
    bob_socket.until(progress_of(ada.id))
    # Its time ran out a moment ago: the next socket's clock finds it due and closes it.
    ended = timezone.now() - timedelta(seconds=1)
    Race.objects.filter(pk=race["id"]).update(ends_at=ended)
    Game.objects.filter(race_id=race["id"]).update(closes_at=ended)
    ada_socket = RaceSocket(server.ws(path(race["id"]), token=ada.token))
    assert ada_socket.until(of_type("ready"))["race"]["status"] == "playing"
    finished = ada_socket.until(of_type("race"))["race"]
    assert finished["status"] == "finished"
    assert {racer["progress"]["status"] for racer in finished["racers"]} == {"out_of_time"}
    assert racer_in(finished, ada.id)["place"] == 1  # one card placed beats none
    assert Race.objects.get(pk=race["id"]).status == "finished"
    # Bob's socket hears of it through the close's notice, boards and all.
    told = bob_socket.until(lambda m: m["type"] == "race"
                            and m["race"]["status"] == "finished")["race"]
    assert told == race_get(server, bob.token, race["id"])
    assert all("board" in racer for racer in told["racers"])
    for socket in (ada_socket, bob_socket):
        socket.close()


def test_no_card_of_another_racers_game_reaches_a_racer_still_playing(server, people):
    """Three racers play one deal to its end, a move each in turn, each holding a socket: the
    audit walks every message each got and finds no card code at all before their own game
    ended, and the others' boards after."""
    racing = people[:3]
    race = race_started(server, [person.token for person in racing])
    sockets = {person: connect(server, race["id"], person.token) for person in racing}
    games = {person: own_game(server, person, race["id"]) for person in racing}
    assert len({game["current_card"] for game in games.values()}) == 1  # one deal for all
    while any(game["status"] == "playing" for game in games.values()):
        for person in racing:
            if games[person]["status"] == "playing":
                games[person] = move(server, person.token, games[person])
                placed = games[person]["moves_played"]
                for socket in sockets.values():  # all hear of it before anyone plays on
                    socket.until(lambda m, p=person, n=placed: progress_of(p.id)(m)
                                 and m["progress"]["placed"] == n)
    for person, socket in sockets.items():
        finished = [m for m in socket.messages
                    if m["type"] == "race" and m["race"]["status"] == "finished"]
        final = (finished[0] if finished else socket.until(
            lambda m: m["type"] == "race" and m["race"]["status"] == "finished"))["race"]
        assert sorted(racer["place"] for racer in final["racers"]) == [1, 2, 3]
        messages = socket.messages
        ended = next(index for index, m in enumerate(messages) if over_for(person, m))
        assert cards_in(messages[:ended]) == [], person
        assert all("board" not in m for m in messages[:ended])
        others = [m for m in messages[ended + 1:]
                  if m["type"] == "progress" and m["player"] != person.id]
        assert all("board" in m for m in others)
        assert any("board" in racer for m in messages[ended:] if m["type"] == "race"
                   for racer in m["race"]["racers"] if racer["player"]["id"] != person.id)
    for socket in sockets.values():
        socket.close()


def test_the_clock_tells_the_countdown_is_over(server, people):
    """No notice marks the end of the countdown (the status is told from starts_at and now):
    the socket's clock reads the race then and sends it, playing."""
    ada, bob = people[:2]
    race = race_create(server, ada.token, players=2)
    race = race_join(server, bob.token, race)  # full: it starts itself
    soon = timezone.now() + timedelta(seconds=1)
    Race.objects.filter(pk=race["id"]).update(starts_at=soon)
    Game.objects.filter(race_id=race["id"]).update(opens_at=soon)
    socket = RaceSocket(server.ws(path(race["id"]), token=ada.token))
    ready = socket.until(of_type("ready"))["race"]
    if ready["status"] == "countdown":  # else the read came after starts_at already
        playing = socket.until(of_type("race"))["race"]
        assert playing["status"] == "playing"
        assert playing == race_get(server, ada.token, race["id"])
    socket.close()
