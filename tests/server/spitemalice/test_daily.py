"""The Spite & Malice daily: one deal for everyone on a date, one per player, its boards
(global and league), and the players' statistics."""

from __future__ import annotations

import hashlib
import hmac
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction

from server.boards.models import Board, Standing
from server.dailies import calendar
from server.foursquare.dailies import daily_seed as foursquare_seed
from server.spitemalice import services
from server.spitemalice.models import Match, MatchGame
from tests.server.conftest import assert_problem
from tests.server.spitemalice.support import act, daily_won, play_out, url

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

BOARD = "spite-malice/daily/{}/leaderboard"


@pytest.fixture
def today(dailies_clock):
    """Today in UTC, the dailies' clock at 11:00 UTC: the hour when yesterday's, today's and
    tomorrow's dailies are all being played somewhere (UTC-12 to UTC+14), so that a test
    playing the day before passes wherever the wall clock stands (and whichever instant
    ``TEST_DAILIES_CLOCK`` chose)."""
    dailies_clock.set(dailies_clock().replace(hour=11, minute=0, second=0, microsecond=0))
    return dailies_clock.today


def test_the_daily_is_created_once_per_player_and_date(player_api, today):
    first = player_api.post("spite-malice/matches", {"mode": "daily"})
    again = player_api.post("spite-malice/matches", {"mode": "daily",
                                                     "date": today.isoformat()})

    assert first.status_code == 201 and again.status_code == 200
    assert first["Location"].endswith(f"/spite-malice/matches/{first.json()['id']}")
    assert again.json()["id"] == first.json()["id"]
    match = first.json()
    assert (match["mode"], match["level"], match["target"], match["date"]) == (
        "daily", "normal", 1, today.isoformat())
    assert match["seats"][1]["bot"] == "normal"


def test_the_database_allows_one_daily_per_player_and_date(make_player, today):
    player, _ = make_player()
    match, _ = services.match_start_daily(player=player, day=today)
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(mode="daily", level="normal", target=1, seed=match.seed,
                             player0=player, bot_seat=1, daily=today)


def test_the_daily_deal_is_the_same_for_everyone_and_differs_by_date(make_player, today):
    _, ada = make_player()
    _, bob = make_player()
    a = ada.post("spite-malice/matches", {"mode": "daily"}).json()
    b = bob.post("spite-malice/matches", {"mode": "daily"}).json()
    seeds = [MatchGame.objects.get(match_id=m["id"], number=1).seed for m in (a, b)]
    assert seeds[0] == seeds[1]
    assert a["game"] == b["game"]  # the same deal, and the bot's same first turn if it starts
    other = ada.post("spite-malice/matches", {"mode": "daily",
                                              "date": (today - timedelta(days=1)).isoformat()})
    assert other.status_code == 201
    assert MatchGame.objects.get(match_id=other.json()["id"], number=1).seed != seeds[0]


def test_the_daily_deal_comes_from_the_secret_and_is_not_foursquares(settings, today):
    settings.SPITE_MALICE_DAILY_SECRET = "one secret"
    first = services.daily_seed(today)
    settings.SPITE_MALICE_DAILY_SECRET = "another secret"
    assert services.daily_seed(today) != first
    expected = hmac.new(b"one secret", f"spite-malice-daily/{today.isoformat()}".encode(),
                        hashlib.sha256).digest()
    assert first == expected
    settings.FOURSQUARE_DAILY_SECRET = "one secret"
    assert foursquare_seed(today) != first


def test_a_dealt_daily_keeps_its_deal_when_the_secret_changes(make_player, settings, today):
    _, ada = make_player()
    _, bob = make_player()
    a = ada.post("spite-malice/matches", {"mode": "daily"}).json()
    settings.SPITE_MALICE_DAILY_SECRET = "rotated"
    b = bob.post("spite-malice/matches", {"mode": "daily"}).json()
    assert a["game"] == b["game"]


def test_the_daily_window_is_foursquares(player_api):
    first, last = calendar.current_dates()
    for day in (first, last):
        assert player_api.post("spite-malice/matches",
                               {"mode": "daily", "date": day.isoformat()}).status_code == 201
    for day in (first - timedelta(days=1), last + timedelta(days=1)):
        assert_problem(player_api.post("spite-malice/matches",
                                       {"mode": "daily", "date": day.isoformat()}),
                       422, "daily_unavailable")
    assert Match.objects.count() == 2


def test_a_daily_whose_date_closed_takes_no_more_actions(player_api, make_player):
    match = player_api.post("spite-malice/matches", {"mode": "daily"}).json()
    closed = calendar.current_dates()[0] - timedelta(days=1)
    Match.objects.filter(pk=match["id"]).update(daily=closed)
    body = assert_problem(act(player_api, match, match["game"]["legal_actions"][0]), 409,
                          "game_over")
    assert "closed" in body["detail"]

    # Read again, it says so: over, unfinished, nobody's win, nothing left to play.
    over = player_api.get(url(match)).json()
    assert (over["status"], over["reason"], over["winner"]) == ("finished", "unfinished", None)
    assert over["game"]["legal_actions"] == [] and over["game"]["turn"] is None
    last = player_api.get(url(match, "/events")).json()["events"][-1]
    assert (last["kind"], last["reason"]) == ("match_over", "unfinished")
    assert Match.objects.get(pk=match["id"]).finished_at == calendar.closes_at(closed)
    assert services.dailies_close() == 0  # once


def test_no_hints_in_a_daily(player_api):
    match = player_api.post("spite-malice/matches", {"mode": "daily"}).json()
    assert_problem(player_api.get(url(match, "/hint")), 403, "hints_not_allowed")


def test_a_finished_daily_is_counted_on_its_board_in_the_same_transaction(
        make_trusted_player, api, today):
    player, player_api = make_trusted_player("Ada")
    match = player_api.post("spite-malice/matches", {"mode": "daily"}).json()

    def hard(game: dict) -> list[str]:  # the hard bot plays the person's seat
        locked, current = services.match_lock(player=player, match_id=match["id"])
        return services.hint_of(match=locked, game=current, seat=0)

    over = play_out(player_api, match, policy=hard)
    board = api.get(BOARD.format(today.isoformat())).json()
    assert board["players"] == 1 and board["reference"] is None
    assert set(board["distribution"]) == {str(points) for points in range(1, 21)}
    if over["winner"] == 0:
        points = over["game"]["points"]
        assert board["winners"] == 1 and board["entries"][0]["score"] == points
        assert board["distribution"][str(points)] == 1
    else:
        assert board["winners"] == 0 and board["entries"] == []
    mine = player_api.get(BOARD.format(today.isoformat())).json()["standing"]
    assert mine["status"] == ("won" if over["winner"] == 0 else "lost")


def test_the_daily_board_ranks_by_points_with_ties_sharing_a_rank(make_trusted_player, api,
                                                                   today):
    from django.utils import timezone

    start = timezone.now()
    ada, bob, cy, dee = (make_trusted_player(name)[0] for name in ("Ada", "Bob", "Cy", "Dee"))
    daily_won(bob, today, 7, start + timedelta(minutes=2))
    daily_won(ada, today, 7, start + timedelta(minutes=1))
    daily_won(cy, today, 12, start + timedelta(minutes=3))
    services.match_start_daily(player=dee, day=today)  # started, not won

    board = api.get(BOARD.format(today.isoformat())).json()
    assert (board["players"], board["winners"]) == (4, 3)
    assert [(e["rank"], e["player"]["name"], e["score"]) for e in board["entries"]] == [
        (1, "Cy", 12), (2, "Ada", 7), (2, "Bob", 7)]
    assert board["distribution"]["7"] == 2 and board["distribution"]["12"] == 1
    assert board["number"] == calendar.daily_number(today)
    page = api.get(BOARD.format(today.isoformat()), {"limit": 1}).json()
    assert len(page["entries"]) == 1 and page["next"]
    assert api.get(page["next"]).json()["entries"][0]["player"]["name"] == "Ada"
    # Foursquare's board of the day is another board.
    assert api.get(f"daily/{today.isoformat()}/leaderboard").json()["players"] == 0


def test_the_global_board_counts_trusted_accounts_only_and_around_me(make_player,
                                                                      make_trusted_player,
                                                                      today):
    guest, guest_api = make_player("Guest")
    trusted, trusted_api = make_trusted_player("Trusted")
    daily_won(guest, today, 15)
    daily_won(trusted, today, 3)
    board = guest_api.get(BOARD.format(today.isoformat()), {"around": "me"}).json()
    assert [e["player"]["name"] for e in board["entries"]] == ["Trusted"]
    assert board["me"] is None and board["standing"]["ranked"] is False
    mine = trusted_api.get(BOARD.format(today.isoformat()), {"around": "me"}).json()
    assert mine["me"]["rank"] == 1 and mine["standing"]["status"] == "won"


def test_the_bots_result_is_never_ranked(make_trusted_player, api, today):
    player, _ = make_trusted_player()
    match, _ = services.match_start_daily(player=player, day=today)
    services.match_resign(match=match, game=MatchGame.objects.get(match=match, number=1),
                          player=player)  # the bot wins
    board = api.get(BOARD.format(today.isoformat())).json()
    assert (board["players"], board["winners"], board["entries"]) == (1, 0, [])


def test_the_day_board_tells_a_player_still_playing_then_lost_where_they_stand(
        make_trusted_player, today):
    player, player_api = make_trusted_player()
    board = BOARD.format(today.isoformat())
    assert player_api.get(board).json()["standing"]["status"] == "not_started"
    match, _ = services.match_start_daily(player=player, day=today)
    assert player_api.get(board).json()["standing"]["status"] == "playing"
    services.match_resign(match=match, game=MatchGame.objects.get(match=match, number=1),
                          player=player)
    standing = player_api.get(board).json()["standing"]
    assert (standing["status"], standing["rank"]) == ("lost", None)


def test_the_spite_malice_daily_mirrors_foursquares(make_trusted_player, api, today):
    player, player_api = make_trusted_player()
    daily_won(player, today, 9)
    summary = player_api.get("spite-malice/daily").json()
    assert summary["date"] == today.isoformat() and (summary["players"], summary["winners"]) \
        == (1, 1)
    assert summary["your_match"]["mode"] == "daily" and summary["your_match"]["winner"] == 0
    anonymous = api.get("spite-malice/daily", {"date": today.isoformat()}).json()
    assert anonymous["your_match"] is None
    assert_problem(api.get("spite-malice/daily", {"date": "2020-01-01"}), 404, "not_found")
    assert_problem(api.get(BOARD.format("2020-01-01")), 404, "not_found")
    assert_problem(api.get(BOARD.format("someday")), 400, "invalid")


def test_league_boards_show_spite_malice_with_the_game_parameter(make_player, today):
    _owner, owner_api = make_player("Owner")
    member, member_api = make_player("Member")
    league = owner_api.post("leagues", {"name": "Cards club"}).json()
    assert member_api.post("leagues/join", {"code": league["code"]}).status_code == 200
    daily_won(member, today, 11)  # a guest: not on the global board, but among the members
    path = f"leagues/{league['id']}/leaderboard"

    spite = owner_api.get(path, {"game": "spite-malice"}).json()
    assert [(e["player"]["name"], e["score"]) for e in spite["entries"]] == [("Member", 11)]
    assert spite["standing"]["status"] == "not_started"
    assert owner_api.get(path).json()["entries"] == []  # foursquare by default
    assert owner_api.get(path, {"game": "foursquare"}).json()["entries"] == []
    week = owner_api.get(path, {"game": "spite-malice", "period": "week"}).json()
    assert week["entries"][0]["score"] == 11
    assert_problem(owner_api.get(path, {"game": "chess"}), 400, "invalid")
    assert Board.objects.filter(key__startswith="spite-malice/").count() == 3


def test_stats_gain_a_spite_malice_section(make_player, api, today):
    player, player_api = make_player()
    daily_won(player, today - timedelta(days=1), 5)
    daily_won(player, today, 8)
    bot_match = player_api.post("spite-malice/matches",
                                {"opponent": "bot", "level": "easy", "target": 50}).json()
    player_api.post(url(bot_match, "/resign"))

    stats = player_api.get("players/me/stats").json()["spite_malice"]
    assert stats["matches"] == {"played": 3, "won": 2, "lost": 1, "tied": 0}
    assert stats["games"] == {"played": 3, "won": 2, "lost": 1, "tied": 0}
    assert (stats["dailies_played"], stats["dailies_won"]) == (2, 2)
    assert (stats["current_win_streak"], stats["longest_win_streak"]) == (2, 2)
    assert stats["distribution"]["5"] == 1 and stats["distribution"]["8"] == 1
    assert set(stats["distribution"]) == {str(points) for points in range(1, 21)}
    assert stats["best_daily"] == {"date": today.isoformat(),
                                   "number": calendar.daily_number(today), "points": 8}
    public = api.get(f"players/{player.pk}").json()["spite_malice"]
    assert public == stats
    weeks = len({(today - timedelta(days=back)).isocalendar()[:2] for back in (0, 1)})
    assert Standing.objects.filter(player=player, board__key__startswith="spite-malice/")\
        .count() == 2 + weeks + 1  # two days, their week(s), all time (a guest: none ranked)


def test_a_daily_left_unfinished_when_its_date_closed_is_over_and_not_won(make_player,
                                                                          dailies_clock):
    player, player_api = make_player()
    day = calendar.current_dates()[0]  # the earliest date still being played
    player_api.post("spite-malice/matches", {"mode": "daily", "date": day.isoformat()})
    daily_won(player, day + timedelta(days=1), 4)
    later = calendar.closes_at(day) + timedelta(seconds=1)
    dailies_clock.set(later)

    standing = player_api.get(BOARD.format(day.isoformat())).json()["standing"]
    assert standing["status"] == "unfinished"  # before the match was marked over, and after
    stats = player_api.get("players/me/stats").json()["spite_malice"]
    assert (stats["dailies_played"], stats["dailies_won"]) == (2, 1)
    assert (stats["current_win_streak"], stats["longest_win_streak"]) == (1, 1)
    assert stats["matches"] == {"played": 1, "won": 1, "lost": 0, "tied": 0}
    assert Match.objects.get(player0=player, daily=day).reason == "unfinished"
    standing = player_api.get(BOARD.format(day.isoformat())).json()["standing"]
    assert standing["status"] == "unfinished"
