"""Racing through the ordinary move endpoint: the clock's two refusals, another racer's game,
the finish and its places, the close on time, what a racer still playing may see (nothing
that names another racer's card), replays, racing again, the stats and the deal's secrecy."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from server.foursquare.models import Game, Race, Racer
from server.foursquare.races import services
from server.jobs.models import Job
from tests.server.conftest import assert_problem
from tests.server.foursquare.races.support import (
    RACES,
    create,
    game_of,
    join,
    move,
    open_now,
    play_moves,
    play_out,
    raced,
    start,
    time_up,
    url,
)

pytestmark = [pytest.mark.sqlite, pytest.mark.usefixtures("known_deal")]

PROGRESS_KEYS = {"placed", "stock", "face_down", "status", "score", "seconds"}
# Names under which a card could travel; none may appear in a race object before watching.
CARD_KEYS = {"board", "grid", "card", "current_card", "last_move", "deck", "deal", "moves",
             "legal_moves", "previews"}


@pytest.fixture
def three(make_player):
    return [make_player(name) for name in ("Ada", "Bo", "Cy")]


def keys_in(value) -> set:
    if isinstance(value, dict):
        return set(value) | {k for item in value.values() for k in keys_in(item)}
    if isinstance(value, list):
        return {k for item in value for k in keys_in(item)}
    return set()


def assert_counts_only(race: dict, viewer_id) -> None:
    """``race`` (a race object a racer still playing received) names no card of anyone's game:
    every racer's entry is its player, place and progress of counts."""
    for racer in race["racers"]:
        assert set(racer) == {"player", "place", "progress"}, racer
        assert set(racer["progress"]) == PROGRESS_KEYS
        assert all(value is None or type(value) in (int, float, str)
                   for value in racer["progress"].values())
    assert not keys_in(race) & CARD_KEYS, keys_in(race) & CARD_KEYS


# --- The clock --------------------------------------------------------------------------------


def test_no_move_before_the_start_and_none_from_the_time_limit(three):
    (_, ada), (_, bo), _ = three
    race = create(ada)
    join(bo, race)  # full: it starts itself, counting down
    game = game_of(ada, race)
    assert game["mode"] == "race" and game["race"] == race["id"] and game["deal"] is None

    assert_problem(move(ada, game), 409, "race_not_started")
    assert Game.objects.get(pk=game["id"]).moves_played == 0

    open_now(race["id"])
    game = play_moves(ada, ada.get(f"games/{game['id']}").json(), 2)
    assert game["moves_played"] == 2

    time_up(race["id"])
    assert_problem(move(ada, game), 409, "out_of_time")
    assert Game.objects.get(pk=game["id"]).moves_played == 2


def test_nothing_of_the_deal_shows_during_the_countdown(three):
    (_, ada), (_, bo), _ = three
    race = create(ada)
    join(bo, race)  # full: it starts itself, counting down
    game = game_of(ada, race)

    assert (game["current_card"], game["legal_moves"], game["previews"]) == (None, [], [])
    assert game["status"] == "playing" and game["deal"] is None
    listed = [entry for entry in ada.get("games").json()["results"] if entry["id"] == game["id"]]
    assert (listed[0]["current_card"], listed[0]["legal_moves"]) == (None, [])

    open_now(race["id"])
    game = ada.get(f"games/{game['id']}").json()
    assert game["current_card"] is not None and game["legal_moves"] and game["previews"]


def test_another_racers_game_is_a_404_as_anyone_elses(three):
    (_, ada), (_, bo), _ = three
    race = raced(ada, bo)
    bos_game = game_of(bo, race)

    assert_problem(ada.post(f"games/{bos_game['id']}/moves", {"row": 0, "col": 0}), 404,
                   "not_found")
    assert_problem(ada.get(f"games/{bos_game['id']}"), 404, "not_found")
    assert Game.objects.get(pk=bos_game["id"]).moves_played == 0


def test_a_race_game_has_no_hints_record_or_analysis_before_the_race_ends(three):
    (_, ada), (_, bo), _ = three
    race = raced(ada, bo)
    game = game_of(ada, race)
    assert_problem(ada.get(f"games/{game['id']}/hint"), 403, "hints_not_allowed")
    play_out(ada, game)
    assert_problem(ada.get(f"games/{game['id']}/record"), 409, "race_not_finished")
    assert_problem(ada.get(f"games/{game['id']}/analysis"), 409, "race_not_finished")
    assert not Job.objects.filter(key=game["id"]).exists()  # nothing was set going either


def test_a_bad_move_in_a_race_game_is_refused_and_changes_nothing(three):
    (_, ada), (_, bo), _ = three
    race = raced(ada, bo)
    game = game_of(ada, race)
    assert_problem(ada.post(f"games/{game['id']}/moves", {"row": 9, "col": 9}), 422,
                   "illegal_move")
    assert_problem(ada.post(f"games/{game['id']}/moves", {"row": "0", "col": 0}), 400,
                   "invalid")
    assert_problem(ada.post(f"games/{game['id']}/moves", {"row": 0, "col": 0, "move": 5}),
                   409, "stale_move")
    assert Game.objects.get(pk=game["id"]).moves_played == 0


# --- Finishing --------------------------------------------------------------------------------


def test_the_race_finishes_with_the_last_game_and_the_places_follow_the_rule(three):
    (ada_p, ada), (bo_p, bo), _ = three
    race = raced(ada, bo)
    ada_game, bo_game = game_of(ada, race), game_of(bo, race)

    play_moves(bo, bo_game, 3)
    play_out(ada, ada_game)
    seen = ada.get(url(race)).json()
    assert seen["status"] == "playing" and all(r["place"] is None for r in seen["racers"])
    # Ada's game is over: she may watch Bo's board; Bo, still playing, may not watch hers.
    assert all("board" in r for r in seen["racers"])
    assert_counts_only(bo.get(url(race)).json(), bo_p.pk)

    final = play_out(bo, game_of(bo, race))[-1].json()
    assert final["deal"] == Race.objects.get(pk=race["id"]).deal_id  # the race has finished
    finished = ada.get(url(race)).json()
    assert finished["status"] == "finished" and finished["finished_at"]
    by_player = {r["player"]["id"]: r for r in finished["racers"]}
    assert sorted(r["place"] for r in finished["racers"]) == [1, 2]
    progress = {pid: r["progress"] for pid, r in by_player.items()}
    assert all(p["status"] in ("won", "lost") and p["seconds"] is not None
               for p in progress.values())

    def rank_key(p):
        if p["status"] == "won":
            return (0, -p["score"], p["seconds"])
        return (1, -p["placed"], p["seconds"])

    expected = sorted(by_player, key=lambda pid: (rank_key(progress[pid]),
                                                  pid != str(ada_p.pk)))
    assert [by_player[pid]["place"] for pid in expected] == [1, 2]
    assert dict(Racer.objects.filter(race_id=race["id"]).values_list("player_id", "place")) \
        == {ada_p.pk: by_player[str(ada_p.pk)]["place"], bo_p.pk: by_player[str(bo_p.pk)]["place"]}


def _finished_as(game: Game, status: str, *, placed: int, seconds: float,
                 score: int | None = None) -> None:
    Game.objects.filter(pk=game.pk).update(
        status=status, moves_played=placed, score=score,
        finished_at=game.opens_at + timedelta(seconds=seconds))


def test_places_rank_winners_by_cards_left_then_time_then_the_rest_by_cards_placed(make_player):
    apis = [make_player(f"R{i}") for i in range(6)]
    host = apis[0][1]
    race = create(host, players=6)
    for _, other in apis[1:]:
        race = join(other, race)
    open_now(race["id"])
    games = {racer.player_id: racer.game
             for racer in Racer.objects.filter(race_id=race["id"]).select_related("game")}
    ids = [player.pk for player, _ in apis]
    _finished_as(games[ids[0]], "lost", placed=30, seconds=50)
    _finished_as(games[ids[1]], "won", placed=40, seconds=90, score=5)
    _finished_as(games[ids[2]], "won", placed=40, seconds=40, score=5)
    _finished_as(games[ids[3]], "won", placed=40, seconds=170, score=8)
    _finished_as(games[ids[4]], "lost", placed=35, seconds=100)
    # The sixth is still playing when the time runs out, with 30 cards placed.
    Game.objects.filter(pk=games[ids[5]].pk).update(moves_played=30)

    time_up(race["id"])
    assert services.races_close_due() == 1
    assert services.races_close_due() == 0  # idempotent
    places = dict(Racer.objects.filter(race_id=race["id"]).values_list("player_id", "place"))
    assert [places[pid] for pid in ids] == [6, 3, 2, 1, 4, 5]
    shown = host.get(url(race)).json()
    timed_out = next(r for r in shown["racers"] if r["player"]["id"] == str(ids[5]))
    assert timed_out["progress"]["status"] == "out_of_time"
    assert timed_out["progress"]["seconds"] == 180.0


def test_the_time_limit_closes_the_race_on_the_next_read(three):
    (_, ada), (_, bo), _ = three
    race = raced(ada, bo)
    play_moves(ada, game_of(ada, race), 3)

    time_up(race["id"])
    closed = bo.get(url(race)).json()
    assert closed["status"] == "finished"
    assert closed["finished_at"] == closed["ends_at"]
    assert {r["progress"]["status"] for r in closed["racers"]} == {"out_of_time"}
    assert {r["progress"]["seconds"] for r in closed["racers"]} == {180.0}
    ada_entry = next(r for r in closed["racers"] if r["progress"]["placed"] == 3)
    assert ada_entry["place"] == 1  # more cards placed
    assert all("board" in r for r in closed["racers"])  # finished: everyone may watch
    assert Game.objects.filter(race_id=race["id"], status="unfinished").count() == 2
    game = ada.get(f"games/{ada.get(url(race)).json()['game']}").json()
    assert game["status"] == "unfinished" and game["legal_moves"] == []
    assert_problem(move(ada, {**game, "legal_moves": [[0, 0]]}), 409, "out_of_time")
    assert services.race_close_if_due(race["id"]) is False  # once


def test_the_worker_sweep_closes_races_past_their_time_and_no_other(three):
    (_, ada), (_, bo), (_, cy) = three
    due = raced(ada, bo)
    running = raced(cy, ada)
    time_up(due["id"])

    assert services.races_close_due() == 1
    assert Race.objects.get(pk=due["id"]).status == "finished"
    assert Race.objects.get(pk=running["id"]).status == "countdown"  # stored; shown playing


# --- What a racer still playing receives -----------------------------------------------------


def test_nothing_a_racer_still_playing_receives_names_another_racers_card(three):
    (_ada_p, ada), (_bo_p, bo), (_, cy) = three
    race = create(ada, players=3)
    received = [race, join(bo, race)]
    received.append(join(cy, race))
    open_now(race["id"])

    # Cy finishes first; Ada and Bo play on, reading everything a racer reads.
    play_out(cy, game_of(cy, race))
    ada_game, bo_game = game_of(ada, race), game_of(bo, race)
    for _ in range(5):
        for api, game in ((ada, ada_game), (bo, bo_game)):
            if game["status"] == "playing":
                response = move(api, game)
                assert response.status_code == 200
                game = response.json()
                assert game["deal"] is None and game["race"] == race["id"]
            received.append(api.get(url(race)).json())
            received.extend(api.get(RACES).json()["results"])
        ada_game, bo_game = game_of(ada, race), game_of(bo, race)
    assert ada_game["status"] == bo_game["status"] == "playing"  # both still racing
    for api in (ada, bo):
        assert_problem(api.get(url(race, "replays")), 409, "race_not_finished")
    for race_object in received:
        assert_counts_only(race_object, None)
    # Cy, whose game is over, may watch everyone's board.
    watched = cy.get(url(race)).json()
    assert all("board" in r for r in watched["racers"])
    assert watched["bot"] is None  # the bot's reference only with the result


def test_the_deal_of_a_race_not_finished_cannot_be_practised(three):
    (_, ada), (_, bo), (_, cy) = three
    race = raced(ada, bo)
    deal_id = Race.objects.get(pk=race["id"]).deal_id

    assert_problem(cy.post("games", {"mode": "practice", "deal": deal_id}), 422,
                   "deal_unavailable")
    assert_problem(cy.post("games", {"mode": "race"}), 400, "invalid")
    time_up(race["id"])
    ada.get(url(race))  # closes it
    assert cy.post("games", {"mode": "practice", "deal": deal_id}).status_code == 201


# --- After the finish -------------------------------------------------------------------------


def test_replays_give_the_deal_and_every_racers_moves_once_finished(three):
    (_, ada), (_, bo), _ = three
    race = raced(ada, bo)
    ada_moves = [tuple(g.json()["last_move"]["at"]) for g in play_out(ada, game_of(ada, race))]
    play_moves(bo, game_of(bo, race), 2)
    assert_problem(ada.get(url(race, "replays")), 409, "race_not_finished")

    time_up(race["id"])
    replays = bo.get(url(race, "replays"))
    assert replays.status_code == 200, replays.content
    body = replays.json()
    stored = Race.objects.get(pk=race["id"])
    assert body["deck"] == stored.deal.cards.split() and len(body["deck"]) == 40
    assert [tuple(m) for m in body["racers"][0]["moves"]] == ada_moves  # placed first
    assert {r["status"] for r in body["racers"]} <= {"won", "lost", "out_of_time"}
    assert body["racers"][1]["status"] == "out_of_time" and len(body["racers"][1]["moves"]) == 2
    record = ada.get(f"games/{race['game']}/record")
    assert record.status_code == 200 and record.json()["deck"] == body["deck"]


def test_race_again_is_one_next_race_the_first_asker_hosts(three):
    (ada_p, ada), (bo_p, bo), (_, cy) = three
    race = raced(ada, bo, minutes=5)
    assert_problem(bo.post(url(race, "again")), 409, "race_not_finished")
    time_up(race["id"])

    again = bo.post(url(race, "again"))
    assert again.status_code == 200, again.content
    nxt = again.json()
    assert nxt["status"] == "waiting" and nxt["host"]["id"] == str(bo_p.pk)
    assert nxt["players"] == 2 and nxt["minutes"] == 5 and nxt["id"] != race["id"]
    assert [p["id"] for p in nxt["invited"]] == [str(ada_p.pk)]
    assert ada.get(url(race)).json()["next_race"] == nxt["id"]
    assert bo.post(url(race, "again")).json()["id"] == nxt["id"]  # the same one, again
    assert_problem(cy.post(url(race, "again")), 404, "race_not_found")

    joined = ada.post(url(race, "again")).json()  # joins it: full, it starts itself
    assert joined["id"] == nxt["id"] and joined["status"] == "countdown"
    assert Race.objects.filter(pk=nxt["id"], status="countdown").exists()


def test_the_stats_gain_a_races_section_and_races_never_count_as_dailies(three):
    (ada_p, ada), (_, bo), _ = three
    assert ada.get("players/me/stats").json()["races"] == {"played": 0, "won": 0,
                                                             "best": None}
    race = raced(ada, bo)
    play_moves(ada, game_of(ada, race), 2)
    time_up(race["id"])
    ada.get(url(race))

    stats = ada.get("players/me/stats").json()
    assert stats["races"] == {"played": 1, "won": 1, "best": 1}
    assert stats["played"] == 0  # dailies
    assert bo.get(f"players/{ada_p.pk}").json()["races"] == stats["races"]  # a profile
    assert bo.get("players/me/stats").json()["races"] == {"played": 1, "won": 0, "best": 2}
    assert ada.get("leaderboard").json()["entries"] == []


def test_a_race_played_from_creation_to_its_end(three):
    """The whole flow, on both databases: created, joined, started by the host, played out."""
    (_, ada), (_, bo), (_, cy) = three
    race = create(ada, players=3)
    join(bo, race)
    race = start(ada, race)
    assert race["status"] == "countdown"
    open_now(race["id"])
    for api in (ada, bo):
        play_out(api, game_of(api, race))
    finished = cy.get(url(race), {"code": race["code"]}).json()
    assert finished["status"] == "finished"
    assert sorted(r["place"] for r in finished["racers"]) == [1, 2]
    assert Race.objects.get(pk=race["id"]).finished_at <= timezone.now()


def test_a_race_game_read_after_the_time_limit_shows_as_over(three):
    (_, ada), (_, bo), _ = three
    race = raced(ada, bo)
    game = play_moves(ada, game_of(ada, race), 2)
    time_up(race["id"])

    shown = ada.get(f"games/{game['id']}").json()
    assert shown["status"] == "unfinished" and shown["legal_moves"] == []
    assert shown["deal"] == Race.objects.get(pk=race["id"]).deal_id  # finished: shown
    listed = {g["id"]: g["status"] for g in bo.get("games").json()["results"]}
    assert set(listed.values()) == {"unfinished"}
