"""Turn clocks between people: the deadline each turn shows, and the match lost on time when
it passes, applied exactly once by whoever notices first (a read, a write or the worker),
even when they race; and joins racing for one seat."""

from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta

import pytest
from django.core.management import call_command
from django.db import connection

from server.jobs import background
from server.ratings.models import RatedMatch
from server.spitemalice import clocks
from server.spitemalice.models import Event, Match
from tests.server.concurrently import THREADS, race
from tests.server.conftest import assert_problem
from tests.server.spitemalice.friend_support import (
    MATCHES,
    aged,
    invite,
    kinds,
    overdue,
    pair,
    take_turn,
    whose_turn,
)
from tests.server.spitemalice.support import act, greedy, start, url

pytestmark = pytest.mark.sqlite

ON_TIME = ["timeout", "game_over", "match_over"]


def parse(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def assert_lost_on_time(api, match_id, loser: int) -> None:
    over = api.get(f"{MATCHES}/{match_id}").json()
    assert over["status"] == "finished" and over["reason"] == "timeout"
    assert over["winner"] == 1 - loser and over["deadline"] is None
    assert over["game"]["status"] == "timeout" and over["game"]["legal_actions"] == []
    events = api.get(f"{MATCHES}/{match_id}/events").json()["events"]
    assert [event["kind"] for event in events].count("match_over") == 1
    assert [event["kind"] for event in events][-3:] == ON_TIME
    timeout = events[-3]
    assert timeout["seat"] == loser and timeout["game"] == 1
    assert events[-1]["reason"] == "timeout" and events[-1]["winner"] == 1 - loser


def test_each_turn_has_its_own_deadline(make_player):
    apis, views = pair(make_player, turn_seconds=3600)
    first = Match.objects.get(pk=views[0]["id"])
    assert parse(views[0]["deadline"]) == first.turn_started_at + timedelta(seconds=3600)
    assert views[0]["deadline"] == views[1]["deadline"]

    seat = whose_turn(views)
    view = views[seat]
    assert act(apis[seat], view, greedy(view["game"])).status_code == 200
    views = {viewer: apis[viewer].get(url(view)).json() for viewer in (0, 1)}
    if whose_turn(views) == seat:  # within the turn: the same deadline
        assert views[0]["deadline"] == view["deadline"]
        views = take_turn(apis, views)
    later = Match.objects.get(pk=views[0]["id"])
    assert whose_turn(views) == 1 - seat
    assert later.turn_started_at > first.turn_started_at
    assert parse(views[0]["deadline"]) == later.turn_started_at + timedelta(seconds=3600)


def test_a_match_against_the_bot_has_no_clock(player_api):
    match = start(player_api)
    assert match["turn_seconds"] is None and match["deadline"] is None
    assert match["invite"] is None and match["rematch"] is None


@pytest.mark.parametrize("read", ["detail", "list", "events"])
def test_a_read_after_the_deadline_ends_the_match_on_time_once(make_trusted_player, read):
    apis, views = pair(make_trusted_player, first_turns=True)
    loser = whose_turn(views)
    overdue(views[0]["id"])
    reader = apis[1 - loser]
    do = {"detail": lambda: reader.get(url(views[0])), "list": lambda: reader.get(MATCHES),
          "events": lambda: reader.get(url(views[0], "/events"))}[read]

    assert do().status_code == 200
    assert do().status_code == 200

    assert_lost_on_time(reader, views[0]["id"], loser)
    assert Event.objects.filter(match_id=views[0]["id"], kind="match_over").count() == 1


@pytest.mark.parametrize("write", ["action", "resign"])
def test_a_write_after_the_deadline_is_refused_and_the_match_lost_on_time(make_trusted_player,
                                                                           write):
    apis, views = pair(make_trusted_player, first_turns=True)
    loser = whose_turn(views)
    overdue(views[0]["id"])
    view = views[loser]

    if write == "action":
        response = act(apis[loser], view, greedy(view["game"]))
    else:
        response = apis[loser].post(url(view, "/resign"))

    assert_problem(response, 409, "game_over")
    assert "deadline" in response.json()["detail"]
    assert_lost_on_time(apis[0], view["id"], loser)
    assert RatedMatch.objects.filter(match_id=view["id"]).count() == 1
    assert Event.objects.filter(match_id=view["id"]).exclude(kind__in=ON_TIME).filter(
        kind="resigned").count() == 0


def test_the_opponents_write_after_the_deadline_also_ends_it(make_trusted_player):
    apis, views = pair(make_trusted_player, first_turns=True)
    loser = whose_turn(views)
    overdue(views[0]["id"])
    assert_problem(apis[1 - loser].post(url(views[0], "/resign")), 409, "game_over")
    assert_lost_on_time(apis[1 - loser], views[0]["id"], loser)


def test_the_worker_ends_matches_on_time_and_expires_invitations(make_trusted_player):
    apis, views = pair(make_trusted_player, first_turns=True)
    loser = whose_turn(views)
    _, untouched = pair(make_trusted_player, names=("Cy", "Dee"))
    waiting = invite(apis[0])
    overdue(views[0]["id"])
    aged(waiting["id"])

    call_command("run_jobs", "--once")

    stored = Match.objects.get(pk=views[0]["id"])
    assert (stored.status, stored.reason, stored.winner) == ("finished", "timeout", 1 - loser)
    expired = Match.objects.get(pk=waiting["id"])
    assert (expired.status, expired.reason) == ("cancelled", "expired")
    assert Match.objects.get(pk=untouched[0]["id"]).status == "playing"
    assert clocks.sweep() == 0  # nothing left to do, nothing done twice
    assert kinds(apis[0], views[0]).count("match_over") == 1


def test_the_in_process_runner_sweeps_every_few_seconds(make_trusted_player):
    _apis, views = pair(make_trusted_player, first_turns=True)
    overdue(views[0]["id"])
    ticker = background.Ticker()
    started = time.monotonic()
    assert ticker.run_due(started)["spite-malice clocks"] == 1
    # Not due again until SWEEP_SECONDS have passed.
    assert "spite-malice clocks" not in ticker.run_due(started + clocks.SWEEP_SECONDS / 2)
    assert ticker.run_due(started + clocks.SWEEP_SECONDS)["spite-malice clocks"] == 0


def test_a_timeout_rates_the_match_once_as_a_loss(make_trusted_player):
    apis, views = pair(make_trusted_player, first_turns=True)
    loser = whose_turn(views)
    overdue(views[0]["id"])
    clocks.sweep()
    apis[0].get(url(views[0]))
    clocks.sweep()
    rated = RatedMatch.objects.get(match_id=views[0]["id"])
    assert rated.score_a == (0.0 if loser == 0 else 1.0)  # player_a is seat 0


# --- Races --------------------------------------------------------------------------------------


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_the_worker_and_requests_racing_on_an_expired_turn_end_it_exactly_once(make_trusted_player):
    apis, views = pair(make_trusted_player, first_turns=True)
    loser = whose_turn(views)
    view = views[loser]
    overdue(view["id"])
    attempts = [
        lambda: clocks.sweep(),
        lambda: clocks.sweep(),
        lambda: apis[0].get(url(view)).status_code,
        lambda: apis[1].get(url(view, "/events")).status_code,
        lambda: apis[1 - loser].get(MATCHES).status_code,
        lambda: act(apis[loser], view, greedy(view["game"])).status_code,
        lambda: apis[1 - loser].post(url(view, "/resign")).status_code,
    ]
    barrier = threading.Barrier(len(attempts))
    results: list = [None] * len(attempts)

    def run(index):
        try:
            barrier.wait(timeout=10)
            results[index] = attempts[index]()
        except Exception as error:  # noqa: BLE001 - reported below, in the test's thread
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(attempts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert not [result for result in results if isinstance(result, Exception)], results
    sweeps, reads, writes = results[:2], results[2:5], results[5:]
    assert sum(sweeps) <= 1 and set(reads) == {200} and set(writes) == {409}
    assert Event.objects.filter(match_id=view["id"], kind="match_over").count() == 1
    assert Event.objects.filter(match_id=view["id"], kind="timeout").count() == 1
    assert_lost_on_time(apis[0], view["id"], loser)
    assert RatedMatch.objects.filter(match_id=view["id"]).count() == 1


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_players_racing_to_join_one_invitation_seat_one_of_them(make_player):
    _, ada = make_player()
    code = invite(ada)["invite"]["code"]
    joiners = [make_player()[1] for _ in range(THREADS)]

    responses = race(lambda index: joiners[index].post(f"{MATCHES}/join", {"code": code}))

    assert sorted(r.status_code for r in responses) == [200] + [409] * (THREADS - 1)
    assert {r.json()["code"] for r in responses if r.status_code == 409} == {"match_full"}
    assert Event.objects.filter(kind="joined").count() == 1


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_join_retried_while_it_runs_gets_its_answer(make_player):
    _, ada = make_player()
    _, bob = make_player()
    code = invite(ada)["invite"]["code"]

    responses = race(lambda _: bob.post(f"{MATCHES}/join", {"code": code},
                                        HTTP_IDEMPOTENCY_KEY="join-race"))

    assert {r.status_code for r in responses} == {200}
    assert len({r.content for r in responses}) == 1
    assert Event.objects.filter(kind="joined").count() == 1
