"""Games: starting them, playing moves on the server, records, errors that change nothing."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from foursquare import Game as EngineGame
from foursquare import deal as engine_deal
from server.dailies import calendar
from server.foursquare import dailies
from server.foursquare.models import Daily, Deal, Game, Move
from tests.server.conftest import assert_problem

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

GAME_FIELDS = {
    "id", "mode", "date", "deal", "status", "score", "moves_played", "current_card", "stock",
    "face_down", "grid", "legal_moves", "previews", "last_move",
}


def play(api, game, index=0, **headers):
    """Play legal move number ``index`` (wrapping) of the game as last seen."""
    legal = game["legal_moves"]
    row, col = legal[index % len(legal)]
    return api.post(f"games/{game['id']}/moves",
                    {"row": row, "col": col, "move": game["moves_played"]}, **headers)


def play_to_the_end(api, game):
    while game["status"] == "playing":
        response = play(api, game)
        assert response.status_code == 200, response.content
        game = response.json()
    return game


# --- Starting games ---------------------------------------------------------------------------


def test_practice_game_has_the_documented_fields(player_api, practice_game):
    assert set(practice_game) >= GAME_FIELDS
    assert practice_game["mode"] == "practice" and practice_game["date"] is None
    assert practice_game["status"] == "playing" and practice_game["moves_played"] == 0
    assert practice_game["stock"] == 39 and practice_game["legal_moves"] == [[0, 0]]
    assert practice_game["grid"] == [] and practice_game["last_move"] is None


def test_practice_games_get_fresh_deals(player_api):
    first = player_api.post("games", {"mode": "practice"}).json()
    second = player_api.post("games", {"mode": "practice"}).json()
    assert first["deal"] != second["deal"]


def test_challenge_replays_the_same_deal(make_player, practice_game, player_api):
    _, friend = make_player()
    response = friend.post("games", {"mode": "practice", "deal": practice_game["deal"]})
    assert response.status_code == 201
    assert response.json()["deal"] == practice_game["deal"]
    assert response.json()["current_card"] == practice_game["current_card"]


def test_challenge_with_an_unknown_deal_is_404(player_api):
    assert_problem(player_api.post("games", {"mode": "practice", "deal": "nope"}), 404,
                   "not_found")


def test_daily_is_created_once_then_returned(player_api):
    first = player_api.post("games", {"mode": "daily"})
    again = player_api.post("games", {"mode": "daily"})
    assert first.status_code == 201 and again.status_code == 200
    assert first.json()["id"] == again.json()["id"]
    assert first.json()["date"] == calendar.utc_today().isoformat()
    assert Game.objects.filter(mode="daily").count() == 1


def test_everyone_gets_the_same_daily_deal(make_player):
    games = [make_player()[1].post("games", {"mode": "daily"}).json() for _ in range(3)]
    assert len({game["deal"] for game in games}) == 1
    assert len({game["current_card"] for game in games}) == 1
    assert Daily.objects.count() == 1


def test_daily_number_counts_from_the_launch_date(player_api, settings):
    game = player_api.post("games", {"mode": "daily"}).json()
    expected = (calendar.utc_today() - settings.FOURSQUARE_LAUNCH_DATE).days + 1
    assert game["number"] == expected


def test_the_one_daily_constraint_holds_in_the_database(make_player):
    from django.db import IntegrityError, transaction

    player, api = make_player()
    game = Game.objects.get(pk=api.post("games", {"mode": "daily"}).json()["id"])
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(player=player, mode="daily", daily=game.daily, deal=game.deal)


@pytest.mark.parametrize("hours", [-12, 0, 14])
def test_local_date_is_accepted_while_current_somewhere(player_api, dailies_clock, hours):
    day = (dailies_clock() + timedelta(hours=hours)).date()  # the server's instant, not another
    response = player_api.post("games", {"mode": "daily", "date": day.isoformat()})
    assert response.status_code == 201
    assert response.json()["date"] == day.isoformat()


@pytest.mark.parametrize("days", [-2, 2, 400])
def test_date_not_current_anywhere_is_unavailable(player_api, days):
    day = calendar.utc_today() + timedelta(days=days)
    body = assert_problem(player_api.post("games", {"mode": "daily", "date": day.isoformat()}),
                          422, "daily_unavailable")
    assert day.isoformat() in body["detail"]
    assert not Game.objects.exists()


def test_dates_follow_the_earth_window():
    from datetime import UTC, datetime

    now = datetime(2026, 11, 29, 11, 0, tzinfo=UTC)
    day = timedelta(days=1)
    assert calendar.current_dates(now) == (now.date() - day, now.date() + day)
    late = datetime(2026, 11, 29, 23, 0, tzinfo=UTC)
    assert calendar.current_dates(late) == (late.date(), late.date() + timedelta(days=1))


def test_daily_before_launch_is_unavailable(player_api, settings):
    settings.FOURSQUARE_LAUNCH_DATE = calendar.utc_today() + timedelta(days=1)
    assert_problem(player_api.post("games", {"mode": "daily"}), 422, "daily_unavailable")


def test_archive_replays_a_past_daily_unranked(player_api):
    day = calendar.utc_today() - timedelta(days=3)
    response = player_api.post("games", {"mode": "archive", "date": day.isoformat()})
    assert response.status_code == 201
    body = response.json()
    assert body["mode"] == "archive" and body["date"] == day.isoformat()
    daily = Daily.objects.get(date=day)
    assert body["deal"] == daily.deal_id
    again = player_api.post("games", {"mode": "archive", "date": day.isoformat()})
    assert again.status_code == 201 and again.json()["id"] != body["id"]


def test_archive_of_a_current_daily_is_refused(player_api):
    assert_problem(
        player_api.post("games", {"mode": "archive", "date": calendar.utc_today().isoformat()}),
        422, "daily_unavailable",
    )


def test_current_daily_deal_cannot_be_practised(player_api, make_player):
    daily = player_api.post("games", {"mode": "daily"}).json()
    _, other = make_player()
    assert_problem(other.post("games", {"mode": "practice", "deal": daily["deal"]}), 422,
                   "deal_unavailable")


def test_daily_deal_comes_from_the_secret(settings):
    day = calendar.utc_today()
    settings.FOURSQUARE_DAILY_SECRET = "one secret"
    first = dailies.daily_deck(day)
    settings.FOURSQUARE_DAILY_SECRET = "another secret"
    assert dailies.daily_deck(day) != first
    # ... and not from the date alone, by any obvious seed.
    for guess in (day.isoformat().encode(), str(calendar.daily_number(day)).encode()):
        assert engine_deal(guess) != first


@pytest.mark.parametrize(
    "body",
    [{}, {"mode": "ranked"}, {"mode": 1}, {"mode": "daily", "date": "29/11/2026"},
     {"mode": "daily", "date": 20261129}, {"mode": "practice", "deal": 5},
     {"mode": "practice", "date": "2026-11-01"}, {"mode": "archive"},
     {"mode": "daily", "deal": "abc"}],
)
def test_bad_game_requests_are_invalid(player_api, body):
    assert_problem(player_api.post("games", body), 400, "invalid")
    assert not Game.objects.exists()


def test_games_list_is_newest_first_and_paginated(player_api):
    ids = [player_api.post("games", {"mode": "practice"}).json()["id"] for _ in range(5)]
    page = player_api.get("games", {"limit": 2}).json()
    assert [game["id"] for game in page["results"]] == ids[::-1][:2]
    seen = [game["id"] for game in page["results"]]
    while page["next"]:
        page = player_api.get(page["next"]).json()
        seen += [game["id"] for game in page["results"]]
    assert seen == ids[::-1]


def test_games_list_shows_only_your_games(player_api, make_player):
    player_api.post("games", {"mode": "practice"})
    _, other = make_player()
    assert other.get("games").json()["results"] == []


# --- Moves ------------------------------------------------------------------------------------


def test_a_move_places_the_current_card(player_api, practice_game):
    response = play(player_api, practice_game)
    assert response.status_code == 200
    game = response.json()
    assert game["moves_played"] == 1
    assert game["grid"] == [{"row": 0, "col": 0, "height": 1, "face_up": True,
                             "card": practice_game["current_card"]}]
    assert game["last_move"] == {"card": practice_game["current_card"], "at": [0, 0],
                                 "flipped": []}
    assert game["stock"] == 38


def test_move_without_a_move_number_is_accepted(player_api, practice_game):
    response = player_api.post(f"games/{practice_game['id']}/moves", {"row": 0, "col": 0})
    assert response.status_code == 200


def test_illegal_move_is_422_and_changes_nothing(player_api, practice_game):
    url = f"games/{practice_game['id']}/moves"
    body = assert_problem(player_api.post(url, {"row": 1, "col": 1, "move": 0}), 422,
                          "illegal_move")
    assert "cannot place" in body["detail"]
    assert player_api.get(f"games/{practice_game['id']}").json() == practice_game
    assert not Move.objects.exists()


def test_stale_move_number_is_409_and_changes_nothing(player_api, practice_game):
    game = play(player_api, practice_game).json()
    url = f"games/{game['id']}/moves"
    row, col = game["legal_moves"][0]
    body = assert_problem(player_api.post(url, {"row": row, "col": col, "move": 0}), 409,
                          "stale_move")
    assert body["moves_played"] == 1
    assert Move.objects.count() == 1


def test_finished_game_refuses_moves(player_api, practice_game):
    game = play_to_the_end(player_api, practice_game)
    body = assert_problem(play(player_api, {**game, "legal_moves": [[0, 0]]}), 409, "game_over")
    assert "over" in body["detail"]
    assert Move.objects.count() == game["moves_played"]


@pytest.mark.parametrize(
    "body",
    [{}, {"row": 0}, {"row": "0", "col": 0}, {"row": 0.0, "col": 0}, {"row": True, "col": 0},
     {"row": 0, "col": None}, {"row": [0], "col": 0}, {"row": 0, "col": 0, "move": "0"},
     {"row": 0, "col": 0, "move": -1}, {"row": 10**20, "col": 0},
     {"row": 0, "col": 0, "mvoe": 0}],
)
def test_malformed_moves_are_400_invalid(player_api, practice_game, body):
    response = player_api.post(f"games/{practice_game['id']}/moves", body)
    assert_problem(response, 400, "invalid")
    assert not Move.objects.exists()


@pytest.mark.parametrize(
    ("raw", "content_type"),
    [("{", "application/json"), ("[1, 2]", "application/json"), ("null", "application/json"),
     ('{"row": NaN, "col": 0}', "application/json"), (b"\xff\xfe", "application/json"),
     ("[" * 5000 + "]" * 5000, "application/json"),
     ('{"a":' * 100 + "1" + "}" * 100, "application/json")],
)
def test_unreadable_bodies_are_400(player_api, practice_game, raw, content_type):
    response = player_api.raw("post", f"games/{practice_game['id']}/moves", raw, content_type)
    assert_problem(response, 400, "invalid")


def test_non_json_body_is_415(player_api, practice_game):
    response = player_api.raw("post", f"games/{practice_game['id']}/moves", "row=0&col=0",
                              "application/x-www-form-urlencoded")
    assert_problem(response, 415, "unsupported_media_type")


def test_another_players_game_is_404_everywhere(player_api, practice_game, make_player):
    _, stranger = make_player()
    game_id = practice_game["id"]
    assert_problem(stranger.get(f"games/{game_id}"), 404, "not_found")
    assert_problem(stranger.post(f"games/{game_id}/moves", {"row": 0, "col": 0}), 404,
                   "not_found")
    assert_problem(stranger.get(f"games/{game_id}/record"), 404, "not_found")
    assert not Move.objects.exists()


def test_unknown_game_and_unknown_urls_are_problem_404(player_api):
    assert_problem(player_api.get("games/00000000-0000-0000-0000-000000000000"), 404,
                   "not_found")
    assert_problem(player_api.get("games/not-a-uuid"), 404, "not_found")
    assert_problem(player_api.get("/api/v1/nothing-here"), 404, "not_found")


def test_wrong_method_is_405(player_api, practice_game):
    assert_problem(player_api.delete(f"games/{practice_game['id']}"), 405, "method_not_allowed")


# --- Records and stored state -----------------------------------------------------------------


def test_record_is_hidden_while_playing_then_revealed(player_api, practice_game):
    assert_problem(player_api.get(f"games/{practice_game['id']}/record"), 409,
                   "game_in_progress")
    game = play_to_the_end(player_api, practice_game)
    record = player_api.get(f"games/{game['id']}/record").json()
    assert len(record["deck"]) == 40 and len(record["moves"]) == game["moves_played"]
    assert record["status"] == game["status"] and record["score"] == game["score"]
    assert record["deck"][0] == practice_game["current_card"]


def test_stored_moves_rebuild_the_stored_state(player_api, practice_game):
    game = play_to_the_end(player_api, practice_game)
    stored = Game.objects.get(pk=game["id"])
    moves = list(Move.objects.filter(game=stored).order_by("number"))
    assert [m.number for m in moves] == list(range(stored.moves_played))
    engine = EngineGame(Deal.objects.get(pk=game["deal"]).deck)
    for move in moves:
        assert str(engine.current) == move.card
        engine.play((move.row, move.col))
    assert [[m.row, m.col] for m in moves] == stored.move_list
    assert (engine.status, engine.score, engine.moves_played) == (
        stored.status, stored.score, stored.moves_played)
    assert stored.finished_at is not None


def test_a_move_costs_a_bounded_number_of_queries(player_api, practice_game):
    game = play(player_api, practice_game).json()
    with CaptureQueriesContext(connection) as queries:
        response = play(player_api, game, HTTP_IDEMPOTENCY_KEY="bounded")
    assert response.status_code == 200
    # The test runs inside a transaction, so the view's own transaction shows up as a
    # savepoint; in production it is BEGIN/COMMIT, which is not counted either.
    statements = [q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
    assert len(statements) <= 6, statements


# --- Hidden information -----------------------------------------------------------------------


def test_no_response_during_play_reveals_an_undrawn_card_or_a_face_down_rank(player_api):
    game = player_api.post("games", {"mode": "daily"}).json()
    deck = Daily.objects.get().deal.cards.split()
    responses = [game]
    while game["status"] == "playing":
        game = play(player_api, game, index=game["moves_played"]).json()
        responses.append(game)
        responses.append(player_api.get(f"games/{game['id']}").json())
        responses.append(player_api.get("games").json())
    engine = EngineGame(deck)
    for position in Game.objects.get().move_list:
        engine.play(tuple(position))
    for body in responses[:-3]:
        text = str(body)
        drawn = body.get("moves_played", 0) + 1 if "moves_played" in body else None
        if drawn is None:
            continue
        for card in deck[drawn:]:
            assert f"'{card}'" not in text, f"undrawn {card} leaked after {drawn - 1} moves"
        for cell in body["grid"]:
            assert cell["face_up"] or cell["card"] is None


def test_oversized_body_is_413_and_changes_nothing(player_api, practice_game):
    body = '{"row": 0, "col": 0, "padding": "' + "x" * 70_000 + '"}'
    response = player_api.raw("post", f"games/{practice_game['id']}/moves", body)
    assert_problem(response, 413, "payload_too_large")
    assert not Move.objects.exists()
