"""The house bot's CPU a turn, counted where each turn is played: ``TurnTimer`` adds up the calls
of one turn, and ``foursquare_bot_turn_cpu_seconds`` gets one observation per turn, labelled
with the level and with where it ran (a request, or the background job)."""

from __future__ import annotations

import pytest

from server.core.metrics import REGISTRY
from server.jobs.background import job_run_next
from server.spitemalice import house_bot
from server.spitemalice.house_bot import TurnTimer
from server.spitemalice.models import Match
from spitemalice import bot
from tests.server.spitemalice.support import act, engine_of, start, url

pytestmark = pytest.mark.sqlite

NAME = "foursquare_bot_turn_cpu_seconds"


def observed(level: str, where: str) -> tuple[float, float]:
    """(turns observed, their CPU seconds) so far in this process."""
    labels = {"level": level, "where": where}
    return (REGISTRY.get_sample_value(f"{NAME}_count", labels) or 0.0,
            REGISTRY.get_sample_value(f"{NAME}_sum", labels) or 0.0)


def bot_turns(match: dict) -> int:
    """The bot's turns played so far in the match's game: its discards (each ends one of its
    turns, and the game is still on, so no turn of it ended otherwise)."""
    engine = engine_of(match["id"])
    assert engine.status == "playing"
    seat = Match.objects.get(pk=match["id"]).bot_seat
    return sum(1 for played in engine.history if played.player == seat
               and played.counts_as is None)


def discard(api, match: dict) -> dict:
    action = next(a for a in match["game"]["legal_actions"] if a[1].startswith("S"))
    response = act(api, match, action)
    assert response.status_code == 200, response.content
    return response.json()


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_turn_is_observed_once_with_the_cpu_of_all_its_calls(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(house_bot.time, "thread_time", clock)
    before = observed("hard", "test-calls")
    timer = TurnTimer("hard", "test-calls")
    for turn, spent in [((1, 2), 0.25), ((1, 2), 0.5), ((1, 4), 0.125)]:
        with timer.turn(turn):
            clock.now += spent
    # The first turn's two calls are observed as one turn when the next begins ...
    assert observed("hard", "test-calls") == (before[0] + 1, before[1] + 0.75)
    timer.done()  # ... and the last at done(), once
    assert observed("hard", "test-calls") == (before[0] + 2, before[1] + 0.875)
    timer.done()
    assert observed("hard", "test-calls") == (before[0] + 2, before[1] + 0.875)


def test_a_call_that_raises_still_counts_in_its_turn(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(house_bot.time, "thread_time", clock)
    before = observed("easy", "test-raise")
    timer = TurnTimer("easy", "test-raise")
    with pytest.raises(RuntimeError), timer.turn("t"):
        clock.now += 0.5
        raise RuntimeError("the search broke")
    timer.done()
    assert observed("easy", "test-raise") == (before[0] + 1, before[1] + 0.5)


def test_each_bot_turn_played_in_a_request_is_observed_once(player_api):
    before = observed("easy", "request")
    match = start(player_api, level="easy", target=50)
    for _ in range(4):
        if match["game"]["turn"] != 0:
            match = player_api.get(url(match)).json()
        match = discard(player_api, match)
    turns = bot_turns(match)
    assert turns >= 4  # one after each of the person's turns
    count, cpu = observed("easy", "request")
    assert count - before[0] == turns
    assert cpu > before[1]  # each search takes some CPU


def test_expert_turns_are_observed_as_the_jobs_that_play_them(player_api, settings,
                                                              monkeypatch):
    settings.SPITE_MALICE_BOT_SECONDS = 60.0
    monkeypatch.setattr(bot, "EXPERT_WORLDS", 4)  # its way, with a small search, for time
    in_requests = observed("expert", "request")
    in_jobs = observed("expert", "job")
    match = start(player_api, level="expert", target=50)
    for _ in range(3):
        while match["game"]["turn"] != 0:  # the bot is to move: its job plays
            assert job_run_next() is not None
            match = player_api.get(url(match)).json()
        match = discard(player_api, match)
    while match["game"]["turn"] != 0:
        assert job_run_next() is not None
        match = player_api.get(url(match)).json()
    turns = bot_turns(match)
    assert turns >= 3
    assert observed("expert", "job")[0] - in_jobs[0] == turns
    assert observed("expert", "request") == in_requests  # never searched in a request
