"""A bot turn left to the background always gets played: its job is tried again, and once it
has failed for good (every attempt raised, or its process died) the rest of the turn is played
by the fallback, the engine's first legal discard; if even that cannot be stored, the bot
resigns. The player is never left facing a bot that does not move."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from server.jobs.background import MAX_ATTEMPTS, job_run_next
from server.jobs.models import Job
from server.spitemalice import house_bot, services, tasks
from server.spitemalice.models import Match
from spitemalice import bot
from tests.server.spitemalice.support import act, start, url

pytestmark = pytest.mark.sqlite


@pytest.fixture
def bot_to_finish(player_api, settings) -> dict:
    """A match against the bot whose reply is left to its background job."""
    settings.SPITE_MALICE_BOT_SECONDS = 0  # every bot turn goes to the background
    match = start(player_api, level="easy", target=50)
    while match["game"]["turn"] != 0:  # the bot started: let its job play
        assert job_run_next() is not None
        match = player_api.get(url(match)).json()
    discard = next(a for a in match["game"]["legal_actions"] if a[1].startswith("S"))
    after = act(player_api, match, discard).json()
    assert after["game"]["turn"] == 1 and Match.objects.get(pk=match["id"]).bot_pending
    return after


@pytest.fixture
def bot_broken(monkeypatch):
    def broken(*args):
        raise RuntimeError("the bot's search broke")

    monkeypatch.setattr(services, "bot_actions", broken)


def bot_job(match: dict) -> Job:
    return Job.objects.get(kind=services.BOT_JOB, key=match["id"])


def attempts_fail(match: dict) -> Job:
    """Run the bot's job until it has used up its attempts (each retry's wait skipped)."""
    for _ in range(MAX_ATTEMPTS):
        Job.objects.filter(pk=bot_job(match).pk).update(run_after=timezone.now())
        assert job_run_next() is not None
    return bot_job(match)


def assert_the_person_plays_on(player_api, before: dict) -> dict:
    now = player_api.get(url(before)).json()
    assert now["status"] == "playing" and now["game"]["turn"] == 0
    assert not Match.objects.get(pk=before["id"]).bot_pending
    new = player_api.get(url(before, "/events"), {"after": before["event"]}).json()["events"]
    assert [event["kind"] for event in new if event.get("seat") == 1][-1] == "discard"
    discard = next(a for a in now["game"]["legal_actions"] if a[1].startswith("S"))
    assert act(player_api, now, discard).status_code == 200  # and the game goes on
    return now


def test_a_bot_job_that_fails_every_time_is_played_by_the_fallback(player_api, bot_to_finish,
                                                                  bot_broken):
    job = attempts_fail(bot_to_finish)
    assert (job.status, job.attempts) == ("failed", MAX_ATTEMPTS)
    assert "the bot's search broke" in job.error
    assert_the_person_plays_on(player_api, bot_to_finish)


def test_a_bot_job_whose_process_dies_every_time_is_played_by_the_fallback(
        player_api, bot_to_finish, monkeypatch):
    def killed(*args):  # the worker is killed mid-turn: nothing stored, the job left running
        raise SystemExit("killed")

    monkeypatch.setattr(services, "bot_actions", killed)
    for attempt in range(1, MAX_ATTEMPTS + 1):
        with pytest.raises(SystemExit):
            job_run_next()
        job = bot_job(bot_to_finish)
        assert (job.status, job.attempts) == ("running", attempt)
        Job.objects.filter(pk=job.pk).update(  # its process is gone: the attempt is stale
            started_at=timezone.now() - tasks.BOT_TURN_STALE_AFTER - timedelta(seconds=1))
    assert job_run_next().status == "failed"
    assert "never finished" in bot_job(bot_to_finish).error
    assert_the_person_plays_on(player_api, bot_to_finish)


def test_a_bot_turn_that_even_the_fallback_cannot_play_ends_with_the_bot_resigning(
        player_api, bot_to_finish, bot_broken, monkeypatch):
    def unplayable(engine):
        raise ValueError("the match's actions no longer replay")

    monkeypatch.setattr(services, "_fallback_action", unplayable)
    attempts_fail(bot_to_finish)
    over = player_api.get(url(bot_to_finish)).json()
    assert (over["status"], over["reason"], over["winner"]) == ("finished", "resigned", 0)
    assert not Match.objects.get(pk=bot_to_finish["id"]).bot_pending
    events = player_api.get(url(bot_to_finish, "/events"),
                            {"after": bot_to_finish["event"]}).json()["events"]
    assert ("resigned", 1) in [(event["kind"], event.get("seat")) for event in events]


def test_a_repair_that_could_not_be_stored_is_made_when_the_player_looks(
        player_api, bot_to_finish, bot_broken, monkeypatch):
    def database_down(*args, **kwargs):
        raise ConnectionError("the database went away")

    with monkeypatch.context() as outage:
        outage.setattr(services, "_fallback_action", database_down)
        outage.setattr(services, "_seat_resigns", database_down)
        attempts_fail(bot_to_finish)
    assert Match.objects.get(pk=bot_to_finish["id"]).bot_pending  # stuck, for now
    assert job_run_next() is None  # no job left to run it

    assert_the_person_plays_on(player_api, bot_to_finish)  # the read repairs it


def test_the_next_long_bot_turn_after_a_repair_gets_a_job_of_its_own(player_api, bot_to_finish,
                                                                     bot_broken, monkeypatch):
    attempts_fail(bot_to_finish)
    now = assert_the_person_plays_on(player_api, bot_to_finish)  # its discard left to a job
    monkeypatch.setattr(services, "bot_actions", house_bot.bot_actions)  # it works again
    job = bot_job(now)
    assert (job.status, job.attempts) == ("pending", 0)
    assert job_run_next().status == "done"
    assert player_api.get(url(now)).json()["game"]["turn"] == 0


def test_an_expert_bots_turns_never_run_in_a_request(player_api, settings, monkeypatch):
    # A budget the other levels' turns fit in many times: expert's still go to the job.
    settings.SPITE_MALICE_BOT_SECONDS = 60.0
    levels: list[str] = []
    search = services.bot_actions

    def counted(view, unseen, level, seed):
        levels.append(level)
        return search(view, unseen, level, seed)

    monkeypatch.setattr(services, "bot_actions", counted)
    monkeypatch.setattr(bot, "EXPERT_WORLDS", 4)  # its way, with a small search, for time
    match = start(player_api, level="expert", target=50)
    assert levels == []  # the match is made without a search, whoever starts
    for _ in range(4):  # the bot's first turn, if it starts, in its job
        if match["game"]["turn"] == 0:
            break
        asked = len(levels)
        assert job_run_next() is not None and len(levels) > asked
        match = player_api.get(url(match)).json()
    assert match["game"]["turn"] == 0
    asked = len(levels)
    discard = next(a for a in match["game"]["legal_actions"] if a[1].startswith("S"))
    after = act(player_api, match, discard).json()
    assert after["game"]["turn"] == 1 and len(levels) == asked  # not searched in the request
    assert Match.objects.get(pk=match["id"]).bot_pending
    assert job_run_next() is not None
    assert set(levels) == {"expert"} and len(levels) > asked
    assert player_api.get(url(match)).json()["game"]["turn"] == 0
