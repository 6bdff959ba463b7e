"""Leaderboards: ranks with ties, pages while results arrive, me and around me, the hooks."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from server.boards import services as boards
from server.boards.models import Board, ScoreCount, Standing
from server.boards.periods import ranked_key, week_key
from server.dailies import calendar
from server.foursquare.models import Game
from tests.server.concurrently import race
from tests.server.conftest import assert_problem
from tests.server.results import (
    WINNING_MOVES,
    another_day_of_its_week,
    at,
    daily_result,
    game_before_last_move,
    losing_last_move,
    winning_daily,
)

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


@pytest.fixture
def make_player(make_trusted_player):
    """The players of these tests are trusted accounts (claimed, created before today), whose
    dailies rank on the global boards; tests/server/players/test_trust.py covers the others."""
    return make_trusted_player


@pytest.fixture
def today():
    return calendar.utc_today()


@pytest.fixture
def board_url(today):
    return f"daily/{today.isoformat()}/leaderboard"


def ranked(body) -> list[tuple[int, str, int]]:
    return [(entry["rank"], entry["player"]["name"], entry["score"]) for entry in body["entries"]]


def results(make_player, day, scores, start=0):
    """Players named P0, P1, ... finishing ``day`` with ``scores`` (None: lost), one second
    apart; returns [(player, api)]."""
    made = []
    for index, score in enumerate(scores, start):
        player, api = make_player(f"P{index}")
        daily_result(player, day, score, finished_at=at(index))
        made.append((player, api))
    return made


# --- Ranking -------------------------------------------------------------------------------


def test_ties_share_a_rank_and_the_earlier_finish_is_listed_first(make_player, api, board_url,
                                                                  today):
    results(make_player, today, [10, 20, 10, 5, 20, 10])
    body = api.get(board_url).json()
    assert ranked(body) == [(1, "P1", 20), (1, "P4", 20), (3, "P0", 10), (3, "P2", 10),
                            (3, "P5", 10), (6, "P3", 5)]
    assert body["players"] == body["winners"] == 6


def test_lost_and_unfinished_games_count_as_players_but_hold_no_rank(make_player, api, board_url,
                                                                     today):
    results(make_player, today, [7, None, 3])
    player, _ = make_player("Still playing")
    daily_result(player, today, status="playing")
    body = api.get(board_url).json()
    assert ranked(body) == [(1, "P0", 7), (2, "P2", 3)]
    assert (body["players"], body["winners"]) == (4, 2)


def test_distribution_counts_winners_by_score(make_player, api, board_url, today):
    results(make_player, today, [0, 24, 24, None, 3])
    distribution = api.get(board_url).json()["distribution"]
    assert set(distribution) == {str(score) for score in range(25)}
    assert {score: n for score, n in distribution.items() if n} == {"0": 1, "3": 1, "24": 2}


def test_board_response_has_the_documented_shape(make_player, board_url, today):
    (_, api), = results(make_player, today, [12])
    body = api.get(board_url).json()
    assert set(body) == {"period", "date", "number", "start", "end", "players", "winners",
                         "distribution", "entries", "me", "standing", "next", "reference"}
    assert body["number"] == calendar.daily_number(today) and body["period"] == "day"
    assert body["entries"][0] == body["me"]
    assert set(body["me"]) == {"rank", "player", "score", "wins", "games", "best",
                               "finished_at"}
    assert body["me"]["finished_at"] == "2026-11-29T12:00:00Z"


def test_an_empty_day_has_an_empty_board(api, player_api, board_url):
    body = api.get(board_url).json()
    assert (body["players"], body["winners"], body["entries"], body["next"]) == (0, 0, [], None)
    standing = player_api.get(board_url).json()["standing"]
    assert standing["status"] == "not_started" and standing["rank"] is None


# --- Pages -------------------------------------------------------------------------------------


def test_pages_follow_next_without_gaps_or_repeats(make_player, api, board_url, today):
    results(make_player, today, [n % 5 for n in range(17)])
    seen, url = [], board_url + "?limit=4"
    while url:
        body = api.get(url).json()
        assert len(body["entries"]) <= 4
        seen += ranked(body)
        url = body["next"]
    assert len(seen) == 17 and len({name for _, name, _ in seen}) == 17
    assert [score for _, _, score in seen] == sorted((n % 5 for n in range(17)), reverse=True)


def test_pages_stay_whole_while_new_results_arrive(make_player, api, board_url, today):
    results(make_player, today, [n % 6 for n in range(20)])
    first = {name for _, name, _ in ranked(api.get(board_url).json())}
    seen, url, extra = [], board_url + "?limit=5", iter(range(20, 40))
    while url:
        body = api.get(url).json()
        seen += [name for _, name, _ in ranked(body)]
        url = body["next"]
        # Between two pages, new winners land above, inside and below the page just read.
        for score in (5, 2, 0):
            index = next(extra)
            player, _ = make_player(f"P{index}")
            daily_result(player, today, score, finished_at=at(100 + index))
    assert len(seen) == len(set(seen)), "an entry was listed twice"
    assert first <= set(seen), "an entry that was there all along was skipped"


def test_bad_cursor_is_400(api, board_url):
    for cursor in ["nonsense", "W10", "WzEsMiwiYSIsImIiXQ"]:
        assert_problem(api.get(board_url, {"cursor": cursor}), 400, "invalid")


@pytest.mark.parametrize("params", [
    {"limit": 0}, {"limit": 101}, {"limit": "ten"}, {"limit": "1.5"}, {"around": "you"},
    {"around": "me", "cursor": "x"}, {"limt": 5}, {"period": "week"}, {"limit": ""},
])
def test_bad_page_parameters_are_400(player_api, board_url, params):
    assert_problem(player_api.get(board_url, params), 400, "invalid")


@pytest.mark.parametrize("params", [
    {"period": "month"}, {"date": "2026-13-01"}, {"date": "29/11/2026"},
    {"date": "2026-11-29T00:00"},
])
def test_bad_board_parameters_are_400(api, params):
    assert_problem(api.get("leaderboard", params), 400, "invalid")


def test_bad_or_undealt_dates_in_the_path(api, today):
    assert_problem(api.get("daily/tomorrow/leaderboard"), 400, "invalid")
    assert_problem(api.get("daily/2026-02-30/leaderboard"), 400, "invalid")
    later = today + timedelta(days=5)
    assert_problem(api.get(f"daily/{later.isoformat()}/leaderboard"), 404, "not_found")
    assert_problem(api.get("daily/2020-01-01/leaderboard"), 404, "not_found")


# --- Me, around me and where you stand ---------------------------------------------------------


def test_me_is_your_entry_with_a_token_and_null_without(make_player, api, board_url, today):
    made = results(make_player, today, [3, 9, 9, None])
    assert api.get(board_url).json()["me"] is None
    assert api.get(board_url).json()["standing"] is None
    me = made[2][1].get(board_url, {"limit": 1}).json()
    assert me["me"]["rank"] == 1 and me["me"]["player"]["name"] == "P2"
    assert me["standing"] == {"status": "won", "rank": 1, "score": 9, "ahead": 0, "behind": 2,
                              "better_than_percent": 67, "ranked": True,
                              "would_rank": None, "would_better_than_percent": None}
    assert made[3][1].get(board_url).json()["me"] is None


def test_around_me_shows_the_entries_just_above_and_below(make_player, board_url, today):
    made = results(make_player, today, list(range(24, 4, -1)))  # P0 24 ... P19 5
    body = made[10][1].get(board_url, {"around": "me", "limit": 5}).json()
    assert [name for _, name, _ in ranked(body)] == ["P8", "P9", "P10", "P11", "P12"]
    assert body["me"]["rank"] == 11
    following = made[10][1].get(body["next"]).json()
    assert ranked(following)[0][1] == "P13"


def test_around_me_near_the_top_fills_the_page_from_below(make_player, board_url, today):
    made = results(make_player, today, [20, 15, 10, 5])
    body = made[0][1].get(board_url, {"around": "me", "limit": 3}).json()
    assert [name for _, name, _ in ranked(body)] == ["P0", "P1", "P2"]


def test_around_me_near_the_bottom_fills_the_page_from_above(make_player, board_url, today):
    made = results(make_player, today, [20, 15, 10, 5])
    body = made[3][1].get(board_url, {"around": "me", "limit": 3}).json()
    assert [name for _, name, _ in ranked(body)] == ["P1", "P2", "P3"]
    assert body["next"] is None


def test_around_me_without_a_rank_shows_the_bottom_of_the_board(make_player, board_url, today):
    made = results(make_player, today, [20, 15, 10, 5, None])
    body = made[4][1].get(board_url, {"around": "me", "limit": 2}).json()
    assert [name for _, name, _ in ranked(body)] == ["P2", "P3"]
    assert body["next"] is None


def test_around_me_needs_a_token(api, board_url):
    assert_problem(api.get(board_url, {"around": "me"}), 401, "not_authenticated")


def test_standing_tells_a_loser_and_a_player_still_playing_where_they_stand(make_player,
                                                                           board_url, today):
    made = results(make_player, today, [10, 4, None])
    loser = made[2][1].get(board_url).json()["standing"]
    assert loser == {"status": "lost", "rank": None, "score": None, "ahead": 2, "behind": 0,
                     "better_than_percent": 0, "ranked": True, "would_rank": None,
                     "would_better_than_percent": None}
    player, api = make_player("Busy")
    daily_result(player, today, status="playing")
    assert api.get(board_url).json()["standing"]["status"] == "playing"
    bottom = made[1][1].get(board_url).json()["standing"]
    assert (bottom["rank"], bottom["ahead"], bottom["behind"]) == (2, 1, 2)
    assert bottom["better_than_percent"] == 67


# --- Week and all time ---------------------------------------------------------------------


def test_week_and_all_time_boards_add_up_wins(make_player, api, today, settings):
    settings.FOURSQUARE_LAUNCH_DATE = today - timedelta(days=30)
    monday = today - timedelta(days=today.weekday())
    other = another_day_of_its_week(today)
    ada, _ = make_player("Ada")
    bob, _ = make_player("Bob")
    cy, _ = make_player("Cy")
    daily_result(ada, other, 10, finished_at=at(1))
    daily_result(ada, today, 5, finished_at=at(9))
    daily_result(bob, today, 15, finished_at=at(2))  # same total as Ada, fewer wins
    daily_result(cy, other, 8, finished_at=at(0))
    daily_result(cy, today, 7, finished_at=at(3))  # same total and wins as Ada, earlier
    daily_result(bob, monday - timedelta(days=7), 24, finished_at=at(0))  # the week before
    week = api.get("leaderboard", {"period": "week", "date": today.isoformat()}).json()
    assert [(e["rank"], e["player"]["name"], e["score"], e["wins"]) for e in week["entries"]] \
        == [(1, "Cy", 15, 2), (1, "Ada", 15, 2), (3, "Bob", 15, 1)]
    assert (week["start"], week["end"]) == (monday.isoformat(),
                                            (monday + timedelta(days=6)).isoformat())
    assert week["number"] is None and week["distribution"] == {"15": 3}
    every = api.get("leaderboard", {"period": "all"}).json()
    assert next((e["player"]["name"], e["score"], e["games"], e["best"])
            for e in every["entries"]) == ("Bob", 39, 2, 24)
    assert every["end"] is None


def test_week_standing_of_a_player_without_a_win(make_player, today):
    player, api = make_player()
    daily_result(player, today)
    standing = api.get("leaderboard", {"period": "week"}).json()["standing"]
    assert standing["status"] == "played" and standing["rank"] is None


def test_the_week_is_the_dailys_iso_week():
    from datetime import date

    assert week_key(date(2026, 12, 31)) == "2026-W53"
    assert week_key(date(2027, 1, 3)) == "2026-W53"
    assert week_key(date(2027, 1, 4)) == "2027-W01"


# --- The hooks in the game service -----------------------------------------------------------


def test_a_daily_won_through_the_api_is_ranked_at_once(player_api, board_url, today):
    winning_daily(today)
    game = player_api.post("games", {"mode": "daily"}).json()
    assert player_api.get("daily").json()["players"] == 1
    game_before_last_move(game["id"])
    row, col = WINNING_MOVES[-1]
    finished = player_api.post(f"games/{game['id']}/moves", {"row": row, "col": col}).json()
    assert finished["status"] == "won" and finished["score"] == 0
    body = player_api.get(board_url).json()
    assert body["me"]["score"] == 0 and body["me"]["rank"] == 1
    assert body["me"]["finished_at"] == finished["finished_at"]
    daily = player_api.get("daily").json()
    assert (daily["players"], daily["winners"]) == (1, 1)
    assert daily["your_game"]["id"] == game["id"]


def test_a_lost_daily_counts_as_played_only(player_api, board_url, today):
    winning_daily(today)
    game = player_api.post("games", {"mode": "daily"}).json()
    game_before_last_move(game["id"])
    row, col = losing_last_move()
    assert player_api.post(f"games/{game['id']}/moves",
                           {"row": row, "col": col}).json()["status"] == "lost"
    body = player_api.get(board_url).json()
    assert (body["players"], body["winners"], body["entries"]) == (1, 0, [])
    assert body["standing"]["status"] == "lost"


def test_starting_a_daily_again_counts_one_player(player_api, today):
    for _ in range(3):
        player_api.post("games", {"mode": "daily"})
    assert Board.objects.get(key=today.isoformat()).players == 1
    assert Standing.objects.get(board__key="all").games == 1


def test_archive_and_practice_games_never_rank(player_api, today, settings):
    settings.FOURSQUARE_LAUNCH_DATE = today - timedelta(days=30)
    past = today - timedelta(days=5)
    winning_daily(past)
    game = player_api.post("games", {"mode": "archive", "date": past.isoformat()}).json()
    game_before_last_move(game["id"])
    row, col = WINNING_MOVES[-1]
    won = player_api.post(f"games/{game['id']}/moves", {"row": row, "col": col}).json()
    assert won["status"] == "won" and won["mode"] == "archive"
    practice = player_api.post("games", {"mode": "practice", "deal": won["deal"]}).json()
    game_before_last_move(practice["id"])
    assert player_api.post(f"games/{practice['id']}/moves",
                           {"row": row, "col": col}).json()["status"] == "won"
    assert not Board.objects.exists() and not Standing.objects.exists()


def test_a_daily_move_that_does_not_finish_adds_no_query(player_api, today):
    winning_daily(today)
    game = player_api.post("games", {"mode": "daily"}).json()
    player_api.post(f"games/{game['id']}/moves", {"row": 0, "col": 0})
    with CaptureQueriesContext(connection) as queries:
        response = player_api.post(f"games/{game['id']}/moves", {"row": 0, "col": 0},
                                   HTTP_IDEMPOTENCY_KEY="daily-move")
    assert response.status_code == 200
    assert not any("boards_" in query["sql"] for query in queries)


FINISHING_QUERIES = 3  # standings, score counts, and the boards whose winners grow


@pytest.mark.parametrize("last", ["winning", "losing"])
def test_a_finishing_move_costs_a_bounded_number_of_extra_queries(player_api, today, last):
    winning_daily(today)
    game = player_api.post("games", {"mode": "daily"}).json()
    game_before_last_move(game["id"])
    row, col = WINNING_MOVES[-1] if last == "winning" else losing_last_move()
    with CaptureQueriesContext(connection) as queries:
        response = player_api.post(f"games/{game['id']}/moves", {"row": row, "col": col},
                                   HTTP_IDEMPOTENCY_KEY="last-move")
    assert response.status_code == 200
    board_queries = [query["sql"] for query in queries if "boards_" in query["sql"]]
    assert len(board_queries) <= (FINISHING_QUERIES if last == "winning" else 0), board_queries


def test_rebuilding_from_the_games_gives_the_counters_the_hooks_kept(make_player, today,
                                                                     settings):
    settings.FOURSQUARE_LAUNCH_DATE = today - timedelta(days=30)
    players = [make_player(name)[0] for name in ("Ann", "Ben", "Col")]
    for index, (who, days_ago, score) in enumerate(
            [(0, 0, 5), (1, 0, None), (2, 0, 5), (0, 1, 24), (1, 8, 0), (0, 2, None)]):
        daily_result(players[who], today - timedelta(days=days_ago), score, finished_at=at(index))
    kept = counters()
    boards.boards_rebuild(game_model=Game)
    assert counters() == kept


def counters():
    """Every board's counters, standings and score counts, keyed by board key."""
    return (
        sorted(Board.objects.values_list("key", "kind", "players", "winners")),
        sorted(Standing.objects.values_list("board__key", "player_id", "games", "wins", "total",
                                            "best", "reached_at")),
        sorted(ScoreCount.objects.filter(count__gt=0).values_list("board__key", "total", "wins",
                                                                  "count")),
    )


@pytest.mark.django_db(transaction=True)
def test_concurrent_finishes_keep_every_counter_exact(make_player, today):
    winning_daily(today)
    losing = losing_last_move()
    made = [make_player() for _ in range(6)]
    games = [api.post("games", {"mode": "daily"}).json()["id"] for _, api in made]
    for game_id in games:
        game_before_last_move(game_id)

    def finish(index):
        row, col = WINNING_MOVES[-1] if index % 3 else losing
        return made[index][1].post(f"games/{games[index]}/moves", {"row": row, "col": col})

    responses = race(finish, count=len(made))
    assert [response.status_code for response in responses] == [200] * len(made)
    day = Board.objects.get(key=today.isoformat())
    won = Game.objects.filter(status="won", mode="daily")
    assert (day.players, day.winners) == (6, won.count()) == (6, 4)
    assert ScoreCount.objects.get(board=day, total=0, wins=1).count == 4
    global_day = Board.objects.get(key=ranked_key(today.isoformat()))  # all six are trusted
    assert (global_day.players, global_day.winners) == (6, 4)
    assert ScoreCount.objects.get(board=global_day, total=0, wins=1).count == 4
    kept = counters()
    boards.boards_rebuild(game_model=Game)
    assert counters() == kept


def test_a_win_whose_start_was_never_counted_is_counted_whole(make_player, today):
    player, _api = make_player()
    daily = winning_daily(today)
    game = Game.objects.create(player=player, mode="daily", daily=daily, deal=daily.deal,
                               status="won", score=7, finished_at=at(0), ranked=True)
    boards.daily_result_record(game=game)  # no daily_start_record before it
    kept = counters()
    assert [board[2:] for board in kept[0]] == [(1, 1)] * 6  # day, week, all; ranked too
    boards.boards_rebuild(game_model=Game)
    assert counters() == kept
