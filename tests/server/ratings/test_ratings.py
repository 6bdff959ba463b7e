"""Glicko-2 ratings of Spite & Malice matches between people: who is rated, by how much (the
``glicko2`` package's own numbers), exactly once, and where the ratings are shown."""

from __future__ import annotations

import uuid
from datetime import timedelta
from types import SimpleNamespace

import glicko2
import pytest
from django.db import transaction
from django.utils import timezone

from server.ratings import services as rating_services
from server.ratings.models import RatedMatch, Rating
from server.ratings.selectors import Cursor
from server.spitemalice import clocks, rating_rules, services
from server.spitemalice.models import Match
from tests.server.concurrently import THREADS, race
from tests.server.conftest import assert_problem
from tests.server.spitemalice.friend_support import friend_match
from tests.server.spitemalice.support import act, greedy

pytestmark = pytest.mark.sqlite

BOARD = "spite-malice/ratings"


def library(rating=1500.0, rd=350.0, vol=0.06, *, against=(1500.0, 350.0), score=1.0,
            idle=0, provisional=True) -> SimpleNamespace:
    """What the library itself makes of one result (``rating``, ``rd``, ``vol``); against a
    ``provisional`` opponent (every opponent here has played fewer than five rated matches)
    the rating moves only its share of the way (``result_weight``)."""
    player = glicko2.Player(rating=rating, rd=rd, vol=vol)
    for _ in range(idle):
        player.did_not_compete()
    before = player.rating
    player.update_player([against[0]], [against[1]], [score])
    weight = rating_services.PROVISIONAL_OPPONENT_WEIGHT if provisional else 1.0
    moved = before + weight * (player.rating - before) if weight < 1 else player.rating
    return SimpleNamespace(rating=moved, rd=player.rd, vol=player.vol)


def rating(player) -> Rating | None:
    return Rating.objects.filter(game="spite-malice", player=player).first()


def end(match: Match, *, winner: int | None, reason: str, at=None) -> None:
    """Mark ``match`` finished with this result (and reload it), without rating it."""
    Match.objects.filter(pk=match.pk).update(status="finished", winner=winner, reason=reason,
                                             turn=None, finished_at=at or timezone.now())
    match.refresh_from_db()


def finish(match: Match, *, winner: int | None, reason: str, at=None) -> None:
    """End ``match`` as the finishing transaction does and call the ratings' hook in it (for
    the endings no service offers yet, or that a real game reaches only by chance: a tie)."""
    with transaction.atomic():
        end(match, winner=winner, reason=reason, at=at)
        rating_rules.match_rate(match)


def resign(player, match: Match) -> None:
    with transaction.atomic():
        locked, game = services.match_lock(player=player, match_id=match.pk)
        services.match_resign(match=locked, game=game, player=player)


@pytest.fixture
def make_player(make_trusted_player):
    """Every account here is established (claimed 30 days ago), so its matches with another
    may rate: the rules of who rates at all are tests/server/spitemalice/test_rating_rules.py's."""
    return make_trusted_player


@pytest.fixture(autouse=True)
def _no_pair_limit(monkeypatch):
    """The board's tests play the same pairs many times a day: the daily allowance of rated
    matches per pair is lifted here (and tested in
    tests/server/spitemalice/test_rating_rules.py)."""
    monkeypatch.setattr(rating_rules, "PAIR_RATED_PER_DAY", 10_000)


@pytest.fixture
def ada(make_player):
    return make_player("Ada")


@pytest.fixture
def bob(make_player):
    return make_player("Bob")


# --- Which matches rate, and by how much ---------------------------------------------------


def test_a_friend_match_played_to_its_end_rates_both_players(ada, bob):
    (ada_player, ada_api), (bob_player, bob_api) = ada, bob
    match = friend_match(ada_player, bob_player, target=1)
    apis = {0: ada_api, 1: bob_api}
    view = ada_api.get(f"spite-malice/matches/{match.pk}").json()
    for _ in range(5000):
        if view["status"] == "finished":
            break
        turn = view["game"]["turn"]
        seen = apis[turn].get(f"spite-malice/matches/{match.pk}").json()
        response = act(apis[turn], seen, greedy(seen["game"]))
        assert response.status_code == 200, response.content
        view = response.json()
    match.refresh_from_db()
    assert match.status == "finished" and match.reason in ("target", "tied")

    players = {0: ada_player, 1: bob_player}
    if match.winner is None:  # a tied single game: a draw
        expected = {0: library(score=0.5), 1: library(score=0.5)}
    else:
        expected = {match.winner: library(score=1), 1 - match.winner: library(score=0)}
    for seat in (0, 1):
        stored = rating(players[seat])
        assert (stored.rating, stored.deviation, stored.volatility) == (
            expected[seat].rating, expected[seat].rd, expected[seat].vol)
        assert stored.matches == 1 and stored.provisional
    if match.winner is not None:
        assert rating(players[match.winner]).rating > 1500 > rating(
            players[1 - match.winner]).rating
    rated = RatedMatch.objects.get(game="spite-malice", match_id=match.pk)
    assert rated.player_a_id == ada_player.pk and rated.rating_a_before == 1500


def test_a_resignation_rates_as_a_loss(ada, bob):
    (ada_player, _), (bob_player, _) = ada, bob
    match = friend_match(ada_player, bob_player, target=50)

    resign(ada_player, match)

    winner, loser = library(score=1), library(score=0)
    assert rating(bob_player).rating == winner.rating > 1500
    assert rating(ada_player).rating == loser.rating < 1500
    assert rating(ada_player).deviation == loser.rd < 350
    assert RatedMatch.objects.get(match_id=match.pk).score_a == 0


def overdue(match: Match) -> int:
    """Put ``match``'s current turn past its deadline; returns the seat to play."""
    match.refresh_from_db()
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    return match.turn


def test_a_win_over_a_provisional_player_moves_a_rating_a_quarter_as_far(ada, bob,
                                                                        make_player):
    (ada_player, _), (bob_player, _) = ada, bob
    for index in range(6):  # Ada and Bob are established against each other
        finish(friend_match(ada_player if index % 2 else bob_player,
                            bob_player if index % 2 else ada_player, target=1),
               winner=0, reason="target")
    ada_before = rating(ada_player)
    assert not ada_before.provisional
    newcomer, _ = make_player("New")

    finish(friend_match(ada_player, newcomer, target=1), winner=0, reason="target")

    full = library(ada_before.rating, ada_before.deviation, ada_before.volatility,
                   provisional=False)
    moved = rating(ada_player).rating - ada_before.rating
    assert moved == pytest.approx((full.rating - ada_before.rating) * 0.25)
    assert 0 < moved < (full.rating - ada_before.rating) / 3


def test_a_timeout_rates_as_a_loss(ada, bob):
    (ada_player, _), (bob_player, _) = ada, bob
    players = [ada_player, bob_player]
    match = friend_match(ada_player, bob_player, target=25)
    late = overdue(match)

    assert clocks.time_out_if_due(match.pk)

    match.refresh_from_db()
    assert match.reason == "timeout" and match.winner == 1 - late
    assert rating(players[1 - late]).rating == library(score=1).rating
    assert rating(players[late]).rating == library(score=0).rating


@pytest.mark.postgresql  # row locks under threads
@pytest.mark.django_db(transaction=True)
def test_a_timeout_noticed_by_many_at_once_rates_once(ada, bob):
    (ada_player, _), (bob_player, _) = ada, bob
    match = friend_match(ada_player, bob_player, target=1)
    overdue(match)

    assert sorted(race(lambda _: clocks.time_out_if_due(match.pk))) == (
        [False] * (THREADS - 1) + [True])

    assert RatedMatch.objects.count() == 1
    assert rating(ada_player).matches == rating(bob_player).matches == 1


def test_a_tied_single_game_rates_as_a_draw(ada, bob):
    (ada_player, _), (bob_player, _) = ada, bob
    match = friend_match(ada_player, bob_player, target=1)

    finish(match, winner=None, reason="tied")

    draw = library(score=0.5)
    for player in (ada_player, bob_player):
        stored = rating(player)
        assert (stored.rating, stored.deviation, stored.volatility) == (draw.rating, draw.rd,
                                                                        draw.vol)
        assert stored.rating == pytest.approx(1500) and stored.deviation < 350
    assert RatedMatch.objects.get(match_id=match.pk).score_a == 0.5


def test_the_next_match_starts_from_the_ratings_the_last_one_left(ada, bob, make_player):
    (ada_player, _), (bob_player, _) = ada, bob
    cy_player, _ = make_player("Cy")
    resign(bob_player, friend_match(ada_player, bob_player, target=1))
    resign(ada_player, friend_match(cy_player, ada_player, target=1))

    first = library(score=1)
    second = library(first.rating, first.rd, first.vol, against=(1500, 350), score=0)
    cy = library(against=(first.rating, first.rd), score=1)
    assert rating(ada_player).rating == second.rating and rating(ada_player).matches == 2
    assert rating(cy_player).rating == cy.rating


def test_idle_weeks_widen_the_deviation_before_the_next_match(ada, bob):
    (ada_player, _), (bob_player, _) = ada, bob
    long_ago = timezone.now() - timedelta(days=7 * 10 + 3)
    finish(friend_match(ada_player, bob_player, target=1),
           winner=0, reason="target", at=long_ago)
    first_ada, first_bob = library(score=1), library(score=0)

    finish(friend_match(ada_player, bob_player, target=1),
           winner=0, reason="target")

    # Ten whole weeks without a match: ten rating periods without a result, for both.
    before_bob = glicko2.Player(first_bob.rating, first_bob.rd, first_bob.vol)
    for _ in range(10):
        before_bob.did_not_compete()
    expected = library(first_ada.rating, first_ada.rd, first_ada.vol,
                       against=(before_bob.rating, before_bob.rd), idle=10)
    assert rating(ada_player).rating == expected.rating
    assert rating(ada_player).deviation == expected.rd
    rated = RatedMatch.objects.filter(player_a=ada_player).order_by("rated_at").last()
    assert rated.rating_a_before == first_ada.rating


@pytest.mark.parametrize("start", [
    pytest.param(lambda player: services.match_start_bot(player=player, level="easy", target=1),
                 id="bot-easy"),
    pytest.param(lambda player: services.match_start_daily(player=player, day=None)[0],
                 id="daily"),
])
def test_matches_against_the_bot_and_dailies_never_rate(ada, start):
    player, _ = ada
    match = start(player)

    resign(player, match)
    match.refresh_from_db()
    rating_rules.match_rate(match)  # even asked directly

    assert match.status == "finished"
    assert not Rating.objects.exists() and not RatedMatch.objects.exists()


def test_a_match_without_a_result_never_rates(ada, bob):
    (ada_player, _), (bob_player, _) = ada, bob
    match = friend_match(ada_player, bob_player, target=1)

    rating_rules.match_rate(match)  # still being played
    finish(match, winner=None, reason="unfinished")

    assert not RatedMatch.objects.exists()


# --- Exactly once --------------------------------------------------------------------------


def test_a_finish_retried_rates_once(ada, bob):
    (ada_player, _), (bob_player, _) = ada, bob
    match = friend_match(ada_player, bob_player, target=1)
    resign(ada_player, match)
    match.refresh_from_db()

    assert rating_rules.match_rate(match) is None

    assert rating(ada_player).matches == rating(bob_player).matches == 1
    assert rating(bob_player).rating == library(score=1).rating
    assert RatedMatch.objects.count() == 1


@pytest.mark.postgresql  # row locks under threads
@pytest.mark.django_db(transaction=True)
def test_finishes_raced_in_parallel_rate_once(ada, bob):
    (ada_player, _), (bob_player, _) = ada, bob
    match = friend_match(ada_player, bob_player, target=1)
    end(match, winner=1, reason="resigned")

    def rate(_):
        with transaction.atomic():
            return rating_rules.match_rate(Match.objects.get(pk=match.pk)) is not None

    assert sorted(race(rate)) == [False] * (THREADS - 1) + [True]
    assert RatedMatch.objects.count() == 1
    assert rating(ada_player).matches == rating(bob_player).matches == 1
    assert rating(bob_player).rating == library(score=1).rating


@pytest.mark.postgresql  # row locks under threads
@pytest.mark.django_db(transaction=True)
def test_both_players_resigning_at_once_rate_one_result(ada, bob):
    (ada_player, ada_api), (bob_player, bob_api) = ada, bob
    match = friend_match(ada_player, bob_player, target=50)
    apis = [ada_api, bob_api]

    statuses = race(lambda i: apis[i % 2].post(f"spite-malice/matches/{match.pk}/resign")
                    .status_code, count=2)

    assert sorted(statuses) == [200, 409]
    match.refresh_from_db()
    assert RatedMatch.objects.count() == 1
    winner = ada_player if match.winner == 0 else bob_player
    assert rating(winner).rating == library(score=1).rating
    assert rating(ada_player).matches == rating(bob_player).matches == 1


# --- The board -----------------------------------------------------------------------------


def play(winner, loser, times=1):
    for _ in range(times):
        match = friend_match(winner, loser, target=1)
        resign(loser, match)


@pytest.fixture
def league(make_player):
    """Five players who played enough to be established, two who did not yet."""
    players = {name: make_player(name) for name in ("Ann", "Ben", "Cat", "Dan", "Eve",
                                                   "Fay", "Gus")}
    p = {name: player for name, (player, _) in players.items()}
    # Ann beats everyone; Eve loses to everyone; the middle three trade results.
    for other in ("Ben", "Cat", "Dan", "Eve"):
        play(p["Ann"], p[other], times=2)
    for other in ("Ben", "Cat", "Dan"):
        play(p[other], p["Eve"], times=2)
    play(p["Ben"], p["Cat"], times=2)
    play(p["Cat"], p["Dan"], times=2)
    play(p["Dan"], p["Ben"], times=2)
    play(p["Fay"], p["Gus"])  # one match each: provisional
    return players


def board_order() -> list[str]:
    return [row.player.name for row in Rating.objects.select_related("player")
            .order_by("provisional", "-rating", "player_id")]


def test_the_board_ranks_established_players_and_lists_provisional_ones_apart(league, api):
    body = api.get(BOARD).json()

    names = [entry["player"]["name"] for entry in body["results"]]
    assert names[0] == "Ann" and names[-1] == "Eve" and sorted(names) == [
        "Ann", "Ben", "Cat", "Dan", "Eve"]
    ratings_shown = [entry["rating"] for entry in body["results"]]
    assert ratings_shown == sorted(ratings_shown, reverse=True)
    assert [entry["rank"] for entry in body["results"]][:1] == [1]
    for entry in body["results"]:
        stored = Rating.objects.get(player_id=entry["player"]["id"])
        assert entry["rating"] == round(stored.rating) and entry["matches"] == stored.matches
        assert entry["deviation"] == round(stored.deviation) <= 200
        assert set(entry) == {"rank", "player", "rating", "deviation", "matches"}
    assert [entry["player"]["name"] for entry in body["provisional"]] == ["Fay", "Gus"]
    assert all("rank" not in entry and entry["matches"] == 1 for entry in body["provisional"])
    assert body["me"] is None and body["next"] is None


def test_equal_shown_ratings_share_a_rank(make_player, api):
    ann, ben, cat = (make_player(name)[0] for name in ("Ann", "Ben", "Cat"))
    # Two identical histories: Ann and Ben each beat seven new players; Cat beats six.
    for winner, wins in ((ann, 7), (ben, 7), (cat, 6)):
        for index in range(wins):
            play(winner, make_player(f"{winner.name} {index}")[0])

    body = api.get(BOARD).json()

    assert [(entry["player"]["name"], entry["rank"]) for entry in body["results"]] in (
        [("Ann", 1), ("Ben", 1), ("Cat", 3)], [("Ben", 1), ("Ann", 1), ("Cat", 3)])
    assert body["results"][0]["rating"] == body["results"][1]["rating"]
    assert len(body["provisional"]) == 20
    # One player a page: the tie holds across pages.
    page, ranks = api.get(BOARD, {"limit": 1}).json(), []
    while page["results"]:
        ranks += [entry["rank"] for entry in page["results"]]
        page = api.get(page["next"]).json()
    assert ranks == [1, 1, 3]


@pytest.mark.long
def test_pages_follow_one_another_with_ranks_kept(league, api):
    first = api.get(BOARD, {"limit": 3}).json()
    assert len(first["results"]) == 3 and first["provisional"] == []
    second = api.get(first["next"]).json()
    third = api.get(second["next"]).json()

    seen = [entry["player"]["name"] for page in (first, second, third)
            for entry in page["results"] + page["provisional"]]
    assert seen == board_order() and third["next"] is None
    assert [entry["player"]["name"] for entry in second["provisional"]] == ["Fay"]
    whole = api.get(BOARD).json()["results"]
    assert [entry["rank"] for entry in first["results"] + second["results"]] == [
        entry["rank"] for entry in whole]


def test_me_is_your_entry_ranked_or_provisional(league, make_player):
    _, ann_api = league["Ann"]
    _, fay_api = league["Fay"]
    _, new_api = make_player("New")

    ann = ann_api.get(BOARD, {"limit": 1}).json()["me"]
    assert ann["rank"] == 1 and ann["provisional"] is False and ann["player"]["name"] == "Ann"
    fay = fay_api.get(BOARD, {"limit": 1}).json()["me"]
    assert fay["rank"] is None and fay["provisional"] is True and fay["matches"] == 1
    assert new_api.get(BOARD).json()["me"] is None


def test_bad_board_queries_are_problems(db, api):
    assert_problem(api.get(BOARD, {"limit": 0}), 400, "invalid")
    assert_problem(api.get(BOARD, {"limit": 101}), 400, "invalid")
    assert_problem(api.get(BOARD, {"cursor": "nope"}), 400, "invalid")
    nan = Cursor(False, float("nan"), uuid.uuid4())
    assert_problem(api.get(BOARD, {"cursor": nan.encode()}), 400, "invalid")
    assert_problem(api.get(BOARD, {"page": "2"}), 400, "invalid")
    assert api.get(BOARD).json() == {"results": [], "provisional": [], "me": None,
                                     "next": None, "bots": []}


# --- Profile and statistics ----------------------------------------------------------------


def test_the_profile_and_the_stats_show_the_rating(ada, bob, api):
    (ada_player, ada_api), (bob_player, _) = ada, bob
    assert ada_api.get("players/me/stats").json()["spite_malice"]["rating"] is None

    resign(bob_player, friend_match(ada_player, bob_player, target=1))

    won = library(score=1)
    expected = {"rating": round(won.rating), "deviation": round(won.rd), "matches": 1,
                "provisional": True}
    assert ada_api.get("players/me/stats").json()["spite_malice"]["rating"] == expected
    profile = api.get(f"players/{ada_player.pk}").json()
    assert profile["spite_malice"]["rating"] == expected
    assert api.get(f"players/{bob_player.pk}").json()["spite_malice"]["rating"]["rating"] == (
        round(library(score=0).rating))


def test_the_admin_lists_ratings_and_rated_matches(admin_client, ada, bob):
    (ada_player, _), (bob_player, _) = ada, bob
    resign(bob_player, friend_match(ada_player, bob_player, target=1))

    for page in ("/admin/ratings/rating/", "/admin/ratings/ratedmatch/"):
        response = admin_client.get(page)
        assert response.status_code == 200 and b"Ada" in response.content
    rated = RatedMatch.objects.get()
    assert admin_client.get(f"/admin/ratings/ratedmatch/{rated.pk}/change/").status_code == 200
