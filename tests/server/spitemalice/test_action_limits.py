"""The rate limit of actions, as a bot meets it: the IETF RateLimit fields on every answer, and
no turn lost to the limit. An action on your own turn of a match on a clock is never counted
(``services.action_unlimited``): a whole turn, however many actions, at once, on a 60-second
clock and a limit far below it, is never throttled; out of turn, and against the bot (no
clock), the limit stands and says so. On both paths (the fast path, and the full view that
SQLite and every refusal take)."""

from __future__ import annotations

import pytest

from server.api import throttling
from server.spitemalice.models import Match
from tests.server.conftest import assert_problem
from tests.server.spitemalice.friend_support import pair, whose_turn
from tests.server.spitemalice.support import act, greedy, start, url

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

INSTANT = 1_800_000_000.0  # the limiter's clock stands still: every request in one instant


@pytest.fixture(params=["fast", "full"])
def paths(request, settings, monkeypatch):
    """Actions well below a person's pace allowed (3 a minute per token and per address), and
    every request at the same instant of the limiter's clock."""
    settings.SPITE_MALICE_FAST_ACTIONS = request.param == "fast"
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "moves.token": "3/min",
                               "moves.address": "3/min"}
    monkeypatch.setattr(throttling, "clock", lambda: INSTANT)
    return request.param


POLICY = '"moves.token";q=3;w=60, "moves.address";q=3;w=60'


def test_whole_turns_on_a_60_second_clock_are_never_throttled(paths, make_player):
    apis, views = pair(make_player, turn_seconds=60)
    played = {0: 0, 1: 0}
    while min(played.values()) <= 3:  # whole turns, as fast as the server answers
        seat = whose_turn(views)
        view = views[seat]
        while view["status"] == "playing" and view["game"]["turn"] == seat:
            response = act(apis[seat], view, greedy(view["game"]))
            assert response.status_code == 200, response.content
            assert response["RateLimit-Policy"] == POLICY
            assert "RateLimit" not in response  # not counted
            view = response.json()
            played[seat] += 1
        views = {seat: view, 1 - seat: apis[1 - seat].get(url(view)).json()}
    assert min(played.values()) > 3  # more than the limit lets in, none refused
    match = Match.objects.get(pk=views[0]["id"])
    assert (match.status, match.turn_seconds) == (Match.Status.PLAYING, 60)


def test_actions_out_of_turn_are_counted_and_refused_past_the_limit(paths, make_player):
    apis, views = pair(make_player, turn_seconds=60)
    waiting = 1 - whose_turn(views)
    view = views[waiting]
    game = views[1 - waiting]["game"]
    action = {"action": game["legal_actions"][0], "game": game["number"],
              "actions": game["actions"]}
    for remaining in (2, 1, 0):
        response = apis[waiting].post(url(view, "/actions"), action)
        assert_problem(response, 409, "not_your_turn")
        assert response["RateLimit"] == (f'"moves.token";r={remaining};t=60, '
                                         f'"moves.address";r={remaining};t=60')
    refused = apis[waiting].post(url(view, "/actions"), action)
    assert_problem(refused, 429, "throttled")
    assert refused["Retry-After"] == "60"
    assert refused["RateLimit-Policy"] == POLICY
    assert refused["RateLimit"] == '"moves.token";r=0;t=60, "moves.address";r=0;t=60'
    # The seat whose turn it is plays on: its own turn's actions are not counted.
    seat = 1 - waiting
    response = act(apis[seat], views[seat], greedy(views[seat]["game"]))
    assert response.status_code == 200, response.content


def test_actions_against_the_bot_are_limited_and_say_where_they_stand(paths, make_player):
    _, player = make_player("Ada")
    match = start(player)
    answers = []
    for _ in range(4):
        response = act(player, match, greedy(match["game"]))
        answers.append(response)
        if response.status_code != 200:
            break
        match = response.json()
    assert [answer.status_code for answer in answers] == [200, 200, 200, 429]
    assert [answer["RateLimit"] for answer in answers] == [
        f'"moves.token";r={left};t=60, "moves.address";r={left};t=60' for left in (2, 1, 0, 0)]
    assert all(answer["RateLimit-Policy"] == POLICY for answer in answers)
    assert answers[-1]["Retry-After"] == "60"
