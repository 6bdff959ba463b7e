"""Only trusted accounts rank on the global boards: claimed at least 24 hours before the daily
first opened anywhere. Leagues and a player's own statistics count every daily."""

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from server.boards import services as boards
from server.boards.models import Board, ScoreCount, Standing
from server.boards.periods import ranked_key, week_key
from server.dailies import calendar
from server.foursquare.models import Game
from server.players.models import Player
from tests.server.boards.test_boards import counters
from tests.server.results import (
    WINNING_MOVES,
    at,
    daily_result,
    game_before_last_move,
    winning_daily,
)

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

PASSWORD = "difference-engine-1843"


@pytest.fixture
def today():
    return calendar.utc_today()


def board(api, period="day", date=None):
    params = {"period": period, "date": (date or calendar.utc_today()).isoformat()}
    response = api.get("leaderboard", params)
    assert response.status_code == 200, response.content
    return response.json()


def names(body) -> list[str]:
    return [entry["player"]["name"] for entry in body["entries"]]


def league_of(owner_api, *member_apis) -> str:
    league = owner_api.post("leagues", {"name": "Kitchen Table"}).json()
    for api in member_apis:
        assert api.post("leagues/join", {"code": league["code"]}).status_code == 200
    return f"leagues/{league['id']}/leaderboard"


def win_through_the_api(api, day=None) -> dict:
    """Start the daily of ``day`` (dealt with the winning deck) and win it with score 0."""
    game = api.post("games", {"mode": "daily", **({"date": day.isoformat()} if day else {})})
    assert game.status_code in (200, 201), game.content
    game_before_last_move(game.json()["id"])
    finished = api.post(f"games/{game.json()['id']}/moves", dict(zip(
        ("row", "col"), WINNING_MOVES[-1], strict=True)))
    assert finished.status_code == 200 and finished.json()["status"] == "won"
    return finished.json()


# --- The rule ----------------------------------------------------------------------------------


def test_trust_needs_an_account_claimed_a_day_before_the_daily_first_opened(make_player,
                                                                           today):
    guest, _ = make_player()
    assert not boards.player_ranked_on(guest, today)
    assert not boards.player_ranked_on(guest, today + timedelta(days=30))  # a guest never

    # Daily D first opens at midnight in UTC+14: 10:00 UTC on D-1. Trusted for D: claimed at
    # least 24 hours before that, so by 10:00 UTC on D-2.
    day = today + timedelta(days=5)
    opens = datetime.combine(day, datetime.min.time(), tzinfo=UTC) - timedelta(hours=14)
    assert calendar.opens_at(day) == opens
    player, _ = make_player()
    player.claimed_at = opens - timedelta(hours=24)
    assert boards.player_ranked_on(player, day)
    player.claimed_at = opens - timedelta(hours=24) + timedelta(seconds=1)
    assert not boards.player_ranked_on(player, day)
    # In whatever time zone the timestamp is written.
    player.claimed_at = (opens - timedelta(hours=24)).astimezone(
        timezone.get_fixed_timezone(-12 * 60))
    assert boards.player_ranked_on(player, day)


def test_an_account_made_and_claimed_where_the_date_came_first_is_not_trusted(make_player):
    # The way around the old rule: at 10:00 UTC on D-1 daily D is open in Kiribati; an account
    # created and claimed then was "created before D" in UTC, and could rank with the deal it
    # just saw.
    day = calendar.utc_today() + timedelta(days=3)
    player, _ = make_player()
    player.created_at = player.claimed_at = calendar.opens_at(day)
    assert not boards.player_ranked_on(player, day)
    assert boards.player_ranked_on(player, day + timedelta(days=1))  # opens 24 h later
    player.created_at = player.claimed_at = calendar.opens_at(day) + timedelta(minutes=1)
    assert not boards.player_ranked_on(player, day + timedelta(days=1))
    assert boards.player_ranked_on(player, day + timedelta(days=2))


# --- Through the API ---------------------------------------------------------------------------


def test_a_guests_win_is_on_its_league_board_but_not_on_the_global_ones(make_player,
                                                                        make_trusted_player,
                                                                        api, today):
    winning_daily(today)
    _guest, guest_api = make_player("Guest")
    _, friend_api = make_trusted_player("Friend")
    url = league_of(friend_api, guest_api)

    game = win_through_the_api(guest_api)
    assert game["ranked"] is False
    assert guest_api.get(f"daily?date={today.isoformat()}").json()["your_game"]["ranked"] is False

    for period in ("day", "week", "all"):
        body = board(api, period)
        assert (body["players"], body["winners"], body["entries"]) == (0, 0, [])
        mine = board(guest_api, period)
        assert mine["me"] is None
        assert mine["standing"] == {"status": "won", "rank": None, "score": None, "ahead": 0,
                                    "behind": 0, "better_than_percent": None, "ranked": False,
                                    # First among no ranked players, with no share of them.
                                    "would_rank": 1 if period == "day" else None,
                                    "would_better_than_percent": None}
        league = guest_api.get(url, {"period": period}).json()
        assert names(league) == ["Guest"] and (league["players"], league["winners"]) == (1, 1)
        assert league["standing"]["ranked"] is True and league["standing"]["rank"] == 1
    daily = api.get(f"daily/{today.isoformat()}/leaderboard").json()
    assert (daily["players"], daily["winners"], daily["entries"]) == (0, 0, [])
    assert api.get("daily").json()["players"] == 0

    stats = guest_api.get("players/me/stats").json()  # a player's own dailies all count
    assert (stats["played"], stats["won"], stats["distribution"]["0"]) == (1, 1, 1)
    assert (stats["recent"][0]["rank"], stats["recent"][0]["ranked"]) == (None, False)


def test_a_claimed_account_created_before_the_day_is_ranked(make_trusted_player, api, today):
    winning_daily(today)
    _, ada = make_trusted_player("Ada")
    game = win_through_the_api(ada)
    assert game["ranked"] is True
    for period in ("day", "week", "all"):
        body = board(ada, period)
        assert names(body) == ["Ada"] and (body["players"], body["winners"]) == (1, 1)
        assert body["standing"]["ranked"] is True and body["standing"]["rank"] == 1
    assert api.get("daily").json()["players"] == 1
    assert ada.get("players/me/stats").json()["recent"][0]["rank"] == 1


def test_an_account_created_today_is_not_ranked_today_even_claimed(make_player, api, today):
    winning_daily(today)
    player, new = make_player("Newcomer")
    claimed = new.post("players/me/claim", {"username": "newcomer", "password": PASSWORD})
    assert claimed.status_code == 200
    assert win_through_the_api(new)["ranked"] is False
    assert board(api)["entries"] == [] and board(new)["standing"]["ranked"] is False
    player.refresh_from_db()
    # From the first daily that opens a day after the claim, whatever the hour now. (The claim
    # has the wall clock's time; its date is today's unless TEST_DAILIES_CLOCK moved today.)
    claimed_on = calendar.utc_today(player.claimed_at)
    assert not boards.player_ranked_on(player, claimed_on + timedelta(days=1))
    assert boards.player_ranked_on(player, claimed_on + timedelta(days=3))


def test_claiming_during_the_day_changes_nothing_of_that_days_game(make_player, api, today):
    winning_daily(today)
    player, guest = make_player("Latecomer")
    Player.objects.filter(pk=player.pk).update(created_at=timezone.now() - timedelta(days=9))
    started = guest.post("games", {"mode": "daily"}).json()
    assert started["ranked"] is False
    claimed = guest.post("players/me/claim", {"username": "latecomer", "password": PASSWORD})
    assert claimed.status_code == 200
    assert guest.post("games", {"mode": "daily"}).json()["ranked"] is False  # the same game
    game_before_last_move(started["id"])
    finished = guest.post(f"games/{started['id']}/moves", dict(zip(
        ("row", "col"), WINNING_MOVES[-1], strict=True)))
    assert finished.json()["ranked"] is False
    assert Game.objects.get(pk=started["id"]).ranked is False
    assert board(api)["players"] == 0 and board(guest)["standing"]["ranked"] is False
    # Claimed now: the dailies that open a day after it will rank.
    player.refresh_from_db()
    claimed_on = calendar.utc_today(player.claimed_at)
    assert boards.player_ranked_on(player, claimed_on + timedelta(days=3))


def test_practice_and_archive_games_are_never_ranked(make_trusted_player, settings, today):
    settings.FOURSQUARE_LAUNCH_DATE = today - timedelta(days=10)
    _, ada = make_trusted_player()
    practice = ada.post("games", {"mode": "practice"}).json()
    archive = ada.post("games", {"mode": "archive",
                                 "date": (today - timedelta(days=5)).isoformat()}).json()
    assert practice["ranked"] is False and archive["ranked"] is False


# --- The counters ------------------------------------------------------------------------------


@pytest.fixture
def mixed_day(make_player, make_trusted_player, today, settings):
    """Today: trusted players win 9 and 5 and lose; guests win 20 and 9 and lose; one guest
    is still playing. Yesterday a trusted player won 3 and a guest 7."""
    settings.FOURSQUARE_LAUNCH_DATE = today - timedelta(days=30)
    trusted = [make_trusted_player(f"T{index}") for index in range(3)]
    guests = [make_player(f"G{index}") for index in range(4)]
    yesterday = today - timedelta(days=1)  # finished first, recorded first
    daily_result(trusted[0][0], yesterday, 3, finished_at=at(-100))
    daily_result(guests[0][0], yesterday, 7, finished_at=at(-90))
    for index, ((player, _), score) in enumerate(zip(trusted, [9, 5, None], strict=True)):
        daily_result(player, today, score, finished_at=at(index))
    for index, ((player, _), score) in enumerate(zip(guests, [20, 9, None], strict=False)):
        daily_result(player, today, score, finished_at=at(10 + index))
    daily_result(guests[3][0], today, status="playing")
    return trusted, guests


def test_global_counts_and_distribution_leave_unranked_games_out(mixed_day, api, today):
    trusted, guests = mixed_day
    body = board(api)
    assert [(e["rank"], e["player"]["name"], e["score"]) for e in body["entries"]] == [
        (1, "T0", 9), (2, "T1", 5)]
    assert (body["players"], body["winners"]) == (3, 2)
    assert {score: n for score, n in body["distribution"].items() if n} == {"9": 1, "5": 1}
    assert (api.get("daily").json()["players"], api.get("daily").json()["winners"]) == (3, 2)
    assert api.get(f"daily/{today.isoformat()}/leaderboard").json()["players"] == 3

    overall = board(api, "all")
    assert [(e["player"]["name"], e["score"], e["wins"]) for e in overall["entries"]] == [
        ("T0", 12, 2), ("T1", 5, 1)]
    assert (overall["players"], overall["winners"]) == (3, 2)

    # A lost trusted player is behind both winners; nobody unranked counts among the others.
    loser = board(trusted[2][1])["standing"]
    assert (loser["ahead"], loser["behind"], loser["better_than_percent"]) == (2, 0, 0)
    assert loser["ranked"] is True
    playing = board(guests[3][1])["standing"]
    assert (playing["status"], playing["ranked"], playing["ahead"]) == ("playing", False, 2)

    # Everyone's boards, which leagues read, still count every game.
    everyone = Board.objects.get(key=today.isoformat())
    assert (everyone.players, everyone.winners) == (7, 4)
    league = trusted[0][1].get(league_of(trusted[0][1], *(api for _, api in guests))).json()
    assert [(e["rank"], e["player"]["name"]) for e in league["entries"]] == [
        (1, "G0"), (2, "T0"), (2, "G1")]
    assert (league["players"], league["winners"]) == (5, 3)


def test_the_ranked_boards_hold_only_ranked_games(mixed_day, today):
    trusted, _ = mixed_day
    ranked_day = Board.objects.get(key=ranked_key(today.isoformat()))
    assert {row.player_id for row in Standing.objects.filter(board=ranked_day)} == {
        player.pk for player, _ in trusted}
    assert sorted(ScoreCount.objects.filter(board=ranked_day, count__gt=0)
                  .values_list("total", "count")) == [(5, 1), (9, 1)]
    assert Board.objects.get(key=ranked_key(week_key(today))).kind == "week"
    assert Board.objects.get(key=ranked_key("all")).kind == "all"


def test_recounting_from_the_games_agrees_with_the_hooks(mixed_day):
    kept = counters()
    assert any(key.endswith(":ranked") for key, *_ in kept[0])
    boards.boards_rebuild(game_model=Game)
    assert counters() == kept
